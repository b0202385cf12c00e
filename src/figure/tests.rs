//! Structural tests of the figures: on fixed data, the outline of each SVG
//! (elements, classes, every text: titles, tick and axis labels, legends)
//! is snapshotted; coordinates are not, so the snapshots change only when
//! what a figure shows changes. Every figure of every case must also parse
//! as XML and hold no NaN or infinity.

use super::*;
use crate::analysis::Analysis;
use crate::analysis::RankingSettings as Settings;
use crate::data::{Catalogue, Dataset, Metric, RunRecord};

/// A run of command `batch` taking `us` µs of CPU time, at position `seq`.
fn run(command: &str, batch: u64, seq: u64, us: i64) -> RunRecord {
    let zeros = Catalogue::new()
        .metrics()
        .fold(RunRecord::default(), |r, m| r.with(m, 0));
    RunRecord {
        command: command.into(),
        shell: "/bin/sh".into(),
        batch,
        sequence: Some(seq),
        start_unix_us: Some(1_795_430_096_000_000 + seq as i64 * 10_000),
        ..zeros
    }
    .with(Metric::USER, us * 3 / 4)
    .with(Metric::SYSTEM, us - us * 3 / 4)
    .with(Metric::WALL, us + 100)
}

/// Commands given as (name, times), run one after the other.
fn dataset(commands: &[(&str, &[i64])]) -> Dataset {
    dataset_with(commands, |_, _, _| {})
}

/// [`dataset`], each run changed by `edit(command, run, record)` first.
fn dataset_with(
    commands: &[(&str, &[i64])],
    edit: impl Fn(usize, usize, &mut RunRecord),
) -> Dataset {
    let mut seq = 0;
    let mut records = Vec::new();
    for (i, (name, times)) in commands.iter().enumerate() {
        for (k, &t) in times.iter().enumerate() {
            seq += 1;
            let mut r = run(name, i as u64 + 1, seq, t);
            edit(i, k, &mut r);
            records.push(r);
        }
    }
    Dataset::from_records(records)
}

const FAST: [i64; 10] = [1000, 1040, 1010, 1100, 990, 1020, 1060, 1005, 1200, 1030];
const SLOW: [i64; 10] = [3000, 3100, 2950, 3300, 3050, 3020, 2990, 3500, 3010, 3080];

/// The structure of an SVG: one line per element, indented by depth, with
/// its tag, class, and text if any; runs of identical childless siblings
/// are folded into one line with a count.
pub(crate) fn outline(svg: &str) -> String {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let mut lines: Vec<String> = Vec::new();
    fn walk(node: roxmltree::Node<'_, '_>, depth: usize, lines: &mut Vec<String>) {
        let mut previous: Option<(String, usize)> = None;
        let flush = |p: &mut Option<(String, usize)>, lines: &mut Vec<String>| {
            if let Some((l, k)) = p.take() {
                lines.push(if k > 1 { format!("{l} ×{k}") } else { l });
            }
        };
        for child in node.children().filter(|c| c.is_element()) {
            let mut line = format!("{}{}", "  ".repeat(depth), child.tag_name().name());
            if let Some(c) = child.attribute("class") {
                line.push('.');
                line.push_str(&c.replace(' ', "."));
            }
            if let Some(c) = child.attribute("data-command") {
                line.push_str(&format!("[{c}]"));
            }
            let text: String = child
                .children()
                .filter(|c| c.is_text())
                .filter_map(|c| c.text())
                .collect();
            if !text.trim().is_empty() {
                line.push_str(&format!(" {:?}", text.trim()));
            }
            let leaf = !child.children().any(|c| c.is_element());
            if leaf && text.trim().is_empty() {
                match &mut previous {
                    Some((l, k)) if *l == line => *k += 1,
                    _ => {
                        flush(&mut previous, lines);
                        previous = Some((line, 1));
                    }
                }
                continue;
            }
            flush(&mut previous, lines);
            lines.push(line);
            walk(child, depth + 1, lines);
        }
        flush(&mut previous, lines);
    }
    let root = doc.root_element();
    lines.push(format!(
        "svg#{} {}x{}",
        root.attribute("id").unwrap_or(""),
        root.attribute("width").unwrap_or(""),
        root.attribute("height").unwrap_or("")
    ));
    walk(root, 1, &mut lines);
    lines.join("\n")
}

