//! One command's result: Hyperfine's fields, BestGuess's own (summaries,
//! diagnostics, comparison, per-run layouts).

use super::*;
use std::borrow::Cow;
use std::rc::Rc;

use crate::analysis::{Analysis, CommandStats, Diagnostics};
use crate::data::{CommandRuns, Metric};
use crate::export::json_layouts::{JsonRuns, Layout};
use crate::export::json_runs::{self, PerRun};
use crate::stats::{Comparison, Design, Method, RankedEntry, Reason, Scale, Summary, Verdict};

/// One element of `results`: Hyperfine's keys, then `bestguess`; of the
/// per-run data, the `layouts` asked for.
pub(super) fn result<'a>(analysis: &'a Analysis<'_>, i: usize, layouts: JsonRuns) -> Node<'a> {
    let runs = analysis.runs(i);
    let stats = &analysis.commands[i];
    // A metric the data lacks is null, never 0.
    let wall = stats.metric(Metric::WALL);
    let q = wall.map(|w| w.quantiles);
    let mean = |m| stats.metric(m).map_or(Node::Null, |s| seconds(s.mean));
    let mean_or = |m, given: Option<f64>| match (stats.metric(m), given) {
        (None, Some(us)) => seconds(us),
        _ => mean(m),
    };
    let wall_seconds =
        |f: fn(&crate::stats::Quantiles) -> f64| q.as_ref().map_or(Node::Null, |q| seconds(f(q)));
    let mut fields = vec![
        ("command", text(&runs.command)),
        ("mean", mean(Metric::WALL)),
        (
            "stddev",
            wall.and_then(|w| w.sd).map_or(Node::Null, seconds),
        ),
        ("median", wall_seconds(|q| q.median)),
        // Or the means the source gave without per-run values.
        ("user", mean_or(Metric::USER, runs.source_means.user)),
        ("system", mean_or(Metric::SYSTEM, runs.source_means.system)),
        ("min", wall_seconds(|q| q.min)),
        ("max", wall_seconds(|q| q.max)),
    ];
    // Hyperfine's layouts hold the runs with wall-clock time: its `times`
    // promise a number per run, never `null` (a run without one, read from
    // another tool's file, is in `bestguess.per_run` alone).
    let kept: Option<Rc<[usize]>> = json_runs::hyperfine_runs(runs).map(Rc::from);
    let per_run = |what| match &kept {
        None => Node::PerRun(runs, what),
        Some(kept) => Node::PerRunOf(runs, what, kept.clone()),
    };
    if layouts.has(Layout::Hyperfine1) {
        fields.push(("times", per_run(PerRun::Seconds(Metric::WALL))));
        // Only when every one of those runs has its memory (Hyperfine
        // before 1.19, and 1.x files, have none: the key is absent).
        let without_memory = runs.runs_without(Metric::MAXRSS);
        let memory = match &kept {
            None => without_memory.is_empty(),
            Some(kept) => without_memory
                .iter()
                .all(|i| kept.binary_search(i).is_err()),
        };
        if memory {
            fields.push(("memory_usage_byte", per_run(PerRun::Metric(Metric::MAXRSS))));
        }
        // As in Hyperfine, a run ended by a signal has no exit code; a
        // source that recorded none (Hyperfine before 1.13) gets none.
        if runs.has_exit_codes() || runs.any_signal_unknown() {
            fields.push(("exit_codes", per_run(PerRun::HyperfineExitCode)));
        }
    }
    if layouts.has(Layout::Hyperfine2) {
        let measurements = match &kept {
            None => Node::Measurements(runs),
            Some(kept) => Node::MeasurementsOf(runs, kept.clone()),
        };
        fields.push(("measurements", measurements));
    }
    fields.push(("summary", hyperfine_summary(stats)));
    // Present only for a command built from -P/-L. As Hyperfine 2.0, each
    // value as {"value": "…"}, except in a document for Hyperfine 1.x's
    // readers alone (`--json-runs hyperfine1`), where it is 1.x's bare
    // string (which `bestguess.parameters` always holds): one value cannot
    // be read by both generations' `plot_parametrized.py`.
    if !runs.parameters.is_empty() {
        let bare = layouts.has(Layout::Hyperfine1) && !layouts.has(Layout::Hyperfine2);
        let values = runs
            .parameters
            .iter()
            .map(|(name, value)| {
                let v = if bare {
                    text(value)
                } else {
                    Node::Object(vec![(Cow::Borrowed("value"), text(value))])
                };
                (Cow::Borrowed(name.as_str()), v)
            })
            .collect();
        fields.push(("parameters", Node::Object(values)));
    }
    fields.push((
        "bestguess",
        own_result(analysis, i, runs, stats, layouts.has(Layout::BestGuess)),
    ));
    // Hyperfine 2.0 writes `name` only for a named command, right after
    // `command`; its scripts label a result by `name`, else `command`. A
    // command read from several files is named with its file's tag, so
    // that their plots tell them apart too.
    // Likewise a command told apart by its parameters (Hyperfine names it
    // `cat data.txt (level = 2)`).
    if !runs.name.trim().is_empty() || !runs.tag.is_empty() || !runs.shown_parameters.is_empty() {
        let name = if runs.tag.is_empty() && runs.shown_parameters.is_empty() {
            text(&runs.name)
        } else {
            Node::Str(runs.label())
        };
        fields.insert(1, ("name", name));
    }
    object(fields)
}

