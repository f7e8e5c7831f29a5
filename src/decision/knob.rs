//! One vocabulary for moving an input: every input the decision moves (the tornado's levers,
//! the sample's ranges, the flips' searches and the band maps) is named here once, with its key,
//! its words, its unit, the link parameter that sets it and how to read and set it on the
//! resolved scenario. The modules that move inputs say how far and how often; what is moved is
//! this.

use crate::resolved::Resolved;

/// An input the decision moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Knob {
    /// All monthly tokens, the mix and the profile kept.
    Volume,
    /// The GPU-hour price.
    GpuHour,
    /// The API's input and output prices together.
    ApiPrices,
    /// The API's input price.
    PriceIn,
    /// The API's output price.
    PriceOut,
    /// The API's cache discount.
    CacheDiscount,
    /// The interactivity target (output tokens/s per user).
    Tps,
    /// The target utilisation.
    Util,
    /// The fixed monthly cost of operations.
    Ops,
    /// The prefill rate `P`.
    Prefill,
    /// The cache-hit cost ratio `k`.
    CacheCost,
    /// The uncached share of input (cache misses).
    CacheMisses,
    /// The curve's mix, when its publication states none.
    CurveMix,
    /// The haircut on a vendor's curve.
    Haircut,
    /// The spread between independent curves of the chip family.
    Curves,
    /// A factor on the curve's throughput.
    Throughput,
}

impl Knob {
    /// Every input, in the order the page lists them.
    pub const ALL: [Knob; 16] = [
        Knob::Volume,
        Knob::GpuHour,
        Knob::ApiPrices,
        Knob::PriceIn,
        Knob::PriceOut,
        Knob::CacheDiscount,
        Knob::Tps,
        Knob::Util,
        Knob::Ops,
        Knob::Prefill,
        Knob::CacheCost,
        Knob::CacheMisses,
        Knob::CurveMix,
        Knob::Haircut,
        Knob::Curves,
        Knob::Throughput,
    ];

