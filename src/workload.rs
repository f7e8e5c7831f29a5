//! The workload: monthly tokens by class, in the three forms a user can state it.

use serde::{Deserialize, Serialize};

use crate::units::{Mix, Volumes};

/// A per-request workload shape that a preset stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Coding agent as measured by AA-AgentPerf: ~27,000 input tokens per request, ~97 % served
    /// from cache, ~180 output tokens (the 0.67 % output share of the SGLang 40.9 tok/s run).
    CodingAgent,
    /// Chat: short prompts with some conversation history cached, long answers.
    Chat,
    /// Retrieval-augmented generation: long retrieved context, little of it cached.
    Rag,
    /// Batch summarisation: long documents, nothing cached, short summaries.
    Batch,
}

/// The per-request shape of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RequestShape {
    /// Input tokens per request (cached and uncached).
    pub input_per_request: f64,
    /// Share of input tokens served from a prefix cache, 0 to 1.
    pub cache_hit: f64,
    /// Output tokens per request.
    pub output_per_request: f64,
}

impl Preset {
    /// Every preset, in the order the UI lists them.
    pub const ALL: [Preset; 4] = [
        Preset::CodingAgent,
        Preset::Chat,
        Preset::Rag,
        Preset::Batch,
    ];

    /// The name used in query strings.
    pub fn key(self) -> &'static str {
        match self {
            Preset::CodingAgent => "coding-agent",
            Preset::Chat => "chat",
            Preset::Rag => "rag",
            Preset::Batch => "batch",
        }
    }

    /// A human label.
    pub fn label(self) -> &'static str {
        match self {
            Preset::CodingAgent => "Coding agent (AgentPerf trace)",
            Preset::Chat => "Chat",
            Preset::Rag => "RAG",
            Preset::Batch => "Batch summarisation",
        }
    }

    /// The preset with this query name.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.key() == key)
    }

    /// The source key of the figures behind the shape: a dataset source, or `servecost-assumptions`
    /// for illustrative shapes that no publication measured.
    pub fn source(self) -> &'static str {
        match self {
            Preset::CodingAgent => "aa-agentperf",
            _ => "servecost-assumptions",
        }
    }

    /// The per-request shape.
    pub fn shape(self) -> RequestShape {
        let (input_per_request, cache_hit, output_per_request) = match self {
            Preset::CodingAgent => (27_000.0, 0.97, 180.0),
            Preset::Chat => (1_500.0, 0.5, 400.0),
            Preset::Rag => (6_000.0, 0.2, 300.0),
            Preset::Batch => (12_000.0, 0.0, 600.0),
        };
        RequestShape {
            input_per_request,
            cache_hit,
            output_per_request,
        }
    }
}

/// A workload as the user states it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "form", rename_all = "snake_case")]
pub enum Workload {
    /// Three monthly totals, as on an API invoice.
    Totals {
        /// Uncached input tokens per month.
        input: f64,
        /// Cached input tokens per month.
        cached: f64,
        /// Output tokens per month.
        output: f64,
    },
    /// A monthly total split by a mix `input:cached:output`.
    Mix {
        /// All tokens per month.
        tokens: f64,
        /// The split as given, parts in the order `input:cached:output` (any positive scale).
        mix: [f64; 3],
    },
    /// Requests per month times a per-request shape.
    Requests {
        /// Requests per month.
        requests: f64,
        /// The preset the shape started from (kept so links stay short).
        preset: Preset,
        /// The shape, possibly edited from the preset's.
        shape: RequestShape,
    },
}

impl Workload {
    /// The preset workload at `requests` per month.
    pub fn preset(preset: Preset, requests: f64) -> Self {
        Workload::Requests {
            requests,
            preset,
            shape: preset.shape(),
        }
    }

    /// Monthly volumes by class.
    pub fn volumes(&self) -> Volumes {
        match self {
            Workload::Totals {
                input,
                cached,
                output,
            } => Volumes {
                uncached: *input,
                cached: *cached,
                output: *output,
            },
            Workload::Mix { tokens, mix } => Mix::from_parts(mix[0], mix[1], mix[2])
                .map_or_else(Volumes::default, |m| Volumes::from_mix(*tokens, &m)),
            Workload::Requests {
                requests, shape, ..
            } => {
                let input = requests * shape.input_per_request;
                Volumes {
                    uncached: input * (1.0 - shape.cache_hit),
                    cached: input * shape.cache_hit,
                    output: requests * shape.output_per_request,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coding_agent_matches_the_sglang_output_share() {
        // published-figures.md, SGLang cookbook: at 40.9 tok/s, 1,237 of 185,382 tokens are output.
        let v = Workload::preset(Preset::CodingAgent, 1.0).volumes();
        let share = v.output / v.total();
        assert!((share - 1_237.0 / 185_382.0).abs() < 2e-4, "{share}");
    }

    #[test]
    fn presets_round_trip_by_key() {
        for p in Preset::ALL {
            assert_eq!(Preset::from_key(p.key()), Some(p));
        }
    }
}
