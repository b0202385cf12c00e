//! Exports for other programs: one file per format, each a pure writer.
//!
//! Terminal reports are for people; exports are for programs and documents,
//! so each format is a contract with whoever reads it:
//!
//! * [`summary_csv`] (`--export-csv`): the C reference's 70-column summary,
//!   header byte-for-byte, so spreadsheets and scripts written for it keep
//!   working; text fields are quoted where needed, which the reference did
//!   not do.
//! * [`hyperfine_csv`] (`--hyperfine-csv`): the reference's Hyperfine-like
//!   CSV (mode and IQR where Hyperfine has mean and stddev), in seconds.
//! * [`json`] (`--export-json`): Hyperfine 1.x's `results` array, so
//!   Hyperfine's analysis scripts run on it unchanged, with everything
//!   BestGuess knows (every run, every summary, the ranking) added under
//!   `bestguess` keys. The schema is in `docs/JSON.md`.
//! * [`markdown`] (`--export-markdown`): a Hyperfine-style table of total
//!   CPU time with the ranking's verdicts below it.
//!
//! Every writer takes the finished [`Analysis`] and an output stream and
//! does nothing else: no statistics are computed here beyond unit
//! conversion and rounding, and nothing is read from the environment, so
//! `bestguess` and `bestreport` export identical bytes from the same data.
//! No writer ever emits NaN or infinity: a statistic that does not exist is
//! an empty CSV field, a JSON `null` or a word.

use std::io;

use crate::analysis::Analysis;

pub mod hyperfine_csv;
pub mod json;
pub mod markdown;
pub mod summary_csv;

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
}

impl Format {
    /// Writes `analysis` in this format to `out`.
    ///
    /// Each writer buffers internally and flushes before returning, so `out`
    /// may be an unbuffered file or standard output.
    pub fn write(self, analysis: &Analysis<'_>, out: &mut dyn io::Write) -> io::Result<()> {
        match self {
            Format::SummaryCsv => summary_csv::write(analysis, out),
            Format::HyperfineCsv => hyperfine_csv::write(analysis, out),
            Format::Json => json::write(analysis, out),
            Format::Markdown => markdown::write(analysis, out),
        }
    }
}

/// A CSV writer as both CSV exports use it: LF line ends, and a text field
/// quoted (RFC 4180, `"` doubled) only when it holds a comma, quote or line
/// break. Minimal quoting keeps ordinary rows byte-identical to the
/// reference's output, while a comma in a command no longer shifts the
/// columns (the reference never quoted).
fn csv_writer(out: &mut dyn io::Write) -> csv::Writer<&mut dyn io::Write> {
    csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Necessary)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Settings;
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
        let analysis = Analysis::new(&dataset, Settings::default()).unwrap();
        let render = |f: Format| {
            let mut v = Vec::new();
            f.write(&analysis, &mut v).unwrap();
            String::from_utf8(v).unwrap()
        };
        assert!(render(Format::SummaryCsv).starts_with("Command,Shell,Runs (ct)"));
        assert!(render(Format::HyperfineCsv).starts_with("command,mode,iqr"));
        assert!(render(Format::Json).starts_with("{\n  \"results\": ["));
        assert!(render(Format::Markdown).starts_with("| Command |"));
    }
}
