//! The report as CSV: inputs, the monthly bill and the per-class costs, one number per row, with
//! the unit in its own column (no formatted strings).

use crate::options::{OptionKind, Options};
use crate::report::Report;

fn field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// `section,name,value,unit,source` rows for a spreadsheet: the figures as numbers, then every
/// input in force (its link value, as people read it, and where a default comes from).
pub fn csv(r: &Report) -> String {
    let mut rows: Vec<(&str, String, String, &str)> = Vec::new();
    // Twelve significant digits: every figure to far below a cent, without the float noise
    // of arithmetic (`5706.000000000001`) a spreadsheet would show.
    let mut num = |section: &'static str, name: &str, value: f64, unit: &'static str| {
        rows.push((section, name.to_owned(), clean(value), unit));
    };
    for figures in [input_figures, bill_figures, class_figures, decision_figures] {
        figures(r, &mut num);
    }
    let mut out = String::from("section,name,value,unit,source\n");
    let i = &r.inputs;
    let texts = [("gpu_hour_label", i.gpu_hour_label.clone())];
    let ids = [
        ("model", i.model.clone()),
        ("api", i.api.clone().unwrap_or_default()),
        ("curve", i.curve.clone()),
        ("chip", i.chip.clone().unwrap_or_default()),
        ("gpu_tier", i.gpu_tier.clone().unwrap_or_default()),
        (
            "gpu_kind",
            i.gpu_kind.map(|k| k.key().to_owned()).unwrap_or_default(),
        ),
    ];
    for (name, value) in ids {
        out.push_str(&format!("input,{name},{},id,\n", field(&value)));
    }
    out.push_str(&format!("decision,best,{},id,\n", r.verdict.best.key()));
    out.push_str(&format!(
        "decision,best_over_horizon,{},id,\n",
        r.plan.best.key()
    ));
    out.push_str(&format!(
        "decision,tie,{},fraction,\n",
        clean(r.verdict.tie)
    ));
    out.push_str(&format!("decision,decided,{},id,\n", r.verdict.decided));
    // The offer's speed is a constraint: said when its source states none.
    match (&i.api, i.api_tps) {
        (Some(_), Some(v)) => out.push_str(&format!(
            "input,api_tps,{},output tokens/s per user,\n",
            clean(v)
        )),
        (Some(_), None) => out.push_str("input,api_tps,speed not stated,text,\n"),
        (None, _) => {}
    }
    if let Some(sp) = &r.speed {
        out.push_str(&format!(
            "speed,target,{},output tokens/s per user,\n",
            clean(sp.target)
        ));
        out.push_str(&format!("speed,chosen,{},id,\n", field(&sp.chosen)));
        out.push_str(&format!(
            "speed,chosen_fastest,{},output tokens/s per user,\n",
            clean(sp.chosen_fastest)
        ));
        out.push_str(&format!("speed,priced_on,{},id,\n", field(&sp.priced_on)));
        out.push_str(&format!(
            "speed,priced_at,{},output tokens/s per user,\n",
            clean(sp.priced_at)
        ));
        out.push_str(&format!("speed,floor,{},id,\n", sp.floor));
        for c in &sp.reaching {
            out.push_str(&format!(
                "speed,reaching.{}.monthly,{},$/month,\n",
                field(&c.curve),
                clean(c.monthly_usd)
            ));
        }
    }
    for (section, name, value, unit) in rows {
        out.push_str(&format!(
            "{section},{},{value},{},\n",
            field(&name),
            field(unit)
        ));
    }
    for (name, value) in texts {
        out.push_str(&format!("input,{name},{},text,\n", field(&value)));
    }
    for f in &r.flips.flips {
        out.push_str(&format!(
            "flip,{}.{}.to,{},id,\n",
            field(&f.param),
            field(&f.direction),
            f.to.key()
        ));
    }
    // What to keep in mind travels with the numbers, the caveats that move the answer most
    // first.
    for code in &r.top_warnings {
        out.push_str(&format!("decision,top_warning,{code},id,\n"));
    }
    for w in &r.warnings {
        out.push_str(&format!(
            "warning,{},{},text,\n",
            w.code.as_str(),
            field(&w.message)
        ));
    }
    out.push_str(&format!("link,query,{},text,\n", field(&r.query)));
    out.push_str(&format!(
        "link,dataset_revision,{},id,\n",
        r.dataset_revision
    ));
    in_force_rows(r, &mut out);
    out
}

