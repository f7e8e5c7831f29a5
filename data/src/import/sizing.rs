//! How many GPUs one copy of a model takes as deployed: a replica.
//!
//! Where the source says (an MLPerf submitter's configuration: tensor × pipeline parallelism;
//! expert parallelism runs over those same GPUs), the replica is what it says. Elsewhere it is
//! servecost's rule: the least power of two of the chip's GPUs whose memory holds the weights
//! at the curve's precision and leaves [`KV_RESERVE`] of it for the KV cache. A measured system
//! of N GPUs is then N / replica copies, each serving the system's throughput per GPU.
//!
//! The configurations come in a table derived from the submitters' files, one row per file:
//! `path,submitter,system,scenario,benchmark,tensor_parallelism,pipeline_parallelism,
//! moe_expert_parallelism,note`.

use super::ImportProblem;

pub use servecost::dataset::KV_RESERVE;

/// The columns a parallelism table has.
const COLUMNS: [&str; 8] = [
    "path",
    "submitter",
    "system",
    "scenario",
    "benchmark",
    "tensor_parallelism",
    "pipeline_parallelism",
    "moe_expert_parallelism",
];

/// One submitter's configuration of a benchmark on a system.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The configuration file in the results repository.
    pub path: String,
    /// Submitter, as the results name it.
    pub submitter: String,
    /// The system's id (`B200-SXM-180GBx8`).
    pub system: String,
    /// `Offline`, `Server`, `Interactive`.
    pub scenario: String,
    /// The benchmark as the file names it (`llama3_1-8b`, `deepseek-r1`).
    pub benchmark: String,
    /// Tensor parallelism; none where the file holds several values.
    pub tensor: Option<u32>,
    /// Pipeline parallelism (1 where the file gives none); none where it holds several.
    pub pipeline: Option<u32>,
    /// Expert parallelism, where given.
    pub experts: Option<u32>,
    /// The table's file name and line.
    pub origin: String,
}

impl Config {
    /// GPUs of one replica: tensor × pipeline parallelism (none where either is ambiguous).
    pub fn replica(&self) -> Option<u32> {
        Some(self.tensor? * self.pipeline?)
    }

    /// The parallelism in words: `TP 8 × PP 1, EP 8`.
    pub fn words(&self) -> String {
        let ep = self.experts.map_or(String::new(), |e| format!(", EP {e}"));
        format!(
            "TP {} × PP {}{ep}",
            self.tensor.unwrap_or_default(),
            self.pipeline.unwrap_or_default()
        )
    }

    /// Whether it configures `benchmark` (a summary's `MlperfModel`, its accuracy target
    /// aside) on `system` of `submitter`.
    pub fn configures(&self, submitter: &str, system: &str, benchmark: &str) -> bool {
        // `llama3_1-8b`, `llama3_1_8b` and `llama3.1-8b-99` are one benchmark: the separators
        // are the file's spelling, not its name.
        let bare = |b: &str| -> String {
            b.strip_suffix("-99.9")
                .or_else(|| b.strip_suffix("-99"))
                .unwrap_or(b)
                .chars()
                .filter(|c| !matches!(c, '-' | '_' | '.'))
                .collect()
        };
        self.submitter == submitter
            && (self.system == system || self.system == system.trim_end_matches("_TRT"))
            && bare(&self.benchmark) == bare(benchmark)
    }
}

/// True for a CSV whose header names a parallelism table's columns.
pub fn is_parallelism_table(text: &str) -> bool {
    let header = text.lines().next().unwrap_or_default();
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    COLUMNS.iter().all(|c| names.contains(c))
}

