//! Monthly totals for renting, self-hosting and the best hybrid, and the self-hosted bill.

use leptos::prelude::*;

use crate::citations::cite;
use crate::format::{percent, usd};

/// The three totals and the breakdown, idle compute on its own line.
#[component]
pub fn Totals(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
    /// Cited source keys.
    keys: Vec<String>,
) -> impl IntoView {
    let r = report;
    let b = r.self_host.breakdown;
    let hybrid = r.hybrid.map(|h| {
        let what = if h.replicas == 0.0 {
            "= renting everything".to_owned()
        } else {
            format!(
                "{} {}, {} of demand to the API",
                h.replicas,
                if h.replicas == 1.0 { "replica" } else { "replicas" },
                percent(h.api_share)
            )
        };
        view! {
            <div class="total hybrid" data-testid="hybrid-monthly" data-usd=h.monthly_usd.to_string()>
                <span class="label">"Best hybrid"</span>
                <span class="amount">{usd(h.monthly_usd)}</span>
                <span class="detail">{what}</span>
            </div>
        }
    });
    // Owned hardware: the GPU-hours' cost split into what the hour is made of.
    let compute = b.busy_compute + b.idle_compute;
    let hour = r.inputs.gpu_hour_usd;
    let owned = r.inputs.owned_parts.filter(|_| hour > 0.0).map(|p| {
        let line = |label: &'static str, id: &'static str, part: f64| {
            let v = compute * part / hour;
            view! { <tr class="part"><th scope="row">{label}</th><td data-testid=id data-usd=v.to_string()>{usd(v)}</td></tr> }
        };
        view! {
            <tr class="parts-head"><th scope="rowgroup" colspan="2">"The compute above, owned GPUs:"</th></tr>
            {line("Capital (purchase paid off)", "bill-capital", p.capital)}
            {line("Power", "bill-power", p.power)}
            {line("Facility", "bill-facility", p.facility)}
            {line("Maintenance", "bill-maintenance", p.maintenance)}
        }
    });
    let batch = r.batch.map(|bt| {
        let n = servecost::format::number;
        let rent = if bt.discount_stated {
            format!(
                "Renting prices the batch tokens ({} of them) at {} off: {} a month less.",
                percent(bt.share),
                percent(bt.discount),
                usd(bt.rent_saving_usd)
            )
        } else {
            format!(
                "Renting prices the batch tokens ({} of them) as the others: the offer states no batch price.",
                percent(bt.share)
            )
        };
        // Batch waits: at the curve's Offline result where measured, else its most efficient
        // point.
        let rate = if bt.offline {
            "at the curve's Offline rate (measured without a latency bound; no per-user speed applies)".to_owned()
        } else {
            format!(
                "at {} tokens/s per user, the curve's most efficient point",
                crate::format::significant(bt.tps, 3)
            )
        };
        let own = format!(
            " Self-hosted, batch work takes {} GPU-hours a month {rate}; {} of them run on the fleet held for the other traffic, in the hours it leaves free ({} of its free capacity up to the target utilisation){}.",
            n(bt.gpu_hours),
            n(bt.absorbed_gpu_hours),
            servecost::format::percent_share(bt.absorbed_share()),
            if bt.added_gpu_hours > 0.0 {
                format!(", and the fleet grows by {} GPU-hours a month for the rest", n(bt.added_gpu_hours))
            } else {
                String::new()
            }
        );
        view! { <p class="hint batch-note" data-testid="batch-note" data-offline=bt.offline.to_string()>{rent}{own}</p> }
    });
    view! {
        <div class="totals">
            <div class="total rent" data-testid="rent-monthly" data-usd=r.rent.monthly_usd.to_string()>
                <span class="label">"Rent (API)" {cite(&keys, &r.inputs.api_source)}</span>
                <span class="amount">{usd(r.rent.monthly_usd)}</span>
                <span class="detail">"per month"</span>
            </div>
            <div class="total self-host" data-testid="self-monthly" data-usd=r.self_host.monthly_usd.to_string()>
                <span class="label">"Self-host" {cite(&keys, &r.inputs.curve_source)} {cite(&keys, &r.inputs.gpu_hour_source)}</span>
                <span class="amount">{usd(r.self_host.monthly_usd)}</span>
                <span class="detail">
                    {format!(
                        "{} × {} {}, {} utilised",
                        r.self_host.replicas,
                        r.inputs.replica_gpus,
                        if r.inputs.replica_gpus == 1.0 { "GPU" } else { "GPUs" },
                        servecost::format::percent_share(r.self_host.utilization)
                    )}
                </span>
            </div>
            {hybrid}
        </div>
        <table class="breakdown">
            <caption>"The self-hosted bill, per month"</caption>
            <tbody>
                <tr><th scope="row">"Busy compute"</th><td>{usd(b.busy_compute)}</td></tr>
                <tr><th scope="row">"Idle compute"</th><td data-testid="idle">{usd(b.idle_compute)}</td></tr>
                {owned}
                <tr><th scope="row">"Operations"</th><td>{usd(b.ops)}</td></tr>
                <tr><th scope="row">"API overflow"</th><td>{usd(b.overflow_api)}</td></tr>
                <tr class="sum"><th scope="row">"Total"</th><td data-testid="bill-total">{usd(r.self_host.monthly_usd)}</td></tr>
            </tbody>
        </table>
        {batch}
    }
}
