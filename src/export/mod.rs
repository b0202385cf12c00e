//! Exports for other programs: one file per format, each a pure writer.
//!
//! Terminal reports are for people; exports are for programs and documents,
//! so each format is a contract with whoever reads it:
//!
//! * [`summary_csv`] (`--export-csv`): C BestGuess's 70-column summary,
//!   header byte-for-byte, so spreadsheets and scripts written for it keep
//!   working; text fields are quoted where needed, which C BestGuess did
//!   not do.
//! * [`hyperfine_csv`] (`--hyperfine-csv`): C BestGuess's Hyperfine-like
//!   CSV (mode and IQR where Hyperfine has mean and stddev), in seconds.
//! * [`json`] (`--export-json`): Hyperfine 1.x's `results` array, so
//!   Hyperfine's analysis scripts run on it unchanged, with everything
//!   BestGuess knows (every run, every summary, the ranking) added under
//!   `bestguess` keys. The schema is in `docs/JSON.md`. Which per-run
//!   layouts it carries is [`Options::json_runs`] (`--json-runs`, see
//!   [`json_layouts`]).
//! * [`markdown`] (`--export-markdown`), [`asciidoc`] (`--export-asciidoc`)
//!   and [`orgmode`] (`--export-orgmode`): a Hyperfine-style table of total
//!   CPU time with the ranking's verdicts below it. What they say is built
//!   once as a format-neutral [`document`]; each is a thin [`markup`] layer
//!   that only spells it.
//! * [`html`] (`--export-html`): a self-contained page with the figures of
//!   [`crate::figure`] inline, the summary, settings, metadata and the
//!   `-E` ranking. (`--export-svg DIR` writes the same figures as files.)
//!
//! Every writer takes the finished [`Analysis`] and an output stream and
//! does nothing else: no statistics are computed here beyond unit
//! conversion and rounding, and nothing is read from the environment, so
//! `bestguess` and `bestreport` export identical bytes from the same data.
//! No writer ever emits NaN or infinity: a statistic that does not exist is
//! an empty CSV field, a JSON `null` or a word.

use std::io;

use crate::analysis::Analysis;
pub use json_layouts::JsonRuns;
use metadata::Metadata;

pub mod asciidoc;
pub mod document;
pub mod html;
pub mod hyperfine_csv;
mod in_order;
pub mod json;
pub mod json_layouts;
mod json_numbers;
mod json_runs;
pub mod markdown;
pub mod markup;
pub mod metadata;
pub mod orgmode;
pub mod summary_csv;

/// How the exports are written, beyond which formats and where: the
/// export stage's own options (the command line only fills them in).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--json-runs`: the per-run layouts the JSON export writes.
    pub json_runs: JsonRuns,
}

/// An export format, named after the option that asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `--export-csv`: see [`summary_csv`].
    SummaryCsv,
    /// `--hyperfine-csv`: see [`hyperfine_csv`].
    HyperfineCsv,
    /// `--export-json`: see [`json`].
    Json,
    /// `--export-markdown`: see [`markdown`].
    Markdown,
    /// `--export-asciidoc`: see [`asciidoc`].
    AsciiDoc,
    /// `--export-orgmode`: see [`orgmode`].
    OrgMode,
    /// `--export-html`: see [`html`].
    Html,
}

