//! A usage export's link: its profile weights are rounded to whole numbers so the link stays
//! short, and that rounding moves no bill by 0.1 %.

mod common;

use common::{measured_week, revision_3};
use servecost::profile::{LoadProfile, ProfileSpec};
use servecost::usage::read;
use servecost::{evaluate, parse};

#[test]
fn the_links_rounded_profile_moves_no_bill_by_a_thousandth() {
    let hourly = "hourly&gpu_hour=3.5&gpu_kind=on_demand";
    for (scale, scaling) in [(2e6, "fixed"), (2e8, "fixed"), (2e8, hourly)] {
        let usage = read(&measured_week(scale, None)).expect("reads");
        let query = format!("{}&scaling={scaling}", usage.query);
        let rounded = parse(&query).expect("the link reads").scenario;
        let mut exact = rounded.clone().into_scenario();
        exact.profile = ProfileSpec::Custom(usage.profile.clone());
        // On one scale (mean 1), the link's weights differ from the measured ones: the
        // rounding is real, and what follows measures its effect.
        let shape = |spec: &ProfileSpec| {
            LoadProfile::from_spec(spec)
                .expect("a profile")
                .weights()
                .to_vec()
        };
        let (r, e) = (shape(&rounded.profile), shape(&exact.profile));
        assert!(
            r.iter().zip(&e).any(|(x, y)| x != y),
            "the weights are rounded"
        );
        assert!(r
            .iter()
            .zip(&e)
            .all(|(x, y)| (x - y).abs() < 1e-3 * y.max(1.0)));
        let data = revision_3();
        let a = evaluate(&rounded, &data).expect("rounded");
        let b = evaluate(&exact, &data).expect("exact");
        for (what, x, y) in [
            (
                "self-hosting",
                a.self_host.monthly_usd,
                b.self_host.monthly_usd,
            ),
            ("renting", a.rent.monthly_usd, b.rent.monthly_usd),
        ] {
            assert!(
                (x - y).abs() <= 1e-3 * y,
                "{scale} {scaling} {what}: {x} against {y}"
            );
        }
    }
}
