//! Every terminal report, pinned by insta snapshots on fixed data: the C
//! reference's own files (`tests/data/c_tool/`) and synthetic edge cases
//! (`tests/data/fixtures/`: Unicode names, one run, 30 commands, all-zero
//! times, identical commands, failed runs, seconds and gigabytes).
//!
//! Selections are built from the report switches exactly as the command
//! line builds them (`-G` alone still prints the summary and the ranking),
//! so each snapshot is what a user sees for that command line. Besides the
//! snapshots: alignment checks by display width on every report of every
//! file, and a property test that no dataset makes `render` panic or print
//! NaN or infinity.

mod support;

use bestguess::analysis::Analysis;
use bestguess::analysis::RankingSettings;
use bestguess::cli::args::ReportSwitch::{self, *};
use bestguess::cli::settings::Settings;
use bestguess::cli::Selection;
use bestguess::data::{Catalogue, Dataset, Metric, RunRecord};
use bestguess::report::{render, text};
use bestguess::stats::Threshold;
use proptest::prelude::*;

const C_TOOL: [&str; 9] = [
    "raw1.csv",
    "raw100.csv",
    "rawps1.csv",
    "pi1.csv",
    "seconds.csv",
    "brandAB.csv",
    "farmboys.csv",
    "minitab.csv",
    "rosie-grep-awk.csv",
];

const FIXTURES: [&str; 10] = [
    "utf8.csv",
    "one_run.csv",
    "many.csv",
    "zeros.csv",
    "identical.csv",
    "failures.csv",
    "seconds_mixed.csv",
    "ticks.csv",
    "ticks_sequential.csv",
    "scan.csv",
];

/// `tests/data/c_tool/<file>` or `tests/data/fixtures/<file>`.
fn path(file: &str) -> String {
    let dir = if C_TOOL.contains(&file) {
        "c_tool"
    } else {
        "fixtures"
    };
    support::arg(support::data(dir, file))
}

fn dataset(file: &str) -> Dataset {
    support::dataset(&path(file))
}