impl Format {
    /// Every format, in the order `--help` lists their options. Each one
    /// becomes a command-line option (`cli::flags` builds it from
    /// [`Format::option`] and [`Format::help`]); adding a format here is all
    /// the command line needs.
    pub const ALL: &'static [Format] = &[
        Format::SummaryCsv,
        Format::HyperfineCsv,
        Format::Json,
        Format::Markdown,
        Format::AsciiDoc,
        Format::OrgMode,
        Format::Html,
    ];

    /// The long option that asks for this format, without `--`.
    pub fn option(self) -> &'static str {
        match self {
            Format::SummaryCsv => "export-csv",
            Format::HyperfineCsv => "hyperfine-csv",
            Format::Json => "export-json",
            Format::Markdown => "export-markdown",
            Format::AsciiDoc => "export-asciidoc",
            Format::OrgMode => "export-orgmode",
            Format::Html => "export-html",
        }
    }

    /// One line for `--help` and the man page.
    pub fn help(self) -> &'static str {
        match self {
            Format::SummaryCsv => "Write the summary statistics as CSV",
            Format::HyperfineCsv => "Write a Hyperfine-style summary CSV",
            Format::Json => {
                "Write results as JSON (Hyperfine-compatible, plus everything BestGuess knows)"
            }
            Format::Markdown => "Write a Markdown table of the results",
            Format::AsciiDoc => "Write an AsciiDoc table of the results",
            Format::OrgMode => "Write an Org-mode table of the results",
            Format::Html => "Write a self-contained HTML page with figures of the results",
        }
    }

    /// Writes `analysis` in this format to `out`.
    ///
    /// Each writer buffers internally and flushes before returning, so `out`
    /// may be an unbuffered file or standard output.
    /// Without metadata (the JSON's `metadata` then says nothing is
    /// known) and with the default options; see [`Format::write_with`].
    pub fn write(
        self,
        analysis: &Analysis<'_>,
        out: &mut (dyn io::Write + Send),
    ) -> io::Result<()> {
        self.write_with(analysis, &Metadata::default(), &Options::default(), out)
    }

    /// Writes `analysis` in this format to `out`, with what is known about
    /// how the data was made (only the JSON records it) and the export
    /// options (only the JSON has any).
    pub fn write_with(
        self,
        analysis: &Analysis<'_>,
        metadata: &Metadata,
        options: &Options,
        out: &mut (dyn io::Write + Send),
    ) -> io::Result<()> {
        match self {
            Format::SummaryCsv => summary_csv::write(analysis, out),
            Format::HyperfineCsv => hyperfine_csv::write(analysis, out),
            Format::Json => json::write(analysis, metadata, options.json_runs, out),
            Format::Markdown => markup::write(&markdown::Markdown, analysis, out),
            Format::AsciiDoc => markup::write(&asciidoc::AsciiDoc, analysis, out),
            Format::OrgMode => markup::write(&orgmode::OrgMode, analysis, out),
            Format::Html => html::write(analysis, out),
        }
    }
}

/// A CSV writer as both CSV exports use it: LF line ends, and a text field
/// quoted (RFC 4180, `"` doubled) only when it holds a comma, quote or line
/// break. Minimal quoting keeps ordinary rows byte-identical to C
/// BestGuess's output, while a comma in a command never shifts the
/// columns (C BestGuess never quotes).
fn csv_writer(out: &mut dyn io::Write) -> csv::Writer<&mut dyn io::Write> {
    csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Necessary)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::RankingSettings;
    use crate::data::{Dataset, Metric, RunRecord};

    #[test]
    fn format_dispatches_to_each_writer() {
        let records = (0..3).map(|i| {
            RunRecord {
                command: "x".into(),
                batch: 1,
                ..RunRecord::default()
            }
            .with(Metric::USER, 100 + i)
            .with(Metric::SYSTEM, 0)
            .with(Metric::WALL, 200 + i)
        });
        let dataset = Dataset::from_records(records);
        let analysis = Analysis::new(&dataset, RankingSettings::default()).unwrap();
        let render = |f: Format| {
            let mut v = Vec::new();
            f.write(&analysis, &mut v).unwrap();
            String::from_utf8(v).unwrap()
        };
        assert!(render(Format::SummaryCsv).starts_with("Command,Shell,Runs (ct)"));
        assert!(render(Format::HyperfineCsv).starts_with("command,mode,iqr"));
        assert!(render(Format::Json).starts_with("{\n  \"schema_version\": 2,"));
        assert!(render(Format::Markdown).starts_with("| Command |"));
        assert!(render(Format::Html).starts_with("<!DOCTYPE html>"));
    }
}