/// Hyperfine 2.0's metrics: key, BestGuess metric, unit word, divisor from
/// the stored unit (µs → s). In Hyperfine's `summary` order (sorted keys).
pub(super) const HYPERFINE_METRICS: [(&str, Metric, &str, f64); 5] = [
    ("memory_peak_resident", Metric::MAXRSS, "byte", 1.0),
    ("time_cpu", Metric::TOTAL, "second", 1e6),
    ("time_system", Metric::SYSTEM, "second", 1e6),
    ("time_user", Metric::USER, "second", 1e6),
    ("time_wall_clock", Metric::WALL, "second", 1e6),
];

/// Hyperfine 2.0's name for the metric BestGuess ranks by, if it has one.
pub(super) fn primary_metric(metric: Metric) -> Option<&'static str> {
    HYPERFINE_METRICS
        .iter()
        .find(|(_, m, _, _)| *m == metric)
        .map(|(key, ..)| *key)
}

/// Hyperfine 2.0's `summary`: per metric the command has, mean and sample
/// standard deviation as Hyperfine computes them, median, min and max. A
/// metric the data lacks is left out, as Hyperfine leaves out memory where
/// it cannot measure it.
pub(super) fn hyperfine_summary(stats: &CommandStats) -> Node<'static> {
    let fields = HYPERFINE_METRICS
        .iter()
        .filter_map(|&(key, metric, unit, divisor)| {
            let s = stats.metric(metric)?;
            let scaled = |x: f64| Node::Num(x / divisor);
            Some((
                key,
                object(vec![
                    ("unit", text(unit)),
                    ("count", count(s.n)),
                    ("mean", scaled(s.mean)),
                    ("stddev", s.sd.map_or(Node::Null, scaled)),
                    ("median", scaled(s.quantiles.median)),
                    ("min", scaled(s.quantiles.min)),
                    ("max", scaled(s.quantiles.max)),
                ]),
            ))
        })
        .collect();
    object(fields)
}

