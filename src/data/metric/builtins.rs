//! The fixed metrics every run has: what `wait4` and the clock report,
//! and the two totals, one description each.

use std::borrow::Cow;

use super::{Metric, MetricDef, RawColumn, Source, Unit, Wire, WireScale};

// One line per field keeps the table below readable as a table.
#[allow(clippy::too_many_arguments)]
const fn fixed(
    name: &'static str,
    column: &'static str,
    position: usize,
    key: &'static str,
    label: &'static str,
    row_label: &'static str,
    unit: Unit,
    summary_row: bool,
    source: Source,
    wire: Option<Wire>,
) -> MetricDef {
    MetricDef {
        name: Cow::Borrowed(name),
        column: Cow::Borrowed(column),
        raw: RawColumn::CTool(position),
        key: Cow::Borrowed(key),
        label: Cow::Borrowed(label),
        row_label: Cow::Borrowed(row_label),
        unit,
        integer: true,
        optional: false,
        summary_row,
        source,
        wire,
    }
}

const fn wire(slot: usize, scale: WireScale) -> Option<Wire> {
    Some(Wire { slot, scale })
}

/// The fixed metrics, in report order; [`Metric`]'s constants index this.
/// The first ten have C BestGuess's raw CSV positions; the run-queue
/// delay, which C BestGuess does not measure, is appended after
/// BestGuess's run columns (files without it read as runs without it).
pub static BUILTINS: [MetricDef; 11] = [
    fixed(
        "total",
        "Total time (us)",
        13,
        "total_us",
        "Total CPU time",
        "Total CPU time",
        Unit::Microseconds,
        true,
        Source::Sum(Metric::USER, Metric::SYSTEM),
        None,
    ),
    fixed(
        "user",
        "User time (us)",
        5,
        "user_us",
        "User time",
        "User time",
        Unit::Microseconds,
        true,
        Source::Stored,
        wire(3, WireScale::Same),
    ),
    fixed(
        "system",
        "System time (us)",
        6,
        "system_us",
        "System time",
        "System time",
        Unit::Microseconds,
        true,
        Source::Stored,
        wire(4, WireScale::Same),
    ),
    fixed(
        "wall",
        "Wall clock (us)",
        12,
        "wall_us",
        "Wall clock",
        "Wall clock",
        Unit::Microseconds,
        true,
        Source::Stored,
        wire(2, WireScale::NsToMicros),
    ),
    fixed(
        "maxrss",
        "Max RSS (Bytes)",
        7,
        "maxrss_bytes",
        "Max RSS",
        "Max RSS",
        Unit::Bytes,
        true,
        Source::Stored,
        wire(5, WireScale::RuMaxrss),
    ),
    fixed(
        "minflt",
        "Page Reclaims",
        8,
        "minor_faults",
        "Minor page faults",
        "Minor faults",
        Unit::Count,
        false,
        Source::Stored,
        wire(6, WireScale::Same),
    ),
    fixed(
        "majflt",
        "Page Faults",
        9,
        "major_faults",
        "Major page faults",
        "Major faults",
        Unit::Count,
        false,
        Source::Stored,
        wire(7, WireScale::Same),
    ),
    fixed(
        "vcsw",
        "Voluntary Context Switches",
        10,
        "voluntary_csw",
        "Voluntary context switches",
        "Voluntary csw",
        Unit::Count,
        false,
        Source::Stored,
        wire(8, WireScale::Same),
    ),
    fixed(
        "icsw",
        "Involuntary Context Switches",
        11,
        "involuntary_csw",
        "Involuntary context switches",
        "Involuntary csw",
        Unit::Count,
        false,
        Source::Stored,
        wire(9, WireScale::Same),
    ),
    fixed(
        "csw",
        "Total Context Switches",
        14,
        "context_switches",
        "Context switches",
        "Context sw",
        Unit::Count,
        true,
        Source::Sum(Metric::VOLUNTARY_CSW, Metric::INVOLUNTARY_CSW),
        None,
    ),
    // Shown in the summary table only when the runs waited noticeably
    // (the report decides, from the analysis): on a quiet machine it is a
    // row of near-zeros.
    MetricDef {
        name: Cow::Borrowed("runq"),
        column: Cow::Borrowed("Run-queue delay (us)"),
        raw: RawColumn::Appended,
        key: Cow::Borrowed("runq_delay_us"),
        label: Cow::Borrowed("Run-queue delay"),
        row_label: Cow::Borrowed("Run-queue delay"),
        unit: Unit::Microseconds,
        integer: true,
        optional: true,
        summary_row: false,
        source: Source::Stored,
        wire: wire(10, WireScale::NsToMicros),
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::metric::Catalogue;

    #[test]
    fn the_constants_index_their_descriptions() {
        let c = Catalogue::new();
        let names: Vec<&str> = c.iter().map(|(_, d)| d.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "total", "user", "system", "wall", "maxrss", "minflt", "majflt", "vcsw", "icsw",
                "csw", "runq"
            ]
        );
        assert_eq!(c.def(Metric::WALL).label, "Wall clock");
        assert_eq!(Metric::TOTAL.to_string(), "Total CPU time");
        assert_eq!(Metric::MAXRSS.unit(), Unit::Bytes);
        assert_eq!(c.def(Metric::MAXRSS).column, "Max RSS (Bytes)");
        assert_eq!(c.def(Metric::TOTAL_CSW).row_label, "Context sw");
        // Every raw position of C BestGuess's metric columns, once; the
        // run-queue delay appended, optional, found by its column name.
        let mut positions: Vec<usize> = c
            .iter()
            .filter_map(|(_, d)| match d.raw {
                RawColumn::CTool(p) => Some(p),
                RawColumn::Appended => None,
            })
            .collect();
        positions.sort_unstable();
        assert_eq!(positions, (5..15).collect::<Vec<_>>());
        let delay = c.def(Metric::RUN_DELAY);
        assert_eq!(
            (delay.raw, delay.optional, delay.column.as_ref()),
            (RawColumn::Appended, true, "Run-queue delay (us)")
        );
        assert_eq!(c.by_column("Run-queue delay (us)"), Some(Metric::RUN_DELAY));
        assert!(c.iter().all(|(_, d)| d.row_label.chars().count() <= 15));
    }
}