/// Every figure of `dataset`, checked for well-formedness and finiteness.
fn figures(dataset: &Dataset) -> Vec<(Figure, String)> {
    let analysis = Analysis::new(dataset, Settings::default()).unwrap();
    let input = Input::new(&analysis);
    Figure::ALL
        .iter()
        .map(|&f| {
            let svg = f.render(&input);
            check(&svg);
            (f, svg)
        })
        .collect()
}

/// The invariants every figure keeps.
fn check(svg: &str) {
    roxmltree::Document::parse(svg).expect("well-formed");
    // Whole words: "inference" is no "inf".
    let words: Vec<&str> = svg.split(|c: char| !c.is_alphanumeric()).collect();
    for bad in ["NaN", "inf", "Infinity"] {
        assert!(!words.contains(&bad), "{bad} in\n{svg}");
    }
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let first = root.children().find(|c| c.is_element()).unwrap();
    assert_eq!(first.tag_name().name(), "title", "the title comes first");
    let classes: Vec<&str> = root
        .descendants()
        .filter_map(|n| n.attribute("class"))
        .collect();
    for needed in ["title", "label", "legend"] {
        assert!(
            classes.iter().any(|c| c.split(' ').any(|w| w == needed)),
            "no {needed} in\n{svg}"
        );
    }
    for n in root.descendants().filter(|n| n.is_element()) {
        for a in ["width", "height"] {
            if let Some(v) = n.attribute(a) {
                let v: f64 = v.parse().unwrap();
                assert!(v >= 0.0, "negative {a} in {n:?}");
            }
        }
    }
}

fn snapshot_all(name: &str, dataset: &Dataset) {
    for (f, svg) in figures(dataset) {
        insta::assert_snapshot!(format!("{name}_{}", f.name()), outline(&svg));
    }
}

#[test]
fn two_commands() {
    snapshot_all("two", &dataset(&[("fast", &FAST), ("slow", &SLOW)]));
}

#[test]
fn one_command() {
    snapshot_all("one", &dataset(&[("only", &FAST)]));
}

#[test]
fn identical_commands() {
    snapshot_all("identical", &dataset(&[("a", &FAST), ("b", &FAST)]));
}

#[test]
fn all_zero_times() {
    snapshot_all("zeros", &dataset(&[("a", &[0; 7]), ("b", &[0; 7])]));
}

#[test]
fn a_failed_and_a_timed_out_run() {
    let d = dataset_with(&[("fast", &FAST), ("slow", &SLOW)], |c, k, r| {
        match (c, k) {
            (0, 3) => r.exit_code = 1,
            (1, 5) => {
                r.timed_out = true;
                r.signal = Some(9);
                r.exit_code = 137;
            }
            _ => {}
        }
    });
    snapshot_all("failed", &d);
}

#[test]
fn zeros_on_a_log_axis_and_a_single_run() {
    // 0 to 100 ms spans far more than a decade: log axes, zeros at the floor.
    let figs = figures(&dataset(&[
        ("zeroish", &[0, 0, 50, 80, 120]),
        ("single", &[100_000]),
    ]));
    let dist = &figs[0].1;
    assert!(dist.contains("Logarithmic axis: values below its left end"));
    let prog = &figs[2].1;
    assert!(prog.contains("Logarithmic axis"));
    // The single-run command is not compared: no interval, but a row.
    let ranking = &figs[3].1;
    assert!(ranking.contains("not compared (n = 1)"));
}