/// The `bestguess` object of one result, with `per_run` if `with_runs`.
pub(super) fn own_result<'a>(
    analysis: &'a Analysis<'_>,
    i: usize,
    runs: &'a CommandRuns,
    stats: &'a CommandStats,
    with_runs: bool,
) -> Node<'a> {
    let total = stats.metric(Metric::TOTAL);
    let normality = total.and_then(|t| t.normality.ok());
    let entry = analysis.ranking.entry(i);
    let mut fields = vec![
        ("name", text(&runs.name)),
        ("shell", text(&runs.shell)),
        (
            "batch",
            Node::Int(i64::try_from(runs.batch).unwrap_or(i64::MAX)),
        ),
        ("runs", count(stats.runs)),
        ("failed", count(stats.failed)),
        (
            "verdict",
            text(entry.map_or("not_compared", |e| e.verdict.word())),
        ),
        // The median's own interval, one of the family that holds
        // together (compared commands, or one command alone).
        (
            "median_interval",
            (entry.and_then(|e| e.bounds).or(analysis.median_alone)).map_or(Node::Null, |b| {
                object(vec![
                    ("low", Node::Num(b.low)),
                    ("high", Node::Num(b.high)),
                    ("confidence", Node::Num(b.confidence())),
                ])
            }),
        ),
        (
            "runs_needed",
            entry.and_then(|e| e.runs_needed).map_or(Node::Null, count),
        ),
    ];
    if with_runs {
        fields.push(("per_run", per_run(analysis, runs)));
    }
    if let Some(src) = analysis.dataset.sources.get(runs.source) {
        let mut source = vec![("path", text(&src.path)), ("tag", text(&src.tag))];
        // Which experiment of its file, from the second on (a header row
        // in the middle of a raw file starts the next): so that reading
        // this file back keeps them apart, never in rounds together.
        if runs.group > 0 {
            source.push(("group", Node::Int(runs.group as i64 + 1)));
        }
        fields.insert(3, ("source", object(source)));
    }
    let mut fields: Vec<(Cow<'a, str>, Node<'a>)> = fields
        .into_iter()
        .map(|(k, v)| (Cow::Borrowed(k), v))
        .collect();
    // Hyperfine 1.x's shape of the parameters: name -> value.
    if !runs.parameters.is_empty() {
        let values = runs
            .parameters
            .iter()
            .map(|(name, value)| (Cow::Borrowed(name.as_str()), text(value)))
            .collect();
        fields.insert(3, (Cow::Borrowed("parameters"), Node::Object(values)));
    }
    // A summary for every metric of the catalogue the command has.
    for (metric, def) in analysis.dataset.catalogue.iter() {
        if let Some(s) = stats.metric(metric) {
            fields.push((Cow::Borrowed(def.key.as_ref()), summary(s)));
        }
    }
    let total_stat = |f: fn(&Summary) -> Option<f64>| optional(total.and_then(f));
    fields.extend([
        (
            "ad_statistic".into(),
            optional(normality.map(|ad| ad.a2_star)),
        ),
        (
            "ad_p_value".into(),
            optional(normality.map(|ad| ad.p_value)),
        ),
        ("skew".into(), total_stat(|t| t.skewness.ok())),
        (
            "excess_kurtosis".into(),
            total_stat(|t| t.excess_kurtosis.ok()),
        ),
    ]);
    if let Some(d) = analysis.diagnostics.get(i) {
        fields.push(("best_case".into(), best_case(d)));
        fields.push(("trend".into(), trend(d)));
    }
    if let (Some(entry), Some(best)) = (entry, analysis.ranking.best()) {
        if let Some(c) = &entry.comparison {
            fields.push(("comparison".into(), comparison(c, entry, best.index)));
        }
    }
    Node::Object(fields)
}

/// The best-case estimate (after `tim`), in the metric's recording unit;
/// `null` when there are too few runs.
pub(super) fn best_case(d: &Diagnostics) -> Node<'static> {
    match &d.best_case {
        Ok(b) => object(vec![
            ("estimate", Node::Num(b.estimate)),
            ("error", Node::Num(b.error)),
            ("distance", optional(b.distance)),
            ("stable", Node::Bool(b.stable)),
            ("k", count(b.k)),
        ]),
        Err(_) => Node::Null,
    }
}

/// The Mann–Kendall trend test against run order; `null` when not applied.
pub(super) fn trend(d: &Diagnostics) -> Node<'static> {
    match (&d.trend, d.trend_p_adjusted) {
        (Ok(t), Some(p)) => object(vec![
            ("tau", Node::Num(t.tau)),
            ("p_value", Node::Num(t.p_value)),
            ("p_value_adjusted", Node::Num(p)),
            ("halves_shift", optional(d.halves.map(|h| h.shift))),
            ("speed_changed", Node::Bool(d.drifted)),
        ]),
        _ => Node::Null,
    }
}

