//! The price of one GPU-hour: rented, or owned and paid for over its life.

use serde::{Deserialize, Serialize};

use crate::units::HOURS_PER_MONTH;

/// Hours in a year of twelve 730-hour months.
pub const HOURS_PER_YEAR: f64 = HOURS_PER_MONTH * 12.0;

/// What a GPU-hour price commits its buyer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Commitment {
    /// Rented by the hour, stoppable at any hour.
    OnDemand,
    /// Rented by the hour, interruptible.
    Spot,
    /// Rented for a term with a share paid upfront: the whole fleet is billed every hour of
    /// the term, used or not.
    Reserved,
    /// What an operator pays to own the GPU at scale: a floor, not an offer.
    OwnerCost,
}

impl Commitment {
    /// Every kind, in the order forms list them.
    pub const ALL: [Commitment; 4] = [
        Commitment::OnDemand,
        Commitment::Spot,
        Commitment::Reserved,
        Commitment::OwnerCost,
    ];

    /// The word links and the dataset use.
    pub fn key(self) -> &'static str {
        match self {
            Commitment::OnDemand => "on_demand",
            Commitment::Spot => "spot",
            Commitment::Reserved => "reserved",
            Commitment::OwnerCost => "owner_cost",
        }
    }

    /// The kind for a word, if it is one.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.key() == key)
    }

    /// How a label names it.
    pub fn label(self) -> &'static str {
        match self {
            Commitment::OnDemand => "on demand",
            Commitment::Spot => "spot",
            Commitment::Reserved => "reserved",
            Commitment::OwnerCost => "owner's cost, not for rent",
        }
    }

    /// True for prices that may be stopped hour by hour (hourly scaling).
    pub fn scales_hourly(self) -> bool {
        matches!(self, Commitment::OnDemand | Commitment::Spot)
    }

    /// True for prices a buyer can rent at.
    pub fn is_rentable(self) -> bool {
        !matches!(self, Commitment::OwnerCost)
    }
}

/// Owned hardware, per GPU.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OwnedHardware {
    /// Purchase price per GPU, server share included, $.
    pub capex: f64,
    /// Years over which it is paid off.
    pub years: f64,
    /// Cost of capital per year, 0 to 1.
    pub rate: f64,
    /// Power drawn per GPU, all-in (GPU, host share, network), kW.
    pub kw: f64,
    /// Power usage effectiveness of the facility, 1 or more.
    pub pue: f64,
    /// Electricity, $ per kWh.
    pub kwh: f64,
    /// Facility (colocation) charge, $ per kW of IT load per month.
    pub colo: f64,
    /// Maintenance per year, as a share of capex.
    pub maint: f64,
}

/// How the GPU-hours are paid for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GpuHourPrice {
    /// Rented by the hour at this $ per GPU-hour.
    Rented {
        /// $ per GPU-hour.
        usd: f64,
    },
    /// Owned: capital, power, facility and maintenance, every hour of the year.
    Owned(OwnedHardware),
}

/// The owned GPU-hour split into what it pays for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OwnedHourParts {
    /// Capital recovery (annuity over `years` at `rate`), $ per GPU-hour.
    pub capital: f64,
    /// Electricity, `kW * PUE * $/kWh`.
    pub power: f64,
    /// Facility, `colo * kW / 730`.
    pub facility: f64,
    /// Maintenance, `maint * capex / 8760`.
    pub maintenance: f64,
}

impl OwnedHardware {
    /// Capital recovery factor: the yearly payment that repays 1 over `years` at `rate`.
    fn recovery_factor(&self) -> f64 {
        if self.rate == 0.0 {
            return 1.0 / self.years;
        }
        let growth = (1.0 + self.rate).powf(self.years);
        self.rate * growth / (growth - 1.0)
    }

    /// The GPU-hour split into its parts.
    pub fn parts(&self) -> OwnedHourParts {
        OwnedHourParts {
            capital: self.capex * self.recovery_factor() / HOURS_PER_YEAR,
            power: self.kw * self.pue * self.kwh,
            facility: self.colo * self.kw / HOURS_PER_MONTH,
            maintenance: self.maint * self.capex / HOURS_PER_YEAR,
        }
    }
}

impl GpuHourPrice {
    /// $ per GPU-hour.
    pub fn usd(&self) -> f64 {
        match self {
            GpuHourPrice::Rented { usd } => *usd,
            GpuHourPrice::Owned(hw) => {
                let p = hw.parts();
                p.capital + p.power + p.facility + p.maintenance
            }
        }
    }

    /// True for owned hardware, which cannot scale by the hour.
    pub fn is_owned(&self) -> bool {
        matches!(self, GpuHourPrice::Owned(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_hour_adds_its_parts() {
        let hw = OwnedHardware {
            capex: 87_600.0,
            years: 5.0,
            rate: 0.0,
            kw: 2.0,
            pue: 1.5,
            kwh: 0.1,
            colo: 73.0,
            maint: 0.1,
        };
        let p = hw.parts();
        assert!((p.capital - 2.0).abs() < 1e-12);
        assert!((p.power - 0.3).abs() < 1e-12);
        assert!((p.facility - 0.2).abs() < 1e-12);
        assert!((p.maintenance - 1.0).abs() < 1e-12);
        assert!((GpuHourPrice::Owned(hw).usd() - 3.5).abs() < 1e-12);
    }

    #[test]
    fn cost_of_capital_raises_the_payment() {
        let mut hw = OwnedHardware {
            capex: 50_000.0,
            years: 4.0,
            rate: 0.0,
            kw: 0.0,
            pue: 1.0,
            kwh: 0.0,
            colo: 0.0,
            maint: 0.0,
        };
        let free = GpuHourPrice::Owned(hw).usd();
        hw.rate = 0.08;
        assert!(GpuHourPrice::Owned(hw).usd() > free);
    }
}