/// Reads a parallelism table; a row whose parallelism is not a count (nor several counts
/// separated by `|`, which leaves it ambiguous) is a problem naming its line.
pub fn read(file: &str, text: &str, out: &mut Vec<Config>) -> Result<(), Vec<ImportProblem>> {
    let short = super::file_name(file);
    super::csv_rows(file, text, |row, problems| {
        let line = row.line;
        // A count, none where the file holds several, or a problem.
        let mut count = |name: &'static str, blank: Option<u32>| -> Option<u32> {
            let v = row.cell(name);
            if v.is_empty() {
                return blank;
            }
            if v.contains('|') {
                return None;
            }
            match v.parse::<u32>() {
                Ok(n) if (1..=4_096).contains(&n) => Some(n),
                _ => {
                    problems.push(ImportProblem::new(
                        file,
                        format!("line {line}"),
                        name,
                        format!(
                            "{v:?} is not a count from 1 to 4,096 (several are separated by |)"
                        ),
                    ));
                    None
                }
            }
        };
        let tensor = count("tensor_parallelism", None);
        let pipeline = count("pipeline_parallelism", Some(1));
        let experts = count("moe_expert_parallelism", None);
        out.push(Config {
            path: row.cell("path").to_owned(),
            submitter: row.cell("submitter").to_owned(),
            system: row.cell("system").to_owned(),
            scenario: row.cell("scenario").to_owned(),
            benchmark: row.cell("benchmark").to_owned(),
            tensor,
            pipeline,
            experts,
            origin: format!("{short}, line {line}"),
        });
    })
}

/// The least power of two of GPUs of `memory_gb` each that holds `weights_gb` and leaves
/// [`KV_RESERVE`] of the replica's memory free; none past 4,096 GPUs.
pub fn least_replica(weights_gb: f64, memory_gb: f64) -> Option<u32> {
    (0..=12)
        .map(|p| 1u32 << p)
        .find(|&g| weights_gb <= (1.0 - KV_RESERVE) * memory_gb * f64::from(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_replica_holds_the_weights_and_the_reserve() {
        // gpt-oss-120b at MXFP4 (about 63 GB) on one 180 GB GPU; DeepSeek-R1 at FP4 (about
        // 380 GB) needs 4 × 180 GB (504 GB free of 720 after the reserve), not 2 (252 GB).
        assert_eq!(least_replica(63.0, 180.0), Some(1));
        assert_eq!(least_replica(380.0, 180.0), Some(4));
        assert_eq!(least_replica(380.0, 288.0), Some(2));
        assert_eq!(least_replica(1e9, 80.0), None);
    }

    #[test]
    fn a_table_reads_counts_and_leaves_several_ambiguous() {
        let text = "path,submitter,system,scenario,benchmark,tensor_parallelism,pipeline_parallelism,moe_expert_parallelism,note\n\
                    closed/NVIDIA/configs/B200-SXM-180GBx8/Server/deepseek-r1.py,NVIDIA,B200-SXM-180GBx8,Server,deepseek-r1,8,1,8,\n\
                    closed/A/configs/S/Server/llama3_1-8b.py,A,S,Server,llama3_1-8b,1,,,\n\
                    closed/A/configs/S/Server/llama3_1-405b.py,A,S,Server,llama3_1-405b,2|4,1|2,,several values\n";
        let mut out = Vec::new();
        read("p.csv", text, &mut out).expect("reads");
        assert_eq!(out[0].replica(), Some(8));
        assert_eq!(out[0].words(), "TP 8 × PP 1, EP 8");
        assert!(out[0].configures("NVIDIA", "B200-SXM-180GBx8_TRT", "deepseek-r1"));
        assert_eq!(out[1].replica(), Some(1));
        assert!(out[1].configures("A", "S", "llama3.1-8b"));
        assert!(!out[1].configures("A", "S", "llama3.1-405b"));
        assert!(!out[1].configures("B", "S", "llama3.1-8b"));
        // v6.1's folders spell the benchmark with underscores.
        let v61 = Config {
            benchmark: "deepseek_r1".into(),
            ..out[0].clone()
        };
        assert!(v61.configures("NVIDIA", "B200-SXM-180GBx8", "deepseek-r1"));
        assert!(!v61.configures("NVIDIA", "B200-SXM-180GBx8", "deepseek-r1-distill"));
        assert_eq!(out[2].replica(), None);
        let bad = "path,submitter,system,scenario,benchmark,tensor_parallelism,pipeline_parallelism,moe_expert_parallelism,note\n\
                   x,A,S,Server,b,0,1,,\n";
        let e = read("p.csv", bad, &mut Vec::new()).expect_err("zero");
        assert!(e[0].to_string().contains("tensor_parallelism"), "{}", e[0]);
    }
}
