//! Renting: an API or router priced per token class.

use serde::{Deserialize, Serialize};

use crate::units::{PerMtok, Volumes, MILLION};

/// Per-token prices of an API offer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiPricing {
    /// $ per million input tokens.
    pub price_in: f64,
    /// $ per million output tokens.
    pub price_out: f64,
    /// Discount on the input price for cached input, 0 to 1.
    pub cache_discount: f64,
    /// Router markup on the provider's price, 0 = none.
    pub markup: f64,
    /// Share of every class's price the workload saves by sending its batch traffic at the
    /// batch price: the batch share times the batch discount (0 without either).
    #[serde(default)]
    pub batch_saving: f64,
}

/// The monthly bill for renting.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RentCost {
    /// $ per month.
    pub monthly_usd: f64,
    /// $ per million tokens, per class and blended over the workload.
    pub per_mtok: PerMtok,
}

impl ApiPricing {
    /// Per-class $ per million tokens, markup included and the batch traffic's saving taken
    /// off, blended over `volumes`.
    pub fn per_mtok(&self, volumes: &Volumes) -> PerMtok {
        let m = (1.0 + self.markup) * (1.0 - self.batch_saving);
        PerMtok::with_blend(
            self.price_in * m,
            self.price_in * (1.0 - self.cache_discount) * m,
            self.price_out * m,
            volumes,
        )
    }

    /// `(U * p_in + C * p_in * (1 - d) + O * p_out) * (1 + markup) * (1 - batch_saving) / 1e6`.
    pub fn cost(&self, volumes: &Volumes) -> RentCost {
        let per_mtok = self.per_mtok(volumes);
        let monthly_usd = (volumes.uncached * per_mtok.input
            + volumes.cached * per_mtok.cached
            + volumes.output * per_mtok.output)
            / MILLION;
        RentCost {
            monthly_usd,
            per_mtok,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Mix;

    #[test]
    fn markup_scales_every_class() {
        let p = ApiPricing {
            price_in: 1.0,
            price_out: 2.0,
            cache_discount: 0.5,
            markup: 0.1,
            batch_saving: 0.0,
        };
        let v = Volumes::from_mix(1e6, &Mix::from_parts(1.0, 1.0, 1.0).expect("mix"));
        let c = p.cost(&v);
        assert!((c.monthly_usd - (1.0 + 0.5 + 2.0) / 3.0 * 1.1).abs() < 1e-12);
    }
}