/// Every run's raw measurements, in run order: each metric of the catalogue
/// the command has, then the exit code, the signal, the sequence number,
/// the start time and, if any run timed out, which did.
pub(super) fn per_run<'a>(analysis: &'a Analysis<'_>, runs: &'a CommandRuns) -> Node<'a> {
    let mut fields: Vec<(Cow<'a, str>, Node<'a>)> = Vec::new();
    for (metric, def) in analysis.dataset.catalogue.iter() {
        if runs.has(metric) {
            fields.push((
                Cow::Borrowed(def.key.as_ref()),
                Node::PerRun(runs, PerRun::Metric(metric)),
            ));
        }
    }
    fields.push(("exit_code".into(), Node::PerRun(runs, PerRun::ExitCode)));
    fields.push(("signal".into(), Node::PerRun(runs, PerRun::Signal)));
    // When each run was made, so that a report on this file can still see
    // drift over time.
    fields.push(("sequence".into(), Node::PerRun(runs, PerRun::Sequence)));
    fields.push(("start_unix_us".into(), Node::PerRun(runs, PerRun::Start)));
    // Only when `--timeout` ended some run (absent: none did), so that the
    // usual file is not longer by a `false` per run.
    if runs.any_timed_out() {
        fields.push(("timed_out".into(), Node::PerRun(runs, PerRun::TimedOut)));
    }
    // Only when a signal whose number was not recorded ended some run
    // (Hyperfine's `null` exit code): without it such a run would read
    // back as one without an exit code, a success.
    if runs.any_signal_unknown() {
        fields.push((
            "signal_unknown".into(),
            Node::PerRun(runs, PerRun::SignalUnknown),
        ));
    }
    Node::Object(fields)
}

pub(super) fn summary(s: &Summary) -> Node<'static> {
    let q = &s.quantiles;
    object(vec![
        ("mode", Node::Num(s.mode)),
        ("min", Node::Num(q.min)),
        ("q1", Node::Num(q.q1)),
        ("median", Node::Num(q.median)),
        ("q3", Node::Num(q.q3)),
        ("p95", optional(q.p95)),
        ("p99", optional(q.p99)),
        ("max", Node::Num(q.max)),
    ])
}

pub(super) fn comparison(c: &Comparison, entry: &RankedEntry, best: usize) -> Node<'static> {
    let b = &c.contrast;
    let (analysis, rounds) = match c.design {
        Design::Rounds { rounds } => ("rounds", Node::Int(rounds as i64)),
        Design::Independent => ("independent", Node::Null),
    };
    let ratio = |v: f64| match b.scale {
        Scale::Ratio => Node::Num(v),
        Scale::Difference => Node::Null,
    };
    let difference = |v: f64| match b.scale {
        Scale::Ratio => Node::Null,
        Scale::Difference => Node::Num(v),
    };
    let mut fields = vec![
        ("against", count(best)),
        ("analysis", text(analysis)),
        ("rounds", rounds),
        ("ratio", ratio(b.estimate)),
        ("ratio_ci_low", ratio(b.low)),
        ("ratio_ci_high", ratio(b.high)),
        ("difference", difference(b.estimate)),
        ("difference_ci_low", difference(b.low)),
        ("difference_ci_high", difference(b.high)),
        ("ci_confidence", Node::Num(b.confidence())),
        ("ci_low_confidence", Node::Num(1.0 - b.low_miss)),
        ("ci_high_confidence", Node::Num(1.0 - b.high_miss)),
        // Every comparison made reaches its level: who is compared is
        // decided by the counts of runs.
        ("ci_reached", Node::Bool(true)),
        ("runs_needed", entry.runs_needed.map_or(Node::Null, count)),
        ("verdict", text(entry.verdict.word())),
        // Kept for readers of earlier versions: "not shown to be slower".
        (
            "identical",
            Node::Bool(!matches!(entry.verdict, Verdict::Slower)),
        ),
        (
            "reasons",
            Node::Array(entry.reasons.iter().map(|r| text(reason(*r))).collect()),
        ),
    ];
    // The C tool's statistics, deciding nothing.
    if let Some(k) = &c.classic {
        let mw = &k.mann_whitney;
        fields.extend([
            ("u", Node::Num(mw.u)),
            ("w", Node::Num(mw.w)),
            ("p_value", Node::Num(mw.p_value)),
            ("p_value_adjusted", Node::Num(k.p_adjusted)),
            ("method", text(method(mw.method))),
            ("hl_shift_us", Node::Num(k.shift)),
            ("ci_low_us", Node::Num(k.shift_low)),
            ("ci_high_us", Node::Num(k.shift_high)),
            ("hl_ci_confidence", Node::Num(k.shift_confidence)),
            ("prob_superiority", Node::Num(k.superiority)),
        ]);
    }
    object(fields)
}

pub(super) fn method(m: Method) -> &'static str {
    match m {
        Method::Exact => "exact",
        Method::Asymptotic => "asymptotic",
    }
}

pub(super) fn reason(r: Reason) -> &'static str {
    match r {
        Reason::WithinEffect => "within_effect",
    }
}
