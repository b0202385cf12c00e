//! What the real analysis makes of a cell's experiments, counted over
//! the replications.

use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Mutex;

use bestguess::analysis::{Analysis, RankingSettings};
use bestguess::data::Dataset;
use bestguess::stats::{rank_with, RankOptions, Ranking, Sample, SplitMix64, Verdict};

use crate::model::{experiment, medians, Cell, Drift, Experiment, Order, Rng};

/// What one configuration of a cell gave over its replications.
#[derive(Default, Clone)]
pub(crate) struct Tally {
    pub(crate) experiments: usize,
    /// Experiments with any command called slower.
    pub(crate) any_slower: usize,
    /// ... of which no drift warning was given.
    pub(crate) unwarned_slower: usize,
    /// Experiments with a command called slower that is not truly slower
    /// than the one it was compared with.
    pub(crate) wrong_slower: usize,
    /// Commands truly slower than the first, and the comparisons that
    /// call one of them "slower" than the first.
    pub(crate) up: usize,
    pub(crate) up_slower: usize,
    pub(crate) comparisons: usize,
    pub(crate) slower: usize,
    pub(crate) faster: usize,
    pub(crate) equivalent: usize,
    pub(crate) covered: usize,
    pub(crate) stated: f64,
    pub(crate) max_stated: f64,
}

/// The ranking of one experiment, and whether a drift warning was given.
/// With drift, the whole [`Analysis`] of the raw records, as `bestreport`
/// makes it (its warnings are part of the result); without, the ranking
/// the analysis makes, [`rank_with`] (the same call, without the
/// per-metric summaries).
pub(crate) fn analyse(cell: &Cell, made: Experiment) -> (Ranking, bool) {
    if cell.drift != Drift::None {
        let data = Dataset::from_records(made.records);
        let a = Analysis::new(&data, RankingSettings::default()).expect("valid synthetic data");
        let warned = a.drift_check().warns();
        return (a.ranking, warned);
    }
    let samples: Vec<Sample> = made
        .values
        .iter()
        .map(|v| Sample::from_slice(v).expect("finite values"))
        .collect();
    let complete = made.values.windows(2).all(|w| w[0].len() == w[1].len());
    let options = RankOptions {
        rounds: (cell.order == Order::Random && complete).then(|| made.values[0].len()),
        reference: None,
        classic: false,
    };
    let ranking =
        rank_with(&samples, options, &RankingSettings::default().rule()).expect("valid settings");
    (ranking, false)
}

pub(crate) fn run_config(cell: &Cell, factor: f64, ticks: f64, reps: usize, seed: u64) -> Tally {
    // The others are drawn at `drawn`; the truth is of what is drawn.
    let drawn = cell.drawn(factor);
    let truths = medians(cell, drawn, ticks);
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Tally::default());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut mine = Tally::default();
                loop {
                    let r = next.fetch_add(1, AtomicOrdering::Relaxed);
                    if r >= reps {
                        break;
                    }
                    let mut rng = Rng(SplitMix64::new(seed.wrapping_mul(1_000_003) + r as u64));
                    let made = experiment(&mut rng, cell, drawn, ticks);
                    let (ranking, warned) = analyse(cell, made);
                    tally(&mut mine, &ranking, warned, &truths, cell.commands);
                }
                total.lock().unwrap().add(&mine);
            });
        }
    });
    total.into_inner().unwrap()
}

/// One experiment's verdicts and intervals against the true medians.
pub(crate) fn tally(mine: &mut Tally, ranking: &Ranking, warned: bool, truths: &[f64], k: usize) {
    mine.experiments += 1;
    let reference = ranking.entries[0].index;
    // Every other command is truly slower than the first (or none is).
    if truths[1] > truths[0] {
        mine.up += k - 1;
    }
    let mut slower = false;
    let mut wrong = false;
    for e in &ranking.entries[1..] {
        let Some(c) = e.comparison else { continue };
        let b = c.contrast;
        mine.comparisons += 1;
        // The named quantity: the ratio of the two population medians.
        let truth = truths[e.index] / truths[reference];
        mine.covered += usize::from(b.low <= truth && truth <= b.high);
        mine.stated += b.confidence();
        mine.max_stated = mine.max_stated.max(b.confidence());
        let up = truth > 1.0;
        match e.verdict {
            Verdict::Slower => {
                mine.slower += 1;
                mine.up_slower += usize::from(up);
                wrong |= !up;
                slower = true;
            }
            Verdict::Faster => mine.faster += 1,
            Verdict::Equivalent => mine.equivalent += 1,
            _ => {}
        }
    }
    mine.any_slower += usize::from(slower);
    mine.unwarned_slower += usize::from(slower && !warned);
    mine.wrong_slower += usize::from(wrong);
}

impl Tally {
    pub(crate) fn add(&mut self, mine: &Tally) {
        self.experiments += mine.experiments;
        self.any_slower += mine.any_slower;
        self.unwarned_slower += mine.unwarned_slower;
        self.wrong_slower += mine.wrong_slower;
        self.up += mine.up;
        self.up_slower += mine.up_slower;
        self.comparisons += mine.comparisons;
        self.slower += mine.slower;
        self.faster += mine.faster;
        self.equivalent += mine.equivalent;
        self.covered += mine.covered;
        self.stated += mine.stated;
        self.max_stated = self.max_stated.max(mine.max_stated);
    }
}

pub(crate) fn pct(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}", 100.0 * part as f64 / whole as f64)
    }
}