    /// The stable key the report names it by (`flips[].param`, `sensitivity[].key`,
    /// `uncertainty.ranges[].key`).
    pub fn key(self) -> &'static str {
        match self {
            Knob::Volume => "volume",
            Knob::GpuHour => "gpu_hour",
            Knob::ApiPrices => "api_price",
            Knob::PriceIn => "price_in",
            Knob::PriceOut => "price_out",
            Knob::CacheDiscount => "cache_discount",
            Knob::Tps => "tps",
            Knob::Util => "util",
            Knob::Ops => "ops",
            Knob::Prefill => "prefill",
            Knob::CacheCost => "cache_cost",
            Knob::CacheMisses => "cache_misses",
            Knob::CurveMix => "curve_mix",
            Knob::Haircut => "haircut",
            Knob::Curves => "curves",
            Knob::Throughput => "throughput",
        }
    }

    /// The input with this key.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.key() == key)
    }

    /// Its name, as a label starts it: `GPU-hour price`.
    pub fn label(self) -> &'static str {
        match self {
            Knob::Volume => "Monthly volume",
            Knob::GpuHour => "GPU-hour price",
            Knob::ApiPrices => "API prices",
            Knob::PriceIn => "API input price",
            Knob::PriceOut => "API output price",
            Knob::CacheDiscount => "API cache discount",
            Knob::Tps => "Interactivity target",
            Knob::Util => "Target utilisation",
            Knob::Ops => "Operations cost",
            Knob::Prefill => "Prefill rate P",
            Knob::CacheCost => "Cache-hit cost ratio k",
            Knob::CacheMisses => "Cache misses",
            Knob::CurveMix => "The curve's mix, when assumed",
            Knob::Haircut => "Haircut on a vendor's curve",
            Knob::Curves => "Spread between independent curves of the chip family",
            Knob::Throughput => "Curve throughput",
        }
    }

    /// Its name inside a sentence: `the GPU-hour price`.
    pub fn noun(self) -> &'static str {
        match self {
            Knob::Volume => "volume",
            Knob::GpuHour => "the GPU-hour",
            Knob::ApiPrices => "the API prices",
            Knob::PriceIn => "the API input price",
            Knob::PriceOut => "the API output price",
            Knob::CacheDiscount => "the API cache discount",
            Knob::Tps => "the interactivity target",
            Knob::Util => "target utilisation",
            Knob::Ops => "operations (staff and other fixed costs)",
            Knob::Prefill => "the prefill rate P",
            Knob::CacheCost => "the cache-hit cost ratio k",
            Knob::CacheMisses => "the cache misses",
            Knob::CurveMix => "the curve's assumed mix",
            Knob::Haircut => "the haircut on a vendor's curve",
            Knob::Curves => "the spread between curves",
            Knob::Throughput => "the curve's throughput",
        }
    }

    /// The link parameter that sets its value (`None`: no single parameter does).
    pub fn param(self) -> Option<&'static str> {
        match self {
            Knob::GpuHour => Some("gpu_hour"),
            Knob::PriceIn => Some("price_in"),
            Knob::PriceOut => Some("price_out"),
            Knob::CacheDiscount => Some("cache_discount"),
            Knob::Tps => Some("tps"),
            Knob::Util => Some("util"),
            Knob::Ops => Some("ops_monthly"),
            Knob::Prefill => Some("prefill"),
            Knob::CacheCost => Some("cache_cost"),
            Knob::CurveMix => Some("curve_mix"),
            Knob::Volume
            | Knob::ApiPrices
            | Knob::CacheMisses
            | Knob::Haircut
            | Knob::Curves
            | Knob::Throughput => None,
        }
    }

    /// The accepted range of its value, as the link's parameter accepts it (`None` without a
    /// parameter of its own).
    pub fn accepted(self) -> Option<(f64, f64)> {
        self.param()
            .and_then(crate::codec::spec)
            .map(|s| (s.min, s.max))
    }

    /// Its value in `r`, where it is one number of the resolved scenario: the volume is all
    /// tokens a month, the API prices their sum, the cache misses the uncached tokens
    /// (`None` for what the resolved scenario does not hold: the mix's reading, the haircut,
    /// the spread and the throughput factor, which the sample and the search hold themselves).
    pub fn value(self, r: &Resolved) -> Option<f64> {
        Some(match self {
            Knob::Volume => r.volumes.total(),
            Knob::GpuHour => r.gpu_hour,
            Knob::ApiPrices => r.api.price_in + r.api.price_out,
            Knob::PriceIn => r.api.price_in,
            Knob::PriceOut => r.api.price_out,
            Knob::CacheDiscount => r.api.cache_discount,
            Knob::Tps => r.tps,
            Knob::Util => r.policy.util,
            Knob::Ops => r.ops_monthly,
            Knob::Prefill => r.prefill,
            Knob::CacheCost => r.cache_cost,
            Knob::CacheMisses => r.volumes.uncached,
            Knob::CurveMix | Knob::Haircut | Knob::Curves | Knob::Throughput => return None,
        })
    }

    /// Sets its value in `r` where it is one number of the resolved scenario (the scalar
    /// inputs of [`Knob::value`] but the volume, the API prices and the cache misses, which are
    /// moved by a factor: [`Knob::scale`]); returns whether it did.
    pub fn set(self, r: &mut Resolved, v: f64) -> bool {
        match self {
            Knob::GpuHour => r.gpu_hour = v,
            Knob::PriceIn => r.api.price_in = v,
            Knob::PriceOut => r.api.price_out = v,
            Knob::CacheDiscount => r.api.cache_discount = v,
            Knob::Tps => r.tps = v,
            Knob::Util => r.policy.util = v,
            Knob::Ops => r.ops_monthly = v,
            Knob::Prefill => r.prefill = v,
            Knob::CacheCost => r.cache_cost = v,
            _ => return false,
        }
        true
    }

    /// Multiplies its value in `r` by `f` (the API prices both; the cache misses within the
    /// input, the rest of it cached); returns whether it did.
    pub fn scale(self, r: &mut Resolved, f: f64) -> bool {
        match self {
            Knob::ApiPrices => {
                r.api.price_in *= f;
                r.api.price_out *= f;
                true
            }
            Knob::CacheMisses => {
                let input = r.volumes.uncached + r.volumes.cached;
                let misses = (r.volumes.uncached * f).min(input);
                r.volumes.uncached = misses;
                r.volumes.cached = input - misses;
                true
            }
            _ => match self.value(r) {
                Some(v) => self.set(r, v * f),
                None => false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_read_back() {
        for k in Knob::ALL {
            assert_eq!(Knob::from_key(k.key()), Some(k));
            assert!(!k.label().is_empty() && !k.noun().is_empty());
        }
        let mut keys: Vec<&str> = Knob::ALL.iter().map(|k| k.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Knob::ALL.len());
    }

    #[test]
    fn each_parameter_is_a_codec_parameter() {
        for k in Knob::ALL {
            if let Some(p) = k.param() {
                assert!(
                    crate::codec::spec(p).is_some() || p == "curve_mix",
                    "{p} is not a link parameter"
                );
            }
        }
    }
}
