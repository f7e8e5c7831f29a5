//! `/method`: the cost model in plain words, with the formulas, the assumptions and their
//! defaults, and what the calculator does not model.

use leptos::prelude::*;
use leptos_meta::Title;
use servecost::scenario::defaults as d;

use crate::format::number;
use servecost::decision::defaults as u;
use servecost::projection::defaults as y;

/// The method page.
#[component]
pub fn Method() -> impl IntoView {
    let assumptions = [
        ("Prefill rate P", number(d::PREFILL), "uncached input tokens/s per GPU"),
        ("Cache-hit cost ratio k", number(d::CACHE_COST), "GPU time of a cached token over an uncached one"),
        ("Target utilisation at peak", number(d::UTIL), "share of a replica's capacity"),
        ("Spare replicas", number(d::REDUNDANCY), "replicas"),
        ("Minimum replicas", number(d::MIN_REPLICAS), "replicas"),
        ("Operations staff", number(d::OPS_FTE), "FTE"),
        ("Loaded cost per FTE", number(d::FTE_COST), "$ per year"),
        ("Owned hardware paid off over", number(d::YEARS), "years"),
        ("Cost of capital", number(d::RATE), "per year"),
        ("Power usage effectiveness", number(d::PUE), "ratio"),
        ("Electricity", number(d::KWH), "$ per kWh"),
        ("Facility", number(d::COLO), "$ per kW-month"),
        ("Maintenance", number(d::MAINT), "share of capex per year"),
        ("Requests per month (default workload)", number(d::REQUESTS), "coding-agent requests"),
    ]
    .into_iter()
    .map(|(what, value, unit)| view! { <tr><th scope="row">{what}</th><td>{value}</td><td>{unit}</td></tr> })
    .collect_view();
    let ranges = [
        ("Prefill rate P", "u_prefill", format!("the input's share of the curve's GPU time, ×1/{0} to ×{0} in odds (about P/{0} to P·{0} while input takes little of it)", number(u::PREFILL)), "log-uniform in odds", "always", "Centred on P as given; servecost's assumption, not a published measurement: as likely half as double. Drawn through the share of the curve's GPU time that goes to input at its measured point, so that P, k and the curve's throughput drawn together still reproduce the measured point (source: servecost-assumptions)."),
        ("Cache-hit cost ratio k", "u_cache_cost", format!("×1/{0} to ×{0}, at most 1", number(u::CACHE_COST)), "log-uniform", "always", "Centred on k as given. No publication measures what attention over a cached prefix costs (source: servecost-assumptions)."),
        ("The curve's mix, when assumed", "u_curve_mix", format!("up to {} of the way to the other reading, and as far the other way (more input cached, at most all of it)", crate::format::percent(u::CURVE_MIX)), "uniform", "the publication states no mix", "Centred on the assumed mix. Both readings fit the publication (its source): the AgentPerf agent trace, or fixed input and output lengths without a prefix cache; the assumed one may overstate or understate the caching."),
        ("Haircut on a vendor's curve", "u_haircut", format!("throughput ×{} to ×1 (one-sided)", number(1.0 - u::HAIRCUT)), "uniform", "the curve's publisher sells the stack it measures, or the curve is a development run (data tier experimental)", "The one range that runs one way: the vendor's own publication (the curve's source) is its stack at its best, which a buyer's deployment may not reach. Where it applies, the figures as given sit at its top, and the page says so when the sample leans away from them."),
        ("Spread between independent curves of one model on chips of one family", "u_curves", format!("×1/s to ×s around the curve in use, s the furthest independent curve's ratio ({} of the spread)", crate::format::percent(u::CURVES)), "log-uniform", "the dataset has another independent curve of the model on the family", "Centred on the curve in use, drawn both ways: independent measurements of one model on one chip family disagree (InferenceX's B300 runs against SGLang's GB300 runs differ 2.5 to 3.5 times at every speed). A vendor's curve is not independent and sets no spread: it has its haircut. Source: the furthest curve's."),
        ("GPU-hour price", "u_gpu_hour", "by the price's kind: reserved ×1/1.1 to ×1.1, on demand ×1.25, spot ×1.5, owner's cost ×1.3, owned ×1.2, not stated ×1.3".to_owned(), "log-uniform", "always", "A reserved term fixes the price; list prices move and are discounted; spot swings; an owner's cost and owned hardware rest on estimates."),
        ("Target utilisation", "u_util", format!("±{}", number(u::UTIL)), "uniform", "always", "How close to full a replica runs while holding the speed depends on the stack and the traffic."),
        ("API prices", "u_api", format!("×1/{0} to ×{0}", number(u::API)), "log-uniform", "always", "List prices move and large buyers negotiate them."),
    ]
    .into_iter()
    .map(|(what, param, range, dist, applies, why)| view! {
        <tr><th scope="row">{what}</th><td><code>{param}</code></td><td>{range}</td><td>{dist}</td><td>{applies}</td><td>{why}</td></tr>
    })
    .collect_view();
    let percent = crate::format::exact_percent;
    let years_defaults = [
        ("Years ahead", "horizon", format!("{} years", number(y::HORIZON)), "The term of the longest reserved price in the dataset (the 3-year rental), within the 4 years owned hardware is paid off over: the commitment a decision to self-host usually takes."),
        ("Growth of the monthly volume", "growth", percent(y::GROWTH), "A forecast of your traffic is yours to make; none is assumed."),
        ("Change of API prices", "api_trend", percent(y::API_TREND), "An offer's list price changes in steps no dataset row foresees; published prices are held as listed. Enter a fall you expect (e.g. -30%) to see how it moves the answer."),
        ("Change of GPU-hour prices", "gpu_trend", percent(y::GPU_TREND), "Likewise for GPU rental and the capex of GPUs bought later; a reserved block keeps the price of the month it was reserved, bought GPUs their purchase price."),
        ("Discount rate", "discount_rate", percent(y::DISCOUNT_RATE), "The same 8 % as the cost of capital owned hardware is paid off at, so owned and rented GPUs are discounted alike."),
        ("Value of owned GPUs at the horizon's end", "residual", percent(y::RESIDUAL), "A share of their purchase price, credited in the present value with commitments. None is assumed: what a GPU resells for years ahead is a forecast no source gives, and an implicit value (capital not yet charged treated as if recovered) would hide it; enter yours."),
    ]
    .into_iter()
    .map(|(what, param, value, why)| view! {
        <tr><th scope="row">{what}</th><td><code>{param}</code></td><td>{value}</td><td>{why}</td></tr>
    })
    .collect_view();
    view! {
        <Title text="servecost: how the calculation works"/>
        <header class="masthead">
            <h1>"How the calculation works"</h1>
            <crate::components::SiteNav current="/method"/>
        </header>
        <article class="method">
            <p>"All money is US dollars, all volumes are tokens per month, and a month is 730 hours. Every token is one of three classes: uncached input (U), cached input (C, served from a prefix cache) and output (O). Published figures that count all tokens alike hide how different these are: an agent trace is nearly all cached input, a chat product nearly the opposite."</p>
            <h2>"Renting"</h2>
            <p>"With input price p_in and output price p_out per million tokens, cache discount d and router markup m:"</p>
            <pre>"rent = (U·p_in + C·p_in·(1 − d) + O·p_out) · (1 + m) / 1,000,000"</pre>
            <h2>"Self-hosting: from a measured curve to GPU time per class"</h2>
            <p>"A curve is a set of measured points: output tokens/s per user (s) and total tokens/s per GPU (T), measured at a mix of classes on a replica of g GPUs. A curve published as $ per million tokens at a chip-hour price p converts exactly: T = p / ($/M · 3600) · 1,000,000. Between points, throughput is interpolated linearly in (s, ln T): monotone, exact at every point. Below the slowest point its throughput is used and the result is flagged; above the fastest there is no answer."</p>
            <p>"Two assumptions split the GPU's time between classes: the prefill rate P and the cache-hit cost ratio k. In GPU-seconds per token:"</p>
            <pre>"g_u = 1/P     g_c = k/P     g_o = (1/T(s) − (f_u + k·f_c)/P) / f_o"</pre>
            <p>"so the model gives back the curve exactly at the mix it was measured at, whatever P and k. They matter when your mix differs from the curve's: the calculator warns when it is far. If P and k leave no GPU time for output, they contradict the curve and the calculator says which prefill rate would be needed. Marginal cost per class at full use is gpu_hour / 3600 · g · 1,000,000."</p>
            <h2>"Idle hours and capacity held for peak"</h2>
            <p>"Demand is U·g_u + C·g_c + O·g_o GPU-seconds a month, spread over a week of 168 hourly weights (mean 1). Each hour needs busy GPUs / (g · utilisation) replicas. A fixed fleet holds max(minimum, ceil(peak need)) + spares every hour; hourly scaling (on-demand and spot prices only) holds what each hour needs. The bill shows busy compute and idle compute as separate lines. The week is a preset, peak hours at a multiple of the average (the other hours share the rest of the load evenly), your own 24 or 168 weights, or the hours a usage export measured."</p>
            <h2 id="batch">"Batch traffic"</h2>
            <p>"A share of the tokens may be batch work that nobody waits for. Renting prices it at the API's batch discount on every class (the offer's, or yours; none when neither states one, with a warning). A self-hosted fleet serves it at the curve's most efficient point, its highest tokens/s per GPU, so a batch output token takes that point's GPU time; and it runs in the hours the other traffic leaves idle: the week's weights become the other traffic's shape with the batch work poured into the quietest hours up to a common level, the lowest that holds it. The fleet is sized for that week, so batch adds no GPU until the valleys are full. The bill says how many GPU-hours batch takes, how many of them fill idle time of a fleet held for the other traffic alone, and the share of that idle time. Two simplifications: batch tokens have the workload's mix, and the sureness sample keeps the filled week of the inputs as given."</p>
            <h2>"GPU-hour price"</h2>
            <p>"Every GPU-hour price says what it commits its buyer to. On demand: rented by the hour, stoppable at any hour. Spot: the same, interruptible. Reserved: rented for a term (the 3-year rental, 36 months with 25 % upfront), billed for the whole fixed fleet every hour of the term, used or not, so it cannot scale by the hour and its monthly figure holds only if the fleet keeps its size for the term. Owner's cost (SemiAnalysis's costh): what a hyperscaler pays to own and run the GPU, a floor rather than a price anyone rents at; the page offers it as what owning at hyperscale costs, and warns when it is in force. Hourly scaling on a reserved or owner's-cost price is refused, naming scaling and the tier. Your own price carries the kind you declare (on demand unless you say otherwise)."</p>
            <p>"Without a price of yours the chip's default tier applies: the cheapest of a rentable kind (on demand, spot or reserved) in its newest price survey, today the 3-year rental. Tiers of the first dataset revision state no kind: links pinned to it keep their numbers and say the commitment is not stated."</p>
            <p>"Defaults that decide the answer and the warning that guards each: the target speed is the API's measured speed, capped at the curve's fastest point (target_capped), and batch work is priced at that interactive speed (batch_at_interactive_speed); a curve whose publication does not state its mix is read as the AgentPerf agent trace, and the warning gives the answer under the other reading, fixed input and output lengths without a prefix cache, which curve_mix selects (assumed_mix); a mix is far from the curve's when its GPU-time shares differ by more than 20 points or a token takes more than twice (or less than half) the curve's GPU time (mix_far_from_curve); overflow sent to the API in a hybrid arrives without its prefix cache, so its cached input is priced as uncached unless overflow_warm says otherwise, and the hybrid keeps either the minimum fleet or more, or no replica at all (everything sent to the API, which is renting); operations staff are fixed unless ops_gpus_per_fte adds one per so many GPUs; a break-even search that stops at its step limit reports a bound and says so; a lever of the sensitivity chart held back by its bound is labelled with the setting used."</p>
            <p>"Offers that publish no cache discount (the router) are priced with none, and the page says what renting would cost if the provider's discount passed through. Power figures say what they measure: AgentPerf's accelerator power (GPU, die and HBM) decodes the per-MW headlines; a data sheet's board power (the MI355X's 1.4 kW) is flagged, since per-MW figures decoded with it come out low; the all-in IT power per GPU at the wall (host and network share, no cooling) pays the owned electricity bill, times PUE once."</p>
            <p>"Owned: capex annualised over the years at the cost of capital (capital recovery factor r(1+r)^Y / ((1+r)^Y − 1)) over 8,760 hours, plus power kW · PUE · $/kWh, plus facility $/kW-month · kW / 730, plus maintenance as a share of capex per year."</p>
            <h2>"Operations, hybrid and break-even"</h2>
            <p>"Operations are FTEs × loaded annual cost / 12 plus other fixed monthly costs. The hybrid caps the own fleet and sends the demand above the cap to the API, in the workload's class proportions; the cheapest cap is searched, and never costs more than renting or self-hosting alone. The break-even volume scales all three volumes together (same mix, same profile) and reports the smallest volume above which self-hosting stays cheaper; the break-even GPU-hour price is (rent − operations) / provisioned GPU-hours."</p>
            <h2>"Sensitivity"</h2>
            <p>"Each main input moves over a range — volume ×0.5/×2, GPU-hour price ×0.75/×1.25, API prices ×0.5/×1.5, interactivity ×0.75/×1.25, utilisation −0.2/+0.1, operations ×0.5/×2, P ×0.5/×2, k ×0.5/×2, cache misses ×0.5/×2 — and the tornado shows how self-hosting minus renting moves."</p>
            <h2 id="ranges">"How sure: the ranges of the uncertain inputs"</h2>
            <p>"The verdict names the cheapest of three plans: renting, self-hosting alone, and the best hybrid (own replicas with the demand above their cap sent to the API), named only when it is cheaper than both with some replicas and some demand at the API. How sure that is comes from a sample: each draw takes every uncertain input below at once from its range, independently, and costs the three plans again. A factor range ×1/f to ×f is drawn log-uniformly (as likely halved as doubled); a share or a step is drawn uniformly. Every range but the vendor's haircut is centred on the figure the answer uses: its median is the input as given, so the point answer is what the middle of every range gives and no range by itself pushes the sample one way. The sample is seeded by the scenario in its canonical form, so equivalent links (mix=2:7:1 and mix=20:70:10) give the same figures. P is drawn so that every draw still reproduces the measured curve; a draw that still has no answer is counted as a case of its own in every share, never left out. The page reports the share of draws in which the named plan holds (it is the cheapest, or within the tie threshold of the cheapest), the share in which each plan is cheapest (with the draws without an answer they add up to all), the share in which self-hosting beats renting, and the 10th, 50th and 90th percentiles of self-hosting minus renting per month. These are shares of plausible cases under the ranges stated here, not a forecast of what will happen. The sample draws until every share's standard error is at most one percentage point (at least 400 draws, at most 2,500 by default, which guarantees it), and prints each share no more precisely than that: about 62 %, more than 99 %. Where the named plan holds in under half of the cases, the verdict says so in its first sentence. Each range is a parameter of the link: set it to zero width (a factor of 1, a share of 0) to take that input as given; draws=0 turns the sample off."</p>
            <table data-testid="ranges">
                <thead><tr><th>"Uncertain input"</th><th>"Parameter"</th><th>"Default range"</th><th>"Distribution"</th><th>"Applies"</th><th>"Why"</th></tr></thead>
                <tbody>{ranges}</tbody>
            </table>
            <p>{format!("Draws: at most {} (the draws parameter, 0 to 10,000). The caveats shown under the verdict are the warnings whose range moves self-hosting minus renting most, each range taken alone at either end, at most three.", number(u::DRAWS))}</p>
            <h2 id="ties">"Ties"</h2>
            <p>{format!("Plans whose monthly bills differ by at most {} of the cheaper one cost the same (the tie parameter, 0 to 20 %): the inputs are not known to that precision. The verdict names tied plans together, a draw in which the named plan is within the tie of the cheapest counts as holding (the other draws are counted by the plan cheapest in them, the named plan more than the tie dearer, so that with the holding share they make the whole sample), and a change of the cheapest plan to one within the tie is not reported as a change.", crate::format::percent(u::TIE))}</p>
            <h2 id="bands">"Bands: where each plan is cheapest"</h2>
            <p>"Fleets come in whole replicas, so along the monthly volume the cheapest plan alternates: just past a replica step self-hosting pays for a nearly idle replica, the hybrid or renting can win again, and a few billion tokens later self-hosting is back. The report carries the band map along the volume (all three classes scaled together, the mix and the load profile kept), from a thousandth to a thousand times yours: for each stretch, the cheapest plan and the plans within the tie of it. Renting costs a straight line in the volume and a fixed fleet's self-hosting is constant between two replica steps, so each step is probed exactly (just past it, at renting's crossing within it, and at its end), with probes a tie apart in between; where one more replica is less than the tie of the fleet, and for a fleet that scales by the hour, probes stand a tie apart. Every change between two probes is narrowed by bisection to a ten-millionth of its volume (a ten-thousandth where probes stand a tie apart). A stretch narrower than the tie is no change a decision can rest on: the page's list of bands folds it into its neighbours, and what would change the answer skips it."</p>
            <h2 id="flips">"What would change it"</h2>
            <p>"For the monthly volume, the nearest band above and below yours, at least the tie wide, in which the plan as given is neither the cheapest nor within the tie of it, read from the band map with how far it lasts, and the volume past which the plan as given never holds again. For each other main input (GPU-hour price, API input and output prices, cache discount, utilisation, P, k, operations cost, and the curve's throughput from ×0.1 to ×10), the value nearest to yours at which the cheapest plan changes, above and below, to a plan more than the tie cheaper, within the input's accepted range: utilisation, P, k and throughput, which change the fleet in whole replicas, in 24 steps to each end; the prices and operations, on which each plan's cost is a straight line, in 12 (geometric over orders of magnitude, even for shares); then bisection to within a millionth of the value. A band narrower than one step in which another plan wins can be missed. A fleet grows in whole replicas, so the plans can trade places more than once: the nearest change is reported. An input none of whose values changes the plan is listed as such."</p>
            <h2 id="years">"Over the years"</h2>
            <p>"The plan follows renting, self-hosting and the best hybrid month by month over the horizon. Month m is priced t = (m − 1)/12 years ahead: the volume times (1 + growth)^t, API prices times (1 + api_trend)^t, GPU-hour prices times (1 + gpu_trend)^t. How the self-hosted fleet follows depends on what its price commits to. Rented by the hour (on demand, spot, or your own price): sized each month for that month's demand, at that month's price. Reserved: the replicas a month needs beyond those already reserved are reserved from that month for a whole term, at that month's price, and billed every month of it, so the fleet never shrinks within a term; at the end of its term a block is renewed as the demand then needs (a reserved price of your own states no term: 12 months are assumed). Owned, or a published owner's cost: GPUs are bought when first needed and kept; each pays its capital recovery, at the capex of its purchase month, until it is paid off, then only power, facility and maintenance. That is the one-month answer's capital charge, so the two agree; discounted at the cost of capital it is worth a little more than the capex paid up front (3.6 % more at 8 %: a yearly annuity paid in monthly twelfths), At the horizon's end the capital it has not yet charged is still owed: the plan reports it beside the totals as committed, and credits the GPUs' value then only as the residual parameter states it (none by default). A reserved price's upfront share of the whole term is billed in the month its block is signed, the rest month by month; the rest of a term that runs past the horizon is reported beside the totals as committed, with the present value counting it."</p>
            <p>"The best hybrid's own fleet is held the same way at the cap that is cheapest each month, and its held replicas serve what they can before the rest overflows to the API. Present values discount month m by (1 + discount_rate)^(−m/12). The cheapest plan over the horizon is the one with the lowest present value, by the one-month verdict's rule; when it differs from this month's, the verdict says so. Self-hosting's payback month is, when it costs more than renting in the first month, the first month by whose end its cumulative cost is no longer above renting's. With growth and trends at 0 every month costs what the one-month answer says."</p>
            <table data-testid="years-defaults">
                <thead><tr><th>"Assumption"</th><th>"Parameter"</th><th>"Default"</th><th>"Why"</th></tr></thead>
                <tbody>{years_defaults}</tbody>
            </table>
            <h2>"Power view"</h2>
            <p>"AgentPerf headlines count total tokens/s per MW of accelerator power (GPU, die and HBM). At your target the calculator gives tokens/s per MW and users decoding at once per MW (output tokens/s per MW over the target speed: fewer than a benchmark's concurrency, which also counts users waiting for a first token or between turns); the reverse turns a headline into tokens/s per GPU (× the chip's kW), and so into $ per million tokens at a GPU-hour price, split per class at the headline's own mix."</p>
            <h2>"Assumptions and their defaults"</h2>
            <p>"None of these is a published figure: change them to yours."</p>
            <table><thead><tr><th>"Assumption"</th><th>"Default"</th><th>"Unit"</th></tr></thead><tbody>{assumptions}</tbody></table>
            <h2>"What the calculator does not model"</h2>
            <ul>
                <li>"Latency beyond the per-user output speed: time to first token, tail latency and queueing are not priced."</li>
                <li>"Quality: a self-hosted checkpoint, quantisation or framework may answer differently from the hosted API."</li>
                <li>"Spot interruptions. A reserved term's cost beyond the month is in the plan over the years; the monthly figure alone assumes the fleet keeps its size for the whole term. Commitments that run past the horizon are counted only up to it."</li>
                <li>"Egress, storage, networking between replicas and the engineering time to set up the deployment."</li>
                <li>"Prefix-cache behaviour of your own traffic: cache hits are an input, not predicted."</li>
                <li>"Licence fees: only the revenue threshold is flagged."</li>
            </ul>
        </article>
    }
}
