//! A cloud's GPU rental table, as SkyPilot's catalogue lists it (`catalogs/v7/<cloud>/vms.csv`):
//! one row per instance type and region (and zone), with `InstanceType`, `AcceleratorName`,
//! `AcceleratorCount`, `Price` (on demand, $ per instance-hour), `SpotPrice` and `Region`, in
//! any order. The table does not say whose prices these are or when: `--provider` and `--date`
//! do. Each instance type's on-demand and spot prices become GPU-hour price tiers of the
//! dataset chip its accelerator names, priced per GPU (the instance price over its GPUs);
//! regions at one price are one tier. Accelerators the dataset has no chip for are counted and
//! left out.

use std::collections::BTreeMap;

use crate::rows::{Keyed, Rows, SourceRow, TierRow};

use super::{ImportProblem, Options, Read};

/// The columns the table must have.
const COLUMNS: [&str; 5] = [
    "InstanceType",
    "AcceleratorName",
    "AcceleratorCount",
    "Price",
    "Region",
];

/// One row of the table.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The file (its name only).
    pub file: String,
    /// Its line in the file.
    pub line: u64,
    /// The instance type.
    pub instance: String,
    /// The accelerator as the table names it (`H100`).
    pub accelerator: String,
    /// GPUs per instance.
    pub gpus: f64,
    /// On-demand $ per instance-hour, when listed.
    pub on_demand: Option<f64>,
    /// Spot $ per instance-hour, when listed.
    pub spot: Option<f64>,
    /// The region.
    pub region: String,
    /// The zone within it, where the table names one.
    pub zone: Option<String>,
}

/// True for a CSV whose header names the catalogue's columns.
pub fn is_rental_table(text: &str) -> bool {
    let header = text.lines().next().unwrap_or_default();
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    COLUMNS.iter().all(|c| names.contains(c))
}

/// Reads the rows of a catalogue file; any unreadable one is a problem naming its line and
/// column.
pub fn read(file: &str, text: &str, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    let short = super::file_name(file);
    super::csv_rows(file, text, |row, problems| {
        let (line, cell) = (row.line, |name: &str| row.cell(name));
        let price = |name: &'static str, text: &str| -> Result<Option<f64>, ImportProblem> {
            if text.is_empty() {
                return Ok(None);
            }
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 && v < 10_000.0 => Ok(Some(v)),
                _ => Err(ImportProblem::new(
                    file,
                    format!("line {line}"),
                    name,
                    format!(
                        "{text:?} is not a price: $ per instance-hour, above 0 and under 10,000"
                    ),
                )),
            }
        };
        let gpus = match cell("AcceleratorCount").parse::<f64>() {
            Ok(n) if n.fract() == 0.0 && (1.0..=64.0).contains(&n) => n,
            _ => {
                problems.push(ImportProblem::new(
                    file,
                    format!("line {line}"),
                    "AcceleratorCount",
                    format!(
                        "{:?} is not a GPU count: a whole number from 1 to 64",
                        cell("AcceleratorCount")
                    ),
                ));
                return;
            }
        };
        let on_demand = price("Price", cell("Price"));
        let spot = if row.has("SpotPrice") {
            price("SpotPrice", cell("SpotPrice"))
        } else {
            Ok(None)
        };
        match (on_demand, spot) {
            (Ok(on_demand), Ok(spot)) => read.rentals.push(Entry {
                file: short.clone(),
                line,
                instance: cell("InstanceType").to_owned(),
                accelerator: cell("AcceleratorName").to_owned(),
                gpus,
                on_demand,
                spot,
                region: cell("Region").to_owned(),
                zone: Some(cell("AvailabilityZone").to_owned()).filter(|z| !z.is_empty()),
            }),
            (a, b) => {
                problems.extend(a.err());
                problems.extend(b.err());
            }
        }
    })
}