#[test]
fn no_runs_at_all() {
    for (_, svg) in figures(&Dataset::default()) {
        check(&svg);
    }
}

#[test]
fn many_runs_draw_envelopes_of_bounded_size() {
    let times: Vec<i64> = (0..40_000).map(|i| 1000 + (i * 7919) % 500).collect();
    let d = dataset_with(&[("a", &times), ("b", &times[..20_000])], |c, k, r| {
        if c == 0 && k % 10 == 0 {
            r.exit_code = 1;
        }
    });
    for (f, svg) in figures(&d) {
        assert!(svg.len() < 400_000, "{} is {} bytes", f.name(), svg.len());
        if f == Figure::Progression {
            assert!(svg.contains("class=\"envelope\""));
            assert!(!svg.contains("class=\"run\""));
            assert!(svg.contains("class=\"failed\""), "failures stay marked");
        }
    }
}

#[test]
fn twelve_commands_reuse_colours_with_dashes() {
    let commands: Vec<(String, Vec<i64>)> = (0..12)
        .map(|i| (format!("c{i}"), FAST.iter().map(|t| t + i * 100).collect()))
        .collect();
    let borrowed: Vec<(&str, &[i64])> = commands
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_slice()))
        .collect();
    let figs = figures(&dataset(&borrowed));
    let ecdf = &figs[1].1;
    assert_eq!(ecdf.matches("class=\"ecdf\"").count(), 12);
    assert!(ecdf.contains("stroke-dasharray"));
    // Where points of every command mix (the runs) and in the ranking's
    // rows and legends, commands 9–12 are squares, told apart from 1–4
    // that share their colours.
    for (figure, svg) in &figs {
        if matches!(figure, Figure::Progression | Figure::Ranking) {
            let doc = roxmltree::Document::parse(svg).unwrap();
            let of = |command: &str, tag: &str| {
                doc.descendants().any(|n| {
                    n.attribute("data-command") == Some(command)
                        && n.descendants().any(|m| m.has_tag_name(tag))
                })
            };
            // (Command 1 is the best: a diamond in the ranking.)
            assert!(of("2", "circle") && !of("10", "circle"), "{figure:?}");
            assert!(of("10", "rect"), "{figure:?}: command 10 has no square");
        }
    }
}

/// In the ranking figure no band or zero line crosses a row's label: they
/// start below its strip.
#[test]
fn the_ranking_figure_keeps_its_labels_clear() {
    let figs = figures(&dataset(&[("a", &FAST), ("b", &SLOW)]));
    let (_, svg) = figs.iter().find(|(f, _)| *f == Figure::Ranking).unwrap();
    let doc = roxmltree::Document::parse(svg).unwrap();
    let labels: Vec<f64> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("row-label"))
        .map(|n| n.attribute("y").unwrap().parse().unwrap())
        .collect();
    assert_eq!(labels.len(), 2);
    for n in doc.descendants().filter(|n| {
        matches!(
            n.attribute("class"),
            Some("reference" | "effect-band" | "epsilon-band")
        )
    }) {
        let (y0, y1): (f64, f64) = match n.tag_name().name() {
            "line" => (
                n.attribute("y1").unwrap().parse().unwrap(),
                n.attribute("y2").unwrap().parse().unwrap(),
            ),
            _ => {
                let y: f64 = n.attribute("y").unwrap().parse().unwrap();
                (
                    y,
                    y + n.attribute("height").unwrap().parse::<f64>().unwrap(),
                )
            }
        };
        for &baseline in &labels {
            // The text spans about 11 px above its baseline.
            assert!(
                y1 <= baseline - 11.0 || y0 >= baseline + 2.0,
                "{:?} at {y0}..{y1} crosses the label at {baseline}",
                n.attribute("class")
            );
        }
    }
}

