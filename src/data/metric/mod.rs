//! The metric catalogue: every per-run metric described once.
//!
//! A metric is identified by a [`Metric`] value, an index into a
//! [`Catalogue`]. The catalogue starts with the fixed metrics every run has
//! ([`BUILTINS`]: what `wait4` and the clock report, and the two totals) and
//! admits further metrics known only at run time — performance counters, a
//! command's own figures — with [`Catalogue::register`]. Each entry, a
//! [`MetricDef`], says everything the rest of the tool needs: the raw CSV
//! column, the JSON key, the labels, the unit (which decides the display
//! scaling), whether a run may lack it, where the launcher puts it on the
//! wire, and whether it is derived from other metrics.
//!
//! Every stage loops over the catalogue instead of naming fields: the
//! launcher codec ([`crate::measure::protocol`]) fills a [`Values`] from the
//! wire slots, the runner moves that one value into the
//! [`RunRecord`](super::RunRecord), the raw CSV writer and reader map
//! columns to entries, the [`Dataset`](super::Dataset) keeps one column per
//! entry, the analysis summarises each, and the reports and the JSON export
//! show each present one. Adding a metric is adding an entry (and, for a
//! fixed one, its wire slot in `launcher.c`): see "How to add a metric" in
//! `docs/DESIGN.md`.
//!
//! A value that was not measured is absent (`None`), never zero: a run from
//! a file that lacks a column, a counter that could not be read, a custom
//! metric a command did not report.
//!
//! This file holds [`Metric`] and the process-wide interning of registered
//! descriptions; `def.rs` a metric's description ([`MetricDef`]),
//! `builtins.rs` the fixed metrics' table, `catalogue.rs` the
//! [`Catalogue`] of a dataset or experiment, and `value.rs` the measured
//! [`Value`]s.

use std::fmt;
use std::sync::Mutex;

mod builtins;
mod catalogue;
mod def;
mod value;

pub use builtins::BUILTINS;
pub use catalogue::{Catalogue, CatalogueError};
pub use def::{recognise, MetricDef, RawColumn, Source, Unit, Wire, WireScale};
pub use value::{Value, Values};

/// Identifies a metric. The fixed metrics are the associated constants;
/// metrics registered at run time ([`Catalogue::register`]) get the next
/// numbers, process-wide: each distinct description is interned once (and
/// lives as long as the process), so a `Metric` alone knows its description
/// ([`Metric::def`]) wherever it goes. A [`Catalogue`] says which metrics a
/// dataset or an experiment has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Metric(u16);

impl Metric {
    /// User + system CPU time: the primary metric, used for ranking.
    pub const TOTAL: Metric = Metric(0);
    pub const USER: Metric = Metric(1);
    pub const SYSTEM: Metric = Metric(2);
    pub const WALL: Metric = Metric(3);
    pub const MAXRSS: Metric = Metric(4);
    /// Minor page faults ("Page Reclaims" in the raw CSV).
    pub const MINOR_FAULTS: Metric = Metric(5);
    /// Major page faults ("Page Faults" in the raw CSV).
    pub const MAJOR_FAULTS: Metric = Metric(6);
    pub const VOLUNTARY_CSW: Metric = Metric(7);
    pub const INVOLUNTARY_CSW: Metric = Metric(8);
    /// Voluntary + involuntary context switches.
    pub const TOTAL_CSW: Metric = Metric(9);
    /// Time the command's process spent runnable but waiting for a CPU
    /// (the scheduler's run-queue delay); absent where the kernel does
    /// not keep it, and in files written without it.
    pub const RUN_DELAY: Metric = Metric(10);

    /// Its number (its position in a [`Values`]).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The fixed metric's description, if this is one.
    pub fn builtin(self) -> Option<&'static MetricDef> {
        BUILTINS.get(self.index())
    }

    /// Its description.
    pub fn def(self) -> &'static MetricDef {
        match self.builtin() {
            Some(d) => d,
            None => {
                let registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
                // Only `intern` makes registered metrics, so the index exists.
                registry[self.index() - BUILTINS.len()]
            }
        }
    }

    /// The label in reports ("Total CPU time").
    pub fn label(self) -> &'static str {
        self.def().label.as_ref()
    }

    /// The unit its values are recorded in.
    pub fn unit(self) -> Unit {
        self.def().unit
    }

    /// The short name users give (`--metric wall`).
    pub fn name(self) -> &'static str {
        self.def().name.as_ref()
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Every registered description, interned (see [`Metric`]).
static REGISTRY: Mutex<Vec<&'static MetricDef>> = Mutex::new(Vec::new());

/// The metric of `def`: the one already interned with this very
/// description, or a new one. `None` when the numbers are exhausted.
fn intern(def: MetricDef) -> Option<Metric> {
    let mut registry = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    let index = match registry.iter().position(|d| **d == def) {
        Some(i) => i,
        None => {
            if BUILTINS.len() + registry.len() > usize::from(u16::MAX) {
                return None;
            }
            registry.push(Box::leak(Box::new(def)));
            registry.len() - 1
        }
    };
    Some(Metric((BUILTINS.len() + index) as u16))
}