/// Rows at one price: an instance type, a kind (`on_demand`, `spot`) and the price per GPU (its
/// bits, so that equal prices are one key), with each row's dataset chip.
type Groups = BTreeMap<(String, &'static str, u64), Vec<(Entry, String)>>;

/// $ per GPU-hour of an instance price, to a billionth of a dollar.
fn per_gpu(instance_price: f64, gpus: f64) -> f64 {
    (instance_price / gpus * 1e9).round() / 1e9
}

/// Turns the rows into price tiers of dataset chips: one tier per instance type, kind and price
/// (the regions at that price named in its label).
pub fn tiers(
    current: &Rows,
    opts: &Options,
    read: &mut Read,
    notes: &mut Vec<String>,
) -> Result<(), Vec<ImportProblem>> {
    if read.rentals.is_empty() {
        return Ok(());
    }
    let (Some(provider), Some(date)) = (&opts.provider, &opts.date) else {
        let file = read.rentals[0].file.clone();
        return Err(vec![ImportProblem::new(
            &file,
            "",
            "",
            "a GPU rental table does not say whose prices it lists or when: give --provider NAME \
             and --date YYYY-MM-DD",
        )]);
    };
    let chips = super::chip_ids(current, read);
    let source = super::id(&format!("rental-{provider}-{date}"));
    // (instance, kind, price per GPU) -> the entries at that price.
    let mut groups = Groups::new();
    let mut left_out = BTreeMap::<String, usize>::new();
    for e in std::mem::take(&mut read.rentals) {
        // `H100-SXM` is the H100 (its standard form); `H100-NVL` is another card.
        let name = e.accelerator.to_ascii_lowercase();
        let bare = name.strip_suffix("-sxm").unwrap_or(&name);
        let Some(chip) = chips.iter().find(|c| bare == c.as_str()).cloned() else {
            *left_out.entry(e.accelerator.clone()).or_default() += 1;
            continue;
        };
        for (kind, price) in [("on_demand", e.on_demand), ("spot", e.spot)] {
            if let Some(p) = price {
                let usd = per_gpu(p, e.gpus);
                groups
                    .entry((e.instance.clone(), kind, usd.to_bits()))
                    .or_default()
                    .push((e.clone(), chip.clone()));
            }
        }
    }
    let mut per_instance_kind = BTreeMap::<(String, &'static str), usize>::new();
    for (instance, kind, _) in groups.keys() {
        *per_instance_kind
            .entry((instance.clone(), *kind))
            .or_default() += 1;
    }
    let mut taken = std::collections::BTreeSet::<String>::new();
    for ((instance, kind, bits), entries) in &groups {
        let (first, chip) = &entries[0];
        let mut regions: Vec<&str> = entries.iter().map(|(e, _)| e.region.as_str()).collect();
        regions.sort_unstable();
        regions.dedup();
        let several = per_instance_kind[&(instance.clone(), *kind)] > 1;
        let base = if several {
            super::id(&format!("{provider}-{instance}-{}-{kind}", regions[0]))
        } else {
            super::id(&format!("{provider}-{instance}-{kind}"))
        };
        // Zones of one region at different spot prices: the cheaper keeps the name, the next
        // is `-2`, and so on (the groups come cheapest first).
        let tier = (1..)
            .map(|n| {
                if n == 1 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                }
            })
            .find(|t| !taken.contains(&format!("{chip}/{t}")))
            .unwrap_or_default();
        taken.insert(format!("{chip}/{tier}"));
        let mut where_ = match regions.as_slice() {
            [one] => (*one).to_owned(),
            many => format!("{} regions", many.len()),
        };
        // Zones of one region at other prices: the zones tell the tiers apart.
        if tier != base {
            let mut zones: Vec<&str> = entries
                .iter()
                .filter_map(|(e, _)| e.zone.as_deref())
                .collect();
            zones.sort_unstable();
            zones.dedup();
            if !zones.is_empty() {
                where_ = format!("{where_} ({})", zones.join(", "));
            }
        }
        let gpus = first.gpus;
        read.origins
            .entry((TierRow::KIND, format!("{chip}/{tier}")))
            .or_insert_with(|| (first.file.clone(), format!("line {}", first.line)));
        read.rows.tiers.push(TierRow {
            chip: chip.clone(),
            tier,
            // The kind and the day are the tier's own fields, shown beside the label.
            label: format!(
                "{provider} {instance}: {gpus} × {}, {where_}",
                first.accelerator
            ),
            usd_per_gpu_hour: f64::from_bits(*bits),
            source: source.clone(),
            is_default: false,
            kind: Some((*kind).to_owned()),
            term_months: None,
            upfront_share: None,
            provider: Some(provider.clone()),
        });
    }
    read.rows.sources.push(SourceRow {
        key: source,
        publisher: format!("{provider} (via the SkyPilot catalogue)"),
        title: format!("{provider} GPU instance prices, $ per instance-hour, on demand and spot"),
        url: None,
        date: date.clone(),
        trust: "vendor".into(),
        caveat: Some(
            "The provider's list prices as a catalogue copies them: per instance-hour, divided \
             by the instance's GPUs; spot prices are interruptible and move by the hour."
                .into(),
        ),
    });
    if !left_out.is_empty() {
        let named: Vec<String> = left_out.iter().map(|(a, n)| format!("{a} ({n})")).collect();
        notes.push(format!(
            "rows of accelerators the dataset has no chip for left out: {}",
            named.join(", ")
        ));
    }
    Ok(())
}