/// Adds one figure: its section, name, value and unit.
type Num<'a> = dyn FnMut(&'static str, &str, f64, &'static str) + 'a;

/// The inputs in force, as the engine used them.
fn input_figures(r: &Report, num: &mut Num) {
    let i = &r.inputs;
    num(
        "input",
        "uncached_tokens",
        i.volumes.uncached,
        "tokens/month",
    );
    num("input", "cached_tokens", i.volumes.cached, "tokens/month");
    num("input", "output_tokens", i.volumes.output, "tokens/month");
    num("input", "tps", i.tps, "output tokens/s per user");
    num("input", "price_in", i.price_in, "$/M tokens");
    num("input", "price_out", i.price_out, "$/M tokens");
    num("input", "cache_discount", i.cache_discount, "fraction");
    num("input", "markup", i.markup, "fraction");
    num("input", "gpu_hour", i.gpu_hour_usd, "$/GPU-hour");
    num("input", "replica_gpus", i.replica_gpus, "GPUs");
    num("input", "prefill", i.prefill, "uncached tokens/s per GPU");
    num("input", "cache_cost", i.cache_cost, "ratio");
    num("input", "ops_monthly", i.ops_monthly_usd, "$/month");
    num("input", "profile_peak", i.profile_peak, "peak/mean");
}

/// Each plan's monthly bill, its lines and the fleet.
fn bill_figures(r: &Report, num: &mut Num) {
    let b = &r.self_host.breakdown;
    num("monthly", "rent", r.rent.monthly_usd, "$/month");
    num("monthly", "self_host", r.self_host.monthly_usd, "$/month");
    num(
        "monthly",
        "self_host.busy_compute",
        b.busy_compute,
        "$/month",
    );
    num(
        "monthly",
        "self_host.idle_compute",
        b.idle_compute,
        "$/month",
    );
    num("monthly", "self_host.ops", b.ops, "$/month");
    num(
        "monthly",
        "self_host.overflow_api",
        b.overflow_api,
        "$/month",
    );
    if let Some(h) = &r.hybrid {
        num("monthly", "hybrid", h.monthly_usd, "$/month");
        num("monthly", "hybrid.api_share", h.api_share, "fraction");
    }
    num("fleet", "replicas", r.self_host.replicas, "replicas");
    num("fleet", "gpus", r.self_host.gpus, "GPUs");
    num("fleet", "utilization", r.self_host.utilization, "fraction");
}

/// The $ per million tokens of each class, and the break-even.
fn class_figures(r: &Report, num: &mut Num) {
    for c in &r.series.per_class {
        num(
            "per_mtok",
            &format!("rent.{}", c.class),
            c.rent,
            "$/M tokens",
        );
        num(
            "per_mtok",
            &format!("self_host_marginal.{}", c.class),
            c.self_marginal,
            "$/M tokens",
        );
        num(
            "per_mtok",
            &format!("self_host_effective.{}", c.class),
            c.self_effective,
            "$/M tokens",
        );
    }
    if let Some(v) = r.break_even.monthly_tokens {
        num("break_even", "monthly_tokens", v, "tokens/month");
    }
    if let Some(v) = r.break_even.gpu_hour_usd {
        num("break_even", "gpu_hour", v, "$/GPU-hour");
    }
}

/// The decision: the best plan's bill, the sample's shares and spread, the flips.
fn decision_figures(r: &Report, num: &mut Num) {
    num(
        "decision",
        "best_monthly",
        r.verdict.best_monthly_usd,
        "$/month",
    );
    if let Some(u) = &r.uncertainty {
        num("decision", "draws", f64::from(u.draws), "draws");
        num("decision", "p_best_holds", u.p_best_holds, "fraction");
        num(
            "decision",
            "p_self_host_cheaper",
            u.p_self_host_cheaper,
            "fraction",
        );
        num(
            "decision",
            "difference.p10",
            u.difference_usd.p10,
            "$/month",
        );
        num(
            "decision",
            "difference.p50",
            u.difference_usd.p50,
            "$/month",
        );
        num(
            "decision",
            "difference.p90",
            u.difference_usd.p90,
            "$/month",
        );
    }
    for f in &r.flips.flips {
        num(
            "flip",
            &format!("{}.{}", f.param, f.direction),
            f.value,
            flip_unit(&f.param),
        );
    }
}

