//! The document's top level: the ranking's fields, the metric's choice,
//! warnings, settings, the adaptive rule's look and the metadata.

use super::*;
use std::borrow::Cow;

use crate::analysis::{threshold, Analysis};
use crate::export::json_layouts::JsonRuns;
use crate::export::metadata::{rfc3339, Metadata};
use crate::stats::{runs_to_compare, Design, Scale};

/// The top-level `bestguess` object: version, settings, ranking; and,
/// when `--json-runs` left a per-run layout out, the layouts written.
pub(super) fn top_level<'a>(analysis: &'a Analysis<'_>, layouts: JsonRuns) -> Node<'a> {
    let r = &analysis.ranking;
    let mut fields = vec![
        ("version", text(env!("CARGO_PKG_VERSION"))),
        ("schema_version", count(SCHEMA_VERSION as usize)),
        ("settings", settings(analysis)),
        ("epsilon_us", Node::Num(r.epsilon)),
        ("effect_us", Node::Num(r.effect)),
        ("reference_fixed", Node::Bool(r.fixed_reference)),
        (
            "analysis",
            text(match r.design {
                Design::Rounds { .. } => "rounds",
                Design::Independent => "independent",
            }),
        ),
        (
            "estimand",
            text(match r.scale {
                Scale::Ratio => "ratio_of_medians",
                Scale::Difference => "difference_of_medians",
            }),
        ),
        ("comparisons_family", count(r.family)),
        ("confidence_each", optional(r.bound_confidence)),
        (
            "simultaneous_confidence",
            optional(r.simultaneous_confidence),
        ),
        // The level every report states ("95% simultaneous"), wherever
        // an interval is shown.
        (
            "confidence",
            optional(
                (r.simultaneous_confidence.is_some() || analysis.median_alone.is_some())
                    .then_some(1.0 - analysis.settings.alpha),
            ),
        ),
        (
            "ranked_metric",
            text(analysis.settings.metric.def().key.as_ref()),
        ),
        ("metric_choice", metric_choice(analysis)),
        ("cpu_wait", cpu_wait(analysis)),
        // The runs of each command with which every command is compared.
        (
            "min_runs_for_inference",
            count(runs_to_compare(r.settings.alpha, r.entries.len())),
        ),
        ("inference", Node::Bool(r.inference)),
        (
            "ranking",
            Node::Array(r.order().into_iter().map(count).collect()),
        ),
        ("paired_by_round", Node::Bool(analysis.drift_check().paired)),
        ("warnings", warnings(analysis)),
    ];
    // Only when something was left out: the default document is unchanged.
    if !layouts.is_all() {
        let words = layouts.layouts().map(|l| text(l.word())).collect();
        fields.insert(2, ("json_runs", Node::Array(words)));
    }
    object(fields)
}