#[test]
fn hostile_labels_are_escaped() {
    let figs = figures(&dataset(&[("<script>\"&'", &FAST), ("b", &SLOW)]));
    for (_, svg) in figs {
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("&lt;script&gt;"));
    }
}

#[test]
fn standalone_svg_has_an_xml_declaration() {
    let d = dataset(&[("a", &FAST)]);
    let analysis = Analysis::new(&d, Settings::default()).unwrap();
    let mut out = Vec::new();
    write(Figure::Ranking, &analysis, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"));
    roxmltree::Document::parse(&text).unwrap();
}

#[test]
fn ranking_follows_the_reference_and_the_thresholds_scale() {
    use crate::analysis::Reference;
    use crate::stats::Threshold;
    let d = dataset(&[("fast", &FAST), ("slow", &SLOW)]);
    let fixed = Settings {
        reference: Some(Reference::Number(2)),
        ..Settings::default()
    };
    let analysis = Analysis::new(&d, fixed).unwrap();
    let svg = Figure::Ranking.render(&Input::new(&analysis));
    check(&svg);
    assert!(svg.contains("Ranking: difference in total CPU time from the reference"));
    assert!(svg.contains("2: slow — the reference"));
    assert!(svg.contains("1: fast — faster"), "{svg}");

    // Absolute thresholds: the shift Δ in % of the reference's median, and
    // the band is the absolute effect on that scale (500 µs of 1020 µs).
    let absolute = Settings {
        effect: Threshold::Absolute(500.0),
        epsilon: Threshold::Absolute(250.0),
        ..Settings::default()
    };
    let analysis = Analysis::new(&d, absolute).unwrap();
    let svg = Figure::Ranking.render(&Input::new(&analysis));
    check(&svg);
    assert!(svg.contains("Dot: difference of medians"));
    assert!(svg.contains("practical-effect band (± effect = 0.50 ms)"));
}

#[test]
fn axis_labels_name_the_unit_of_the_tick_numbers() {
    let d = dataset_with(&[("a", &FAST), ("b", &SLOW)], |c, i, r| {
        *r = r
            .clone()
            .with(Metric::VOLUNTARY_CSW, 20_000 + 1000 * c as i64 + i as i64)
            .with(Metric::MAXRSS, 3 << 20);
    });
    for (metric, label) in [
        (Metric::VOLUNTARY_CSW, "(thousands)"),
        (Metric::MAXRSS, "(MB)"),
        (Metric::TOTAL, "(ms)"),
    ] {
        let settings = Settings {
            metric,
            ..Settings::default()
        };
        let analysis = Analysis::new(&d, settings).unwrap();
        let input = Input::new(&analysis);
        assert!(
            input.value_label().ends_with(label),
            "{}",
            input.value_label()
        );
        for f in Figure::ALL {
            check(&f.render(&input));
        }
    }
}

/// Runs of two commands at the same level and close in time: the dots
/// are see-through, and as small as the runs are close, so that the run
/// dots of one command do not hide the other's.
#[test]
fn close_dots_of_several_commands_all_show() {
    let radii = |runs: usize| {
        let times: Vec<i64> = (0..runs as i64).map(|k| 1000 + k % 7).collect();
        let d = dataset(&[("a", &times), ("b", &times)]);
        let a = Analysis::new(&d, Settings::default()).unwrap();
        let svg = Figure::Progression.render(&Input::new(&a));
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let dots: Vec<(f64, String)> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("run"))
            .map(|n| {
                let r = n.attribute("r").map_or(0.0, |r| r.parse().unwrap());
                (r, n.attribute("fill-opacity").unwrap_or("1").to_owned())
            })
            .collect();
        assert_eq!(dots.len(), 2 * runs);
        assert!(dots.iter().all(|(_, o)| o == "0.6"), "{dots:?}");
        dots[0].0
    };
    assert_eq!(radii(20), 2.5);
    let many = radii(1000);
    assert!((1.25..2.0).contains(&many), "{many}");
}
