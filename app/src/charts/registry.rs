//! The charts by name: one enum, whose names the export links (`/api/v1/charts/{name}.svg`), the
//! embeds (`chart=`), the OpenAPI document, the share links and the tests read.

use super::{
    bars, breakdown, cost_over_years, cost_over_years_in, cost_vs_tps, cost_vs_volume,
    cost_vs_volume_in, per_class, tornado, Column, COMPACT_BODY,
};

/// A chart of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chart {
    /// Monthly cost against monthly volume.
    Volume,
    /// $ per million tokens by class.
    Classes,
    /// The monthly bill of each option, line by line.
    Breakdown,
    /// Self-hosted $ per million tokens against output speed per user.
    Tps,
    /// What moves the answer (the tornado).
    Tornado,
    /// Cumulative cost of each plan over the years.
    Years,
}

impl Chart {
    /// Every chart, in the order the share links list them.
    pub const ALL: [Chart; 6] = [
        Self::Volume,
        Self::Classes,
        Self::Breakdown,
        Self::Tps,
        Self::Tornado,
        Self::Years,
    ];

    /// Its name in links: `volume`.
    pub fn key(self) -> &'static str {
        match self {
            Self::Volume => "volume",
            Self::Classes => "classes",
            Self::Breakdown => "breakdown",
            Self::Tps => "tps",
            Self::Tornado => "tornado",
            Self::Years => "years",
        }
    }

    /// The chart a link names, if any.
    pub fn from_key(key: &str) -> Option<Chart> {
        Self::ALL.into_iter().find(|c| c.key() == key)
    }

    /// The title an exported file carries.
    pub fn title(self) -> &'static str {
        match self {
            Self::Volume => "Monthly cost against monthly volume",
            Self::Classes => "$ per million tokens by class",
            Self::Breakdown => "The monthly bill, line by line",
            Self::Tps => "Self-hosted $ per million tokens against output speed per user",
            Self::Tornado => "What moves the answer: self-hosting minus renting, $ a month",
            Self::Years => "Cumulative cost of each plan over the years",
        }
    }

    /// The chart of `report`, as SVG.
    pub fn draw(self, report: &servecost::Report) -> String {
        match self {
            Self::Volume => cost_vs_volume(&report.series.cost_vs_volume),
            Self::Classes => per_class(&report.series.per_class),
            Self::Breakdown => {
                let columns = bars::columns(report);
                breakdown(
                    &columns
                        .iter()
                        .map(|(l, b)| Column { label: l, lines: b })
                        .collect::<Vec<_>>(),
                )
            }
            Self::Tps => cost_vs_tps(&report.series.cost_vs_tps, report.inputs.tps),
            Self::Tornado => tornado(&report.sensitivity),
            Self::Years => cost_over_years(&report.plan),
        }
    }

    /// The chart for an embed, which must read at 600 x 400: the volume and the years wide and
    /// short to fill the frame's width, the tornado with its four largest swings.
    pub fn compact(self, report: &servecost::Report) -> String {
        match self {
            Self::Tornado => tornado(&report.sensitivity[..report.sensitivity.len().min(4)]),
            Self::Volume => cost_vs_volume_in(&report.series.cost_vs_volume, COMPACT_BODY),
            Self::Years => cost_over_years_in(&report.plan, COMPACT_BODY),
            _ => self.draw(report),
        }
    }
}

impl std::fmt::Display for Chart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl AsRef<str> for Chart {
    fn as_ref(&self) -> &str {
        self.key()
    }
}

impl PartialEq<&str> for Chart {
    fn eq(&self, other: &&str) -> bool {
        self.key() == *other
    }
}