/// How the ranked metric was chosen from the data (`null` when
/// `--metric` named it): the reason, the commands it names, whether the
/// run-queue delay told waiting for a CPU apart, and the sentence the
/// ranking's header prints.
pub(super) fn metric_choice(analysis: &Analysis<'_>) -> Node<'static> {
    use crate::analysis::{MetricFrom, Why};
    let MetricFrom::Chosen(choice) = &analysis.settings.metric_from else {
        return Node::Null;
    };
    let (reason, commands): (&str, Vec<usize>) = match &choice.why {
        Why::OnCpu { .. } => ("on_cpu", Vec::new()),
        Why::Waits { commands, .. } => ("waits", commands.clone()),
        Why::CoarseCpu { command, .. } => ("coarse_cpu", vec![*command]),
        Why::NoCpu { commands, .. } => ("no_cpu", commands.clone()),
        Why::NoWall => ("no_wall", Vec::new()),
    };
    let line = crate::report::spending::metric_line(analysis).unwrap_or_default();
    object(vec![
        ("reason", text(reason)),
        (
            "commands",
            Node::Array(commands.into_iter().map(count).collect()),
        ),
        ("delay_known", Node::Bool(choice.delay_known)),
        ("text", Node::Str(line.into())),
    ])
}

/// The share of the runs' wall time spent waiting for a CPU (`null` when
/// no run has a run-queue delay), whether that makes the machine busy, and
/// the sentence that then says so.
pub(super) fn cpu_wait(analysis: &Analysis<'_>) -> Node<'static> {
    let Some(share) = analysis.spending.cpu_wait_share else {
        return Node::Null;
    };
    object(vec![
        ("share", Node::Num(share)),
        ("busy", Node::Bool(analysis.spending.busy().is_some())),
        (
            "text",
            crate::report::spending::busy_line(analysis)
                .map_or(Node::Null, |t| Node::Str(t.into())),
        ),
    ])
}

/// Every warning, in full (what the terminal prints after the reports,
/// and the details behind `-E`): `kind`, `printed` (whether a plain run
/// prints it), the commands it names (indices in `results`) and `text`.
pub(super) fn warnings(analysis: &Analysis<'_>) -> Node<'static> {
    use crate::analysis::Warning;
    let items = analysis.warnings().into_iter().map(|w| {
        let (kind, commands): (&str, Vec<usize>) = match &w {
            Warning::BestCaseChanged { command, .. } => ("best_case_changed", vec![*command]),
            Warning::WallDominates { commands } => ("wall_dominates", commands.clone()),
            Warning::FirstRunSlow { commands } => {
                ("first_run_slow", commands.iter().map(|c| c.0).collect())
            }
            Warning::RelativeChange(c) => ("relative_change", vec![c.command]),
            Warning::OrderDrift {
                explained, changed, ..
            } => (
                "order_drift",
                match explained {
                    Some(x) => vec![x.slower, x.than],
                    None => changed.clone(),
                },
            ),
            Warning::SpeedChanged { command, .. } => ("speed_changed", vec![*command]),
        };
        object(vec![
            ("kind", Node::Str(kind.into())),
            ("printed", Node::Bool(w.printed())),
            (
                "commands",
                Node::Array(commands.into_iter().map(count).collect()),
            ),
            (
                "text",
                Node::Str(crate::report::warnings::text(analysis, &w).into()),
            ),
        ])
    });
    Node::Array(items.collect())
}

/// The ranking settings as given with `-c`.
pub(super) fn settings(analysis: &Analysis<'_>) -> Node<'static> {
    let s = &analysis.settings;
    object(vec![
        ("alpha", Node::Num(s.alpha)),
        ("epsilon", Node::Str(threshold(s.epsilon).into())),
        ("effect", Node::Str(threshold(s.effect).into())),
        // The best-case estimate's (`best_case.stable` means nothing
        // without them).
        (
            "best",
            Node::Int(i64::try_from(s.best_case.k).unwrap_or(i64::MAX)),
        ),
        ("sigma", Node::Num(s.best_case.max_distance)),
        (
            "runs",
            text(if s.adaptive.is_some() {
                "auto"
            } else {
                "fixed"
            }),
        ),
        ("look", look(analysis)),
    ])
}

/// `--runs auto`: the rule's settings and the look the verdicts come from.
pub(super) fn look(analysis: &Analysis<'_>) -> Node<'static> {
    let (Some(rule), Some(l)) = (analysis.settings.adaptive, analysis.look) else {
        return Node::Null;
    };
    let int = |n: u64| Node::Int(i64::try_from(n).unwrap_or(i64::MAX));
    object(vec![
        ("min_runs", int(rule.min_rounds)),
        ("precision", Node::Num(rule.precision)),
        ("rounds", int(l.rounds)),
        ("index", count(l.index)),
        ("round", int(l.round)),
        ("alpha", Node::Num(l.alpha)),
        ("decided", Node::Bool(l.decided)),
    ])
}

/// Where the experiment ran: `null` for data read from files without it.
pub(super) fn platform<'a>(m: &'a Metadata) -> Node<'a> {
    let opt_text = |t: &'a Option<String>| t.as_deref().map_or(Node::Null, text);
    m.platform.as_ref().map_or(Node::Null, |p| {
        object(vec![
            ("os", text(&p.os)),
            ("architecture", text(&p.architecture)),
            ("kernel", opt_text(&p.kernel)),
            ("cpu_model", opt_text(&p.cpu_model)),
            ("cpus", p.cpus.map_or(Node::Null, count)),
        ])
    })
}

/// How the experiment ran: counts, order, seed, shell, limits and why it
/// stopped; `null` for data read from files.
pub(super) fn experiment(m: &Metadata) -> Node<'_> {
    m.experiment.as_ref().map_or(Node::Null, |e| {
        object(vec![
            ("commands", count(e.commands)),
            ("runs", Node::Int(i64::try_from(e.runs).unwrap_or(i64::MAX))),
            (
                "warmup",
                Node::Int(i64::try_from(e.warmup).unwrap_or(i64::MAX)),
            ),
            ("order", text(&e.order)),
            // A u64 may not fit an i64: written as its exact digits.
            (
                "seed",
                e.seed.map_or(Node::Null, |s| Node::Raw(s.to_string())),
            ),
            ("seed_given", Node::Bool(e.seed_given)),
            ("shell", text(&e.shell)),
            ("timeout_s", optional(e.timeout_s)),
            ("ignore_failure", Node::Bool(e.ignore_failure)),
            ("stopped", e.stopped.map_or(Node::Null, text)),
            (
                "max_runs",
                e.budget.map_or(Node::Null, |(runs, _)| {
                    Node::Int(i64::try_from(runs).unwrap_or(i64::MAX))
                }),
            ),
            (
                "max_time_s",
                e.budget.map_or(Node::Null, |(_, s)| Node::Num(s)),
            ),
        ])
    })
}

/// The top-level `metadata` object: Hyperfine 2.0's (`start_time`,
/// `platform`) extended with how the experiment was made.
pub(super) fn meta<'a>(m: &'a Metadata, analysis: &Analysis<'_>) -> Node<'a> {
    let time = |t: Option<i64>| t.map_or(Node::Null, |us| Node::Str(rfc3339(us).into()));
    let mut fields = vec![
        ("tool", text("bestguess")),
        ("bestguess_version", text(env!("CARGO_PKG_VERSION"))),
        ("program", text(&m.program)),
        (
            "command_line",
            Node::Array(m.command_line.iter().map(|a| text(a)).collect()),
        ),
        ("start_time", time(m.start_unix_us)),
        ("end_time", time(m.end_unix_us)),
        ("platform", platform(m)),
        ("experiment", experiment(m)),
        ("settings", settings(analysis)),
        (
            "counters",
            Node::Array(m.counters.iter().map(|c| text(c)).collect()),
        ),
        // The unit of each metric not built in, by its key, so that a
        // reader (`bestreport`) knows a `lat` in µs from a plain number.
        (
            "units",
            Node::Object(
                analysis
                    .dataset
                    .catalogue
                    .appended()
                    .map(|(_, d)| (Cow::Owned(d.key.to_string()), text(d.unit.column_suffix())))
                    .collect(),
            ),
        ),
        (
            "controls",
            Node::Object(
                m.controls
                    .iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), text(v)))
                    .collect(),
            ),
        ),
        (
            "sources",
            Node::Array(
                m.sources
                    .iter()
                    .map(|src| {
                        object(vec![
                            ("path", text(&src.path)),
                            ("tag", text(&src.tag)),
                            ("format", text(&src.format)),
                        ])
                    })
                    .collect(),
            ),
        ),
    ];
    // What -Q kept off standard error, only when it kept something.
    if !m.messages.is_empty() {
        fields.push((
            "messages",
            Node::Array(m.messages.iter().map(|t| text(t)).collect()),
        ));
    }
    object(fields)
}