/// Every input in force, typed or default, with the source of each default.
fn in_force_rows(r: &Report, out: &mut String) {
    for row in crate::in_force::list(r) {
        let source = match &row.origin {
            crate::in_force::Origin::Yours => "yours".to_owned(),
            crate::in_force::Origin::Default(Some(key)) => format!("default: {key}"),
            crate::in_force::Origin::Default(None) => "default: the dataset's".to_owned(),
        };
        out.push_str(&format!(
            "in_force,{},{},{},{}\n",
            row.name,
            text(&row.value),
            text(&row.shown),
            field(&source)
        ));
    }
}

/// The rows that make a saved scenario's CSV a record of its own, after [`csv`]: its name, note,
/// date and link, and every source the report rests on.
pub fn record_rows(
    name: &str,
    note: &str,
    saved_at: &str,
    link: &str,
    sources: &[crate::dataset::Source],
) -> String {
    let mut out = String::new();
    for (item, value) in [
        ("name", name),
        ("note", note),
        ("saved_at", saved_at),
        ("link", link),
    ] {
        out.push_str(&format!("saved,{item},{},text,\n", text(value)));
    }
    for s in sources {
        out.push_str(&format!(
            "source,{},{},text,{}\n",
            field(&s.key),
            text(&format!("{}: {} ({})", s.publisher, s.title, s.date)),
            text(s.url.as_deref().unwrap_or_default())
        ));
    }
    out
}

fn flip_unit(param: &str) -> &'static str {
    match param {
        "volume" => "tokens/month",
        "gpu_hour" => "$/GPU-hour",
        "price_in" | "price_out" => "$/M tokens",
        "cache_discount" | "util" => "fraction",
        "prefill" => "uncached tokens/s per GPU",
        "cache_cost" => "ratio",
        "ops" => "$/month",
        _ => "factor",
    }
}

/// A figure to twelve significant digits, without float noise: far below a cent, and without
/// the arithmetic's `5706.000000000001` a spreadsheet would show.
fn clean(value: f64) -> String {
    let v: f64 = format!("{value:.11e}").parse().unwrap_or(value);
    v.to_string()
}

/// Text a spreadsheet reads as text: a leading `=`, `+`, `-`, `@`, tab or carriage return (a
/// formula) gets a `'`.
fn text(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        field(&format!("'{value}"))
    } else {
        field(value)
    }
}

/// The options ranking for a spreadsheet: one row per option, what one can rent or buy
/// cheapest first, then those listed apart (`group`), each with its calculator link under
/// `origin` (`https://costs.example.com`).
pub fn options_csv(o: &Options, origin: &str) -> String {
    let mut out = String::from(
        "rank,option,kind,monthly_usd,gpus,utilization,usd_per_mtok_input,usd_per_mtok_cached,\
         usd_per_mtok_output,usd_per_mtok_blended,api_share,p_cheapest,for_rent,current,link,\
         group,speed_tps\n",
    );
    for (i, row) in o.options.iter().enumerate() {
        let kind = match row.kind {
            OptionKind::Rent => "rent",
            OptionKind::SelfHost => "self_host",
            OptionKind::Hybrid => "hybrid",
        };
        let cells = [
            (i + 1).to_string(),
            text(&row.label),
            kind.to_owned(),
            clean(row.monthly_usd),
            clean(row.gpus),
            row.utilization.map(clean).unwrap_or_default(),
            clean(row.per_mtok.input),
            clean(row.per_mtok.cached),
            clean(row.per_mtok.output),
            clean(row.per_mtok.blended),
            row.api_share.map(clean).unwrap_or_default(),
            row.p_cheapest.map(clean).unwrap_or_default(),
            row.for_rent.to_string(),
            row.current.to_string(),
            text(&format!("{origin}/?{}", row.query)),
            match row.group {
                crate::options::OptionGroup::Buyable => "buyable",
                crate::options::OptionGroup::VendorBestCase => "vendor_best_case",
                crate::options::OptionGroup::Floor => "floor",
            }
            .to_owned(),
            row.speed_tps
                .map_or_else(|| "speed not stated".to_owned(), clean),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}
