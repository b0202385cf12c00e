//! One table row per cell: its figures over every configuration, and the
//! criteria it is judged by.

use crate::model::{Cell, Drift, Order};
use crate::tally::{pct, run_config, Tally};

/// Coverage over every configuration of a cell.
pub(crate) struct Coverage {
    pub(crate) comparisons: usize,
    /// The fraction of intervals that hold the true ratio.
    pub(crate) cover: f64,
    /// The mean confidence the intervals state.
    pub(crate) stated: f64,
    /// The highest confidence stated.
    pub(crate) max_stated: f64,
}

impl Coverage {
    pub(crate) fn of(all: &[&Tally]) -> Coverage {
        let comparisons: usize = all.iter().map(|t| t.comparisons).sum();
        let covered: usize = all.iter().map(|t| t.covered).sum();
        Coverage {
            comparisons,
            cover: covered as f64 / comparisons.max(1) as f64,
            stated: all.iter().map(|t| t.stated).sum::<f64>() / comparisons.max(1) as f64,
            max_stated: all.iter().map(|t| t.max_stated).fold(0.0, f64::max),
        }
    }
}

impl Cell {
    /// The row's first five columns: shape, runs, K, order, drift.
    pub(crate) fn label(&self) -> String {
        format!(
            "{} | {}{} | {} | {} | {}",
            self.shape,
            self.runs.0,
            if self.runs.0 == self.runs.1 {
                String::new()
            } else {
                format!(":{}", self.runs.1)
            },
            self.commands,
            match self.order {
                Order::Sequential => "seq",
                Order::Random => "random",
            },
            match self.drift {
                Drift::None => "–",
                Drift::Linear => "10 % linear",
                Drift::Step => "10 % step",
            },
        )
    }

    /// Slower verdicts counted against the A/A experiments: under drift,
    /// only those no warning came with.
    pub(crate) fn aa_slower(&self, aa: &Tally) -> usize {
        if self.drift != Drift::None {
            aa.unwarned_slower
        } else {
            aa.any_slower
        }
    }
}

/// The judged criteria a cell misses, each said with its figure.
pub(crate) fn judged(cell: &Cell, aa: &Tally, margin: &Tally, coverage: &Coverage) -> Vec<String> {
    let Coverage {
        comparisons,
        cover,
        stated,
        max_stated,
    } = *coverage;
    let drifting = cell.drift != Drift::None;
    let aa_slower = cell.aa_slower(aa);
    let mut bad = Vec::new();
    let sequential_drift = drifting && cell.order == Order::Sequential;
    // Under drift in sequential order nothing is true to cover: judged by
    // its warnings instead.
    if comparisons > 0 && !sequential_drift && cover < stated - 0.015 {
        bad.push(format!(
            "cover {:.1} < stated {:.1} − 1.5",
            100.0 * cover,
            100.0 * stated
        ));
    }
    let limit = if drifting { 0.05 } else { 0.05 + 0.015 };
    if aa.experiments > 0 && aa_slower as f64 / aa.experiments as f64 > limit {
        bad.push(format!("slower A/A {}", pct(aa_slower, aa.experiments)));
    }
    // At the margin, calling the command that is exactly the effect
    // slower is a false claim of one side: at most α/2 per comparison
    // (a lower bound misses at most the sum of two medians' bounds, each
    // α/(2K)). Calling a command slower that is not slower at all is a
    // false claim like those of A/A: at most α per experiment.
    if !sequential_drift
        && margin.up > 0
        && margin.up_slower as f64 / margin.up as f64 > 0.025 + 0.015
    {
        bad.push(format!("slower @1% {}", pct(margin.up_slower, margin.up)));
    }
    if !sequential_drift
        && margin.experiments > 0
        && margin.wrong_slower as f64 / margin.experiments as f64 > 0.05 + 0.015
    {
        bad.push(format!(
            "wrong @1% {}",
            pct(margin.wrong_slower, margin.experiments)
        ));
    }
    if max_stated >= 1.0 {
        bad.push("a confidence of 1".to_owned());
    }
    bad
}

/// One table row: every configuration of the cell, and whether it meets
/// the judged criteria.
pub(crate) fn row(cell: &Cell, reps: usize, seed: u64, failures: &mut Vec<String>) -> String {
    let power_reps = (reps / 3).max(50);
    let aa = run_config(cell, 1.0, 0.0, reps, seed);
    let margin = run_config(cell, 1.01, 0.0, reps, seed + 1);
    let powers: Vec<Tally> = [1.02, 1.05, 1.10, 2.0]
        .iter()
        .enumerate()
        .map(|(j, &f)| run_config(cell, f, 0.0, power_reps, seed + 2 + j as u64))
        .collect();
    let all: Vec<&Tally> = std::iter::once(&aa)
        .chain(std::iter::once(&margin))
        .chain(powers.iter())
        .collect();
    let coverage = Coverage::of(&all);
    let false_equivalent: usize = powers.iter().map(|t| t.equivalent).sum();
    let power_comparisons: usize = powers.iter().map(|t| t.comparisons).sum();
    let label = cell.label();
    let bad = judged(cell, &aa, &margin, &coverage);
    let mark = if bad.is_empty() {
        String::new()
    } else {
        failures.push(format!("{label}: {}", bad.join("; ")));
        " ✗".to_owned()
    };
    let shown = |x: f64| match coverage.comparisons {
        0 => "–".to_owned(),
        _ => format!("{:.1}", 100.0 * x),
    };
    format!(
        "| {label} | {} | {}{mark} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |",
        shown(coverage.stated),
        shown(coverage.cover),
        pct(cell.aa_slower(&aa), aa.experiments),
        pct(margin.up_slower, margin.up),
        pct(margin.wrong_slower, margin.experiments),
        pct(aa.equivalent, aa.comparisons),
        pct(false_equivalent, power_comparisons),
        pct(powers[0].equivalent, powers[0].comparisons),
        // Power: of every command truly slower, compared or not.
        pct(powers[0].up_slower, powers[0].up),
        pct(powers[1].up_slower, powers[1].up),
        pct(powers[2].up_slower, powers[2].up),
        pct(powers[3].up_slower, powers[3].up),
        100.0 * coverage.max_stated,
    )
}

pub(crate) const HEADER: &str = "| shape | runs | K | order | drift | stated | cover | slower A/A | slower @1% | wrong @1% | equiv A/A | false equiv | equiv ×1.02 | ×1.02 | ×1.05 | ×1.10 | ×2 | max |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