fn render_dataset(d: &Dataset, switches: &[ReportSwitch], settings: Settings) -> String {
    let analysis = Analysis::new(d, settings.ranking).unwrap();
    let selection = Selection {
        width: settings.width.unwrap_or(80),
        ..Selection::from_switches(switches)
    };
    let mut out = Vec::new();
    render(&analysis, &selection, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The report of `file` for the given switches, default settings.
fn report(file: &str, switches: &[ReportSwitch]) -> String {
    render_dataset(&dataset(file), switches, Settings::default())
}

fn with_width(width: usize) -> Settings {
    Settings {
        width: Some(width),
        ..Settings::default()
    }
}

/// A snapshot named `<name>` of the report.
macro_rules! snap {
    ($name:expr, $text:expr) => {
        insta::assert_snapshot!($name, $text)
    };
}

#[test]
fn default_report_of_every_file() {
    for file in C_TOOL.iter().chain(FIXTURES.iter()) {
        snap!(format!("default__{file}"), report(file, &[]));
    }
}

#[test]
fn mini_summary() {
    for file in ["raw1.csv", "seconds.csv", "utf8.csv", "seconds_mixed.csv"] {
        snap!(format!("mini__{file}"), report(file, &[Mini]));
    }
}

#[test]
fn graph() {
    for file in ["raw1.csv", "zeros.csv", "failures.csv", "one_run.csv"] {
        snap!(format!("graph__{file}"), report(file, &[NoStats, Graph]));
    }
    snap!(
        "graph_width_120__raw1.csv",
        render_dataset(&dataset("raw1.csv"), &[NoStats, Graph], with_width(120))
    );
}

#[test]
fn distribution() {
    for file in [
        "raw1.csv",
        "raw100.csv",
        "rawps1.csv",
        "pi1.csv",
        "seconds.csv",
        "zeros.csv",
        "one_run.csv",
        "identical.csv",
        "failures.csv",
    ] {
        snap!(format!("dist__{file}"), report(file, &[NoStats, Dist]));
    }
}

#[test]
fn tail() {
    for file in ["raw1.csv", "raw100.csv", "seconds.csv", "zeros.csv"] {
        snap!(format!("tail__{file}"), report(file, &[NoStats, Tail]));
    }
}

#[test]
fn box_plot_at_80_and_120_columns() {
    for file in [
        "raw1.csv",
        "raw100.csv",
        "utf8.csv",
        "many.csv",
        "zeros.csv",
        "one_run.csv",
        "seconds_mixed.csv",
        "rosie-grep-awk.csv",
        "pi1.csv",
    ] {
        snap!(
            format!("boxplot_80__{file}"),
            report(file, &[Quiet, Boxplot])
        );
    }
    for file in ["raw1.csv", "utf8.csv", "many.csv", "seconds_mixed.csv"] {
        snap!(
            format!("boxplot_120__{file}"),
            render_dataset(&dataset(file), &[Quiet, Boxplot], with_width(120))
        );
    }
}

/// A run with every fixed metric measured as 0 (synthetic data sets what
/// it needs on top).
fn zeros() -> RunRecord {
    Catalogue::new()
        .metrics()
        .fold(RunRecord::default(), |r, m| r.with(m, 0))
}

/// 120 commands of 1 to 3 runs each: numbering beyond 99 in the box plot,
/// and a ranking without inference.
fn hundred_and_twenty() -> Dataset {
    let records = (0..120u64).flat_map(|c| {
        (0..1 + c % 3).map(move |r| {
            RunRecord {
                command: format!("cmd{c}"),
                batch: c + 1,
                ..zeros()
            }
            .with(Metric::USER, (1000 + 37 * c + 11 * r) as i64)
            .with(Metric::SYSTEM, 100)
            .with(Metric::WALL, 2000)
        })
    });
    Dataset::from_records(records.collect::<Vec<_>>())
}

#[test]
fn box_plot_of_more_than_99_commands() {
    let d = hundred_and_twenty();
    let text = render_dataset(&d, &[Quiet, Boxplot], Settings::default());
    assert!(text.contains("\n120:"), "{text}");
    for line in text
        .lines()
        .take_while(|l| !l.starts_with("Box plot legend"))
    {
        assert!(text::width(line) <= 80, "{line}");
    }
    snap!("boxplot_80__120_commands", text);
}

#[test]
fn ranking_alone() {
    for file in ["raw1.csv", "many.csv", "one_run.csv", "utf8.csv"] {
        snap!(format!("ranking__{file}"), report(file, &[Quiet, Ranking]));
    }
    snap!(
        "ranking__120_commands",
        render_dataset(
            &hundred_and_twenty(),
            &[Quiet, Ranking],
            Settings::default()
        )
    );
}

#[test]
fn explained_ranking() {
    for file in [
        "raw1.csv",
        "identical.csv",
        "many.csv",
        "brandAB.csv",
        "farmboys.csv",
        "minitab.csv",
        "rosie-grep-awk.csv",
        "seconds_mixed.csv",
        "utf8.csv",
        "one_run.csv",
        "failures.csv",
        "ticks.csv",
        "ticks_sequential.csv",
    ] {
        snap!(format!("explain__{file}"), report(file, &[Quiet, Explain]));
    }
}

#[test]
fn explained_ranking_with_relative_thresholds() {
    let ranking = RankingSettings {
        effect: Threshold::Percent(2.0),
        epsilon: Threshold::Percent(1.0),
        alpha: 0.01,
        ..RankingSettings::default()
    };
    let settings = Settings {
        ranking,
        ..Settings::default()
    };
    snap!(
        "explain_relative__pi1.csv",
        render_dataset(&dataset("pi1.csv"), &[Quiet, Explain], settings)
    );
}

#[test]
fn quiet_prints_nothing() {
    for file in C_TOOL.iter().chain(FIXTURES.iter()) {
        assert_eq!(report(file, &[Quiet]), "", "{file}");
    }
    snap!("quiet__raw1.csv", report("raw1.csv", &[Quiet]));
}

#[test]
fn combinations() {
    snap!("tail_dist__raw100.csv", report("raw100.csv", &[Tail, Dist]));
    snap!(
        "boxplot_explain__raw1.csv",
        report("raw1.csv", &[Boxplot, Explain])
    );
    snap!(
        "everything__utf8.csv",
        report("utf8.csv", &[Mini, Graph, Dist, Tail, Boxplot, Explain])
    );
    snap!(
        "everything__zeros.csv",
        report("zeros.csv", &[Graph, Dist, Tail, Boxplot, Explain])
    );
    snap!(
        "quiet_then_boxplot__raw1.csv",
        report("raw1.csv", &[Quiet, Boxplot])
    );
}

/// Every switch that adds a report.
const EVERYTHING: [ReportSwitch; 6] = [Graph, Dist, Tail, Boxplot, Explain, Summary];

#[test]
fn tables_align_by_display_width_in_every_report() {
    for file in C_TOOL.iter().chain(FIXTURES.iter()) {
        for extra in [None, Some(Mini)] {
            let mut switches = EVERYTHING.to_vec();
            switches.extend(extra);
            let text = report(file, &switches);
            check_alignment(file, &text);
        }
    }
    check_alignment(
        "120",
        &render_dataset(&hundred_and_twenty(), &EVERYTHING, Settings::default()),
    );
}

fn check_alignment(file: &str, text: &str) {
    check_alignment_at(file, text, 80)
}

/// The table columns for a report `width` columns wide: the summary's
/// right edge and bar column, and the ranking's label width.
fn check_alignment_at(file: &str, text: &str, width: usize) {
    let wide = width >= 80;
    let mini = text.contains("Median      Max   ╮") || text.contains("Min  Median     Max╮");
    let (summary_end, bar) = match (wide, mini) {
        (true, false) => (79, 30),
        (true, true) => (61, 30),
        (false, false) => (58, 17),
        (false, true) => (42, 17),
    };
    // The ranking's table is as wide as the width allows, or on a wide
    // terminal as its longest label needs: its heading says which.
    let widest = width.max(60).saturating_sub(2).clamp(58, 158);
    let table = (text.lines())
        .find(|l| l.starts_with("  ══════ Command"))
        .map_or(widest, |l| text::width(l) - 2);
    assert!(
        table <= widest && table >= widest.min(78),
        "{file}: table {table}"
    );
    let label = table - 38;
    let mut frame_width = None;
    for line in text.lines() {
        let w = text::width(line);
        let trimmed = line.trim_start();
        // Frames: every line from ╭ to ╰ is as wide as the top.
        if trimmed.starts_with("╭─") {
            frame_width = Some(w);
        }
        if let Some(fw) = frame_width {
            assert_eq!(w, fw, "{file}: frame line {line:?}");
        }
        if trimmed.starts_with('╰') {
            frame_width = None;
            continue;
        }
        if frame_width.is_some() {
            continue;
        }
        // Summary rows end in their bar at column 79 (61 for the mini one).
        if line.starts_with("  ") && line.ends_with(['│', '╮', '╯']) {
            assert_eq!(w, summary_end, "{file}: {line:?}");
            assert_eq!(
                columns(line, bar, bar + 1),
                if line.ends_with('╮') {
                    "╭"
                } else if line.ends_with('╯') {
                    "╰"
                } else {
                    "│"
                },
                "{file}: {line:?}"
            );
        }
        // Ranking rows: mark, "NNNN: label" in 40 columns, 2 spaces, then
        // the median with its unit in 10 columns.
        if is_ranking_row(line) {
            assert_eq!(
                columns(line, 3 + label, 5 + label),
                "  ",
                "{file}: {line:?}"
            );
            let median = columns(line, 5 + label, 15 + label);
            assert!(
                ["μs", "ms", "s "].iter().any(|u| median.ends_with(u)) || median.ends_with(" s"),
                "{file}: median {median:?} in {line:?}"
            );
            assert!(
                matches!(columns(line, 15 + label, 16 + label).as_str(), "" | " "),
                "{file}: {line:?}"
            );
        }
    }
}

/// The characters of `line` that start in display columns `from..to`.
fn columns(line: &str, from: usize, to: usize) -> String {
    let mut column = 0;
    let mut out = String::new();
    for c in line.chars() {
        if (from..to).contains(&column) {
            out.push(c);
        }
        column += text::width(&c.to_string());
    }
    out
}

/// `  ✻   1: …` or `      1: …`.
fn is_ranking_row(line: &str) -> bool {
    let c: Vec<char> = line.chars().collect();
    c.len() > 9
        && c[0] == ' '
        && c[1] == ' '
        && (c[2] == '✻' || c[2] == ' ')
        && c[3..7].iter().all(|d| *d == ' ' || d.is_ascii_digit())
        && c[6].is_ascii_digit()
        && c[7] == ':'
        && c[8] == ' '
}

/// Tokens such as `NaN` or `inf` (whole words, not inside "inferential").
fn has_non_finite(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|t| matches!(t, "NaN" | "nan" | "inf" | "Inf" | "infinity"))
}

fn arbitrary_dataset() -> impl Strategy<Value = Vec<Vec<i64>>> {
    let value = prop_oneof![Just(0i64), 0i64..1000, 0i64..1_000_000, 0i64..1_000_000_000,];
    let command = prop_oneof![
        prop::collection::vec(value.clone(), 1..30),
        (1usize..30).prop_map(|n| vec![0; n]),
        (1usize..30, 0i64..1_000_000_000).prop_map(|(n, v)| vec![v; n]),
    ];
    prop::collection::vec(command, 1..=4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn render_never_panics_nor_prints_non_finite_numbers(
        commands in arbitrary_dataset(),
        width in 40usize..200,
        relative in any::<bool>(),
        mini in any::<bool>(),
    ) {
        let records: Vec<RunRecord> = commands
            .iter()
            .enumerate()
            .flat_map(|(c, totals)| {
                totals.iter().map(move |&t| {
                    RunRecord {
                        command: format!("cmd {c} 日本語 🚀"),
                        batch: c as u64 + 1,
                        exit_code: i32::from(t % 5 == 0),
                        ..zeros()
                    }
                    .with(Metric::USER, t - t / 3)
                    .with(Metric::SYSTEM, t / 3)
                    .with(Metric::WALL, t * 2)
                    .with(Metric::MAXRSS, t * 1024)
                    .with(Metric::VOLUNTARY_CSW, t % 97)
                    .with(Metric::INVOLUNTARY_CSW, t % 13)
                })
            })
            .collect();
        let dataset = Dataset::from_records(records);
        let mut settings = with_width(width);
        if relative {
            settings.ranking.effect = Threshold::Percent(2.0);
            settings.ranking.epsilon = Threshold::Percent(1.0);
        }
        let mut switches = EVERYTHING.to_vec();
        if mini {
            switches.push(Mini);
        }
        let text = render_dataset(&dataset, &switches, settings);
        prop_assert!(!has_non_finite(&text), "{}", text);
        check_alignment_at("proptest", &text, width);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Values far outside real timings (negative, up to 10^15 µs), widths
    /// outside the setting's range and names with control characters,
    /// combining marks and emoji still render without panicking.
    #[test]
    fn extreme_values_and_widths_still_render(
        commands in prop::collection::vec(
            prop::collection::vec(-1_000_000_000_000_000i64..1_000_000_000_000_000, 1..12),
            1..=3,
        ),
        width in prop_oneof![Just(0usize), 1usize..40, 40usize..2000, Just(usize::MAX)],
        // Without `i` and `n`, so that no name spells `inf` or `nan`,
        // which the check below would take for a number shown.
        name in "[a-hj-mo-z\n\t\u{301}\u{200D}🚀日]{0,60}",
    ) {
        let records: Vec<RunRecord> = commands
            .iter()
            .enumerate()
            .flat_map(|(c, totals)| {
                let name = name.clone();
                totals.iter().map(move |&t| {
                    RunRecord {
                        command: format!("cmd{c}"),
                        name: name.clone(),
                        batch: c as u64 + 1,
                        ..zeros()
                    }
                    .with(Metric::USER, t)
                    .with(Metric::WALL, t)
                    .with(Metric::MAXRSS, t.saturating_abs())
                    .with(Metric::VOLUNTARY_CSW, t.saturating_abs())
                })
            })
            .collect();
        let dataset = Dataset::from_records(records);
        let mut switches = EVERYTHING.to_vec();
        switches.push(Mini);
        let text = render_dataset(&dataset, &switches, with_width(width));
        prop_assert!(!has_non_finite(&text), "{}", text);
        for line in text.lines() {
            prop_assert!(!line.contains(['\n', '\t']));
        }
    }
}

/// Every report, at every width from 60 up, keeps every line within the
/// width (display columns, not bytes): tables narrow their columns, labels
/// are cut by display width, and long sentences are broken by the report
/// itself, never by the terminal.
#[test]
fn every_report_fits_the_width() {
    let all = [Summary, Dist, Tail, Graph, Boxplot, Explain];
    let files = C_TOOL
        .iter()
        .chain(FIXTURES.iter())
        .copied()
        .collect::<Vec<_>>();
    for file in &files {
        let d = dataset(file);
        for width in [60, 61, 67, 72, 79, 80, 100, 120] {
            for switches in [&all[..], &[Mini, Graph][..], &[Quiet, Ranking][..]] {
                let text = render_dataset(&d, switches, with_width(width));
                for line in text.lines() {
                    assert!(
                        text::width(line) <= width,
                        "{file} at {width} ({switches:?}): {} columns:\n{line}",
                        text::width(line)
                    );
                }
            }
        }
    }
}

#[test]
fn narrow_and_wide_snapshots() {
    let all = [Summary, Dist, Tail, Graph, Boxplot, Explain];
    for file in ["raw1.csv", "utf8.csv", "many.csv"] {
        for width in [60, 120] {
            snap!(
                format!("width_{width}__{file}"),
                render_dataset(&dataset(file), &all, with_width(width))
            );
        }
    }
}
