// The fuzz targets, shared by cargo-fuzz (fuzz/fuzz_targets/*.rs, nightly)
// and by the stable replay of the committed corpus inside `cargo test`
// (tests/fuzz_corpus.rs). Each takes arbitrary bytes and must neither panic
// nor hang; where there is an invariant, it is asserted.
//
// Included with `include!`, so it uses only the crate's public API.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

/// The raw CSV reader: whatever it accepts, once written by the writer,
/// reads back and writes again byte for byte the same; and every report and
/// export of what was read renders without panicking.
pub fn raw_csv(data: &[u8]) {
    use bestguess::data::{read_raw_csv, Dataset};
    let Ok(records) = read_raw_csv(data, "fuzz") else {
        return;
    };
    let once = write_all(&records);
    let back = read_raw_csv(&once[..], "rewritten").expect("what the writer wrote reads back");
    let twice = write_all(&back);
    assert!(once == twice, "a record changed on the way through the file");
    let dataset = Dataset::from_records(records);
    render_everything(&dataset);
}

/// Every input format `bestreport` reads (raw CSV, BestGuess and Hyperfine
/// JSON, cbdr CSV), told apart by content: any bytes give runs or one
/// error, and whatever is read renders in every report and export.
pub fn any_input(data: &[u8]) {
    use bestguess::data::{formats, Catalogue, DatasetBuilder};
    let mut builder = DatasetBuilder::new(Catalogue::new());
    if formats::read_into(data, "fuzz", &mut builder).is_err() {
        return;
    }
    render_everything(&builder.finish());
}

/// The records the writer accepts, as a raw CSV file.
fn write_all(records: &[bestguess::data::RunRecord]) -> Vec<u8> {
    use bestguess::data::metric::Catalogue;
    use bestguess::data::RawCsvWriter;
    let mut out = Vec::new();
    let mut w = RawCsvWriter::new(&mut out, &Catalogue::new()).expect("a Vec takes the header");
    for r in records {
        let _ = w.write_run(r);
    }
    drop(w);
    out
}

fn render_everything(dataset: &bestguess::data::Dataset) {
    use bestguess::analysis::{Analysis, RankingSettings};
    use bestguess::cli::Selection;
    if dataset.is_empty() {
        return;
    }
    let Ok(analysis) = Analysis::new(dataset, RankingSettings::default()) else {
        return;
    };
    let selection = Selection {
        summary: true,
        ranking: true,
        explain: true,
        dist: true,
        tail: true,
        graph: true,
        boxplot: true,
        ..Selection::default()
    };
    let mut sink = Vec::new();
    bestguess::report::render(&analysis, &selection, &mut sink).expect("a Vec takes the report");
    for format in bestguess::export::Format::ALL {
        sink.clear();
        format
            .write(&analysis, &mut sink)
            .expect("a Vec takes the export");
        if *format == bestguess::export::Format::Json {
            numbers_where_numbers_are_promised(&sink);
        }
    }
}

/// Hyperfine's per-run arrays (each on one line of the JSON export) hold
/// a number for every run they hold, never `null`: a run without
/// wall-clock time is left out of them, and `memory_usage_byte` is left
/// out unless every run in `times` has its memory.
fn numbers_where_numbers_are_promised(json: &[u8]) {
    let text = String::from_utf8_lossy(json);
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with("\"times\": [") || line.starts_with("\"memory_usage_byte\": [") {
            assert!(!line.contains("null"), "null where a number is promised: {line}");
        }
    }
}

/// The command splitter: whatever it splits, the words quoted again split
/// back into the same words.
pub fn split(data: &[u8]) {
    use bestguess::measure::split::split;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(words) = split(text) else { return };
    let quoted: Vec<String> = words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
        .collect();
    let again = split(&quoted.join(" ")).expect("quoted words split");
    assert_eq!(again, words);
}

/// The command-file parser: any bytes give commands or a one-line error.
pub fn command_file(data: &[u8]) {
    match bestguess::cli::cmdfile::parse_bytes("fuzz.txt", data) {
        Ok(_) => {}
        Err(e) => assert!(!e.0.contains('\n'), "a one-line error: {:?}", e.0),
    }
}

/// Option parsing and validation, for both programs: the bytes are the
/// arguments, separated by NUL (so any byte but NUL can be in one).
/// Command lines that read command files are only parsed, not built (the
/// fuzzer must not read arbitrary files).
pub fn options(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let running = first & 1 == 1;
    let args: Vec<OsString> = rest
        .split(|&b| b == 0)
        .map(|a| OsString::from_vec(a.to_vec()))
        .collect();
    let Ok(parsed) = bestguess::cli::args::parse(args, running) else {
        return;
    };
    if !parsed.files.is_empty() {
        return;
    }
    let _ = bestguess::cli::config::build(parsed, running);
}

/// The metrics file a command may write (`--metrics-file`): any bytes give
/// values and problems, never a panic.
pub fn metrics_file(data: &[u8]) {
    let (values, _problems) = bestguess::measure::custom::parse(data);
    for (_, v) in values {
        assert!(v.is_finite(), "only finite values are taken");
    }
}

/// A fuzz target.
pub type Target = fn(&[u8]);

/// Every target, by name (the corpus directories are named the same).
pub const TARGETS: &[(&str, Target)] = &[
    ("raw_csv", raw_csv),
    ("any_input", any_input),
    ("split", split),
    ("command_file", command_file),
    ("options", options),
    ("metrics_file", metrics_file),
];
