//! Break-even: the monthly volume above which self-hosting stays cheaper, and the GPU-hour price
//! at which it costs what renting does at the user's volume.
//!
//! Self-hosting costs a staircase in volume (whole replicas plus fixed operations), renting a
//! line through zero. Start from a volume beyond which the staircase provably stays under the
//! line, then step down: at volume `λ` with self-hosted cost `S(λ)` below the rent, no volume
//! in `(S(λ)/r, λ]` can break even either, so jump to `S(λ)/r`; stop when the cost no longer
//! drops, which is exactly where the two are equal.

use serde::{Deserialize, Serialize};

use crate::costing::Costing;
use crate::fleet::Scaling;
use crate::units::MILLION;

/// Most steps down the staircase before settling for the (still valid, conservative) bound.
const MAX_STEPS: usize = 20_000;

/// Where self-hosting and renting cost the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BreakEven {
    /// Monthly tokens (same mix and profile) above which self-hosting stays cheaper; `None`: never.
    pub monthly_tokens: Option<f64>,
    /// Why there is no break-even volume, when there is none; or, when the search stopped at
    /// its step limit, that `monthly_tokens` is a bound rather than the exact volume.
    pub volume_note: Option<String>,
    /// True when `monthly_tokens` is the exact break-even volume; false when the search stopped
    /// at its step limit and it is an upper bound (self-hosting is cheaper above it, and may
    /// already be a little below).
    pub volume_exact: bool,
    /// $ per GPU-hour at which self-hosting costs what renting does at the user's volume.
    pub gpu_hour_usd: Option<f64>,
    /// Why there is no break-even price, when there is none.
    pub price_note: Option<String>,
}

/// The volume multiple above which self-hosting stays cheaper, and whether it is exact (false:
/// the search stopped at its step limit with a valid upper bound), or why there is none.
pub fn volume_scale(c: &Costing) -> Result<(f64, bool), String> {
    let r = c.rent(1.0);
    let total = c.volumes.total();
    if !(total > 0.0) {
        return Err("there is no volume to scale".into());
    }
    if !(r > 0.0) {
        return Err("renting costs nothing at these prices".into());
    }
    let p = c.policy;
    let per_replica = c.replica_month();
    let d = c.demand();
    let slope = per_replica * d.mean_busy_gpus() / (p.replica_gpus * p.util)
        * match p.scaling {
            Scaling::Fixed => c.profile.peak(),
            Scaling::Hourly => 1.0,
        };
    if slope >= r {
        return Err(format!(
            "self-hosting's marginal cost, {} per million tokens with the capacity held for \
             peak and utilisation target, is not below renting's {}",
            crate::format::per_mtok(slope / total * MILLION),
            crate::format::per_mtok(r / total * MILLION)
        ));
    }
    let fixed_part = per_replica * (p.min_replicas + 1.0 + p.redundancy) + c.ops_monthly;
    let mut scale = fixed_part / (r - slope) * (1.0 + 1e-9) + f64::MIN_POSITIVE;
    let mut cost = c.self_host(scale).total();
    let mut bumps = 0;
    while cost >= r * scale && bumps < 64 {
        scale *= 2.0;
        cost = c.self_host(scale).total();
        bumps += 1;
    }
    let bounded = cost < r * scale;
    for _ in 0..MAX_STEPS {
        let next = cost / r;
        let next_cost = c.self_host(next).total();
        if next_cost >= cost * (1.0 - 1e-12) {
            return Ok((next, bounded));
        }
        scale = next;
        cost = next_cost;
    }
    Ok((scale, false))
}

/// Break-even volume and price for a costing.
pub fn break_even(c: &Costing) -> BreakEven {
    let (monthly_tokens, volume_note, volume_exact) = match volume_scale(c) {
        Ok((scale, true)) => (Some(scale * c.volumes.total()), None, true),
        Ok((scale, false)) => (
            Some(scale * c.volumes.total()),
            Some(format!(
                "the search stopped after {MAX_STEPS} steps: self-hosting is cheaper above this \
                 volume, and may break even somewhat below it"
            )),
            false,
        ),
        Err(why) => (None, Some(why), false),
    };
    let own = c.self_host(1.0);
    let hours = own.plan.provisioned_gpu_hours;
    let room = c.rent(1.0) - own.breakdown.ops;
    let (gpu_hour_usd, price_note) = if !(hours > 0.0) {
        (None, Some("the fleet provisions no GPU-hours".to_owned()))
    } else if !(room > 0.0) {
        (
            None,
            Some(format!(
                "operations alone ({} a month) cost more than renting ({}): no GPU price \
                 makes self-hosting cheaper",
                crate::format::usd(own.breakdown.ops),
                crate::format::usd(c.rent(1.0))
            )),
        )
    } else {
        (Some(room / hours), None)
    };
    BreakEven {
        volume_exact,
        monthly_tokens,
        volume_note,
        gpu_hour_usd,
        price_note,
    }
}
