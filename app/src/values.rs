//! The text a field shows when the link leaves its parameter out: the value in force, from the
//! scenario's defaults or from the dataset (as resolved in the report), rounded for people to at
//! most four significant digits.

use servecost::codec::write_rounded;
use servecost::scenario::CurveChoice;
use servecost::workload::Workload;
use servecost::{Report, Scenario};

fn num(v: f64, name: &str) -> String {
    let suffixes = servecost::codec::spec(name).is_some_and(|s| s.suffixes);
    write_rounded(v, suffixes)
}

/// The value in force for parameter `name`, as a field would show it ("" when none applies).
pub fn in_force(name: &str, s: &Scenario, report: Option<&Report>) -> String {
    let inputs = report.map(|r| &r.inputs);
    let from_report = |f: fn(&servecost::report::Inputs) -> f64| {
        inputs.map(|i| num(f(i), name)).unwrap_or_default()
    };
    match (name, &s.workload) {
        ("workload", Workload::Requests { preset, .. }) => preset.key().to_owned(),
        ("requests", Workload::Requests { requests, .. }) => num(*requests, name),
        ("input_per_request", Workload::Requests { shape, .. }) => {
            num(shape.input_per_request, name)
        }
        ("cache_hit", Workload::Requests { shape, .. }) => num(shape.cache_hit, name),
        ("output_per_request", Workload::Requests { shape, .. }) => {
            num(shape.output_per_request, name)
        }
        ("tokens", Workload::Mix { tokens, .. }) => num(*tokens, name),
        ("mix", Workload::Mix { mix, .. }) => mix.map(|p| write_rounded(p, false)).join(":"),
        ("input", Workload::Totals { input, .. }) => num(*input, name),
        ("cached", Workload::Totals { cached, .. }) => num(*cached, name),
        ("output", Workload::Totals { output, .. }) => num(*output, name),
        ("tps", _) => from_report(|i| i.tps),
        ("price_in", _) => from_report(|i| i.price_in),
        ("price_out", _) => from_report(|i| i.price_out),
        ("cache_discount", _) => from_report(|i| i.cache_discount),
        ("markup", _) => from_report(|i| i.markup),
        ("gpu_hour", _) => from_report(|i| i.gpu_hour_usd),
        ("replica", _) => from_report(|i| i.replica_gpus),
        ("prefill", _) => num(s.prefill, name),
        ("cache_cost", _) => num(s.cache_cost, name),
        ("util", _) => num(s.util, name),
        ("redundancy", _) => num(s.redundancy, name),
        ("min_replicas", _) => num(s.min_replicas, name),
        ("ops_fte", _) => num(s.ops_fte, name),
        ("fte_cost", _) => num(s.fte_cost, name),
        ("ops_monthly", _) => num(s.ops_monthly, name),
        ("ops_gpus_per_fte", _) => s.ops_gpus_per_fte.map(|v| num(v, name)).unwrap_or_default(),
        ("overflow_warm", _) => num(s.overflow_warm, name),
        ("headline", _) => s.headline.map(|h| num(h, name)).unwrap_or_default(),
        ("capex", _) => s.owned.map(|o| num(o.capex, name)).unwrap_or_default(),
        ("years" | "rate" | "pue" | "kwh" | "colo" | "maint" | "kw", _) => {
            let hw = s
                .owned
                .unwrap_or_else(|| servecost::scenario::OwnedInputs::with_capex(1.0));
            let v = match name {
                "years" => Some(hw.years),
                "rate" => Some(hw.rate),
                "pue" => Some(hw.pue),
                "kwh" => Some(hw.kwh),
                "colo" => Some(hw.colo),
                "maint" => Some(hw.maint),
                _ => hw.kw,
            };
            v.map(|v| num(v, name)).unwrap_or_default()
        }
        ("draws", _) => num(s.uncertainty.draws, name),
        ("u_prefill", _) => num(s.uncertainty.prefill, name),
        ("u_cache_cost", _) => num(s.uncertainty.cache_cost, name),
        ("u_curve_mix", _) => num(s.uncertainty.curve_mix, name),
        ("u_haircut", _) => num(s.uncertainty.haircut, name),
        ("u_curves", _) => num(s.uncertainty.curves, name),
        ("u_util", _) => num(s.uncertainty.util, name),
        ("u_api", _) => num(s.uncertainty.api, name),
        ("tie", _) => num(s.uncertainty.tie, name),
        ("horizon", _) => num(s.plan.horizon, name),
        ("growth", _) => num(s.plan.growth, name),
        ("residual", _) => num(s.plan.residual, name),
        ("api_trend", _) => num(s.plan.api_trend, name),
        ("gpu_trend", _) => num(s.plan.gpu_trend, name),
        ("discount_rate", _) => num(s.plan.discount_rate, name),
        // By the price's kind, as the report applies it.
        ("u_gpu_hour", _) => s
            .uncertainty
            .gpu_hour
            .map(|v| num(v, name))
            .or_else(|| {
                report.map(|r| {
                    num(
                        servecost::decision::gpu_hour_spread(
                            r.inputs.gpu_kind,
                            r.inputs.owned_parts.is_some(),
                        ),
                        name,
                    )
                })
            })
            .unwrap_or_default(),
        ("curve", _) => match &s.curve {
            CurveChoice::Dataset { id } => id
                .clone()
                .or_else(|| inputs.map(|i| i.curve.clone()))
                .unwrap_or_default(),
            CurveChoice::Own { .. } => "own".to_owned(),
        },
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_show_as_link_text() {
        let s = Scenario::default();
        assert_eq!(in_force("requests", &s, None), "1M");
        assert_eq!(in_force("cache_hit", &s, None), "0.97");
        assert_eq!(in_force("util", &s, None), "0.8");
        assert_eq!(in_force("fte_cost", &s, None), "200k");
        assert_eq!(in_force("tokens", &s, None), "");
        assert_eq!(in_force("workload", &s, None), "coding-agent");
    }
}
