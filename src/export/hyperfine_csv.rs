//! The Hyperfine-style CSV (`--hyperfine-csv`), as C BestGuess wrote it.
//!
//! Hyperfine's CSV export is `command,mean,stddev,median,user,system,min,max`
//! in seconds. BestGuess does not believe in mean and standard deviation for
//! timing data, so C BestGuess put the mode and the interquartile range in
//! those two columns (and renamed them), kept the rest, and measured total
//! CPU time instead of wall time. This file keeps that contract:
//!
//! | column  | value (seconds, 6 decimals)                  |
//! |---------|----------------------------------------------|
//! | command | the command, or the shell if it is empty, and its source's tag (`true [a.csv]`) where the data come from several |
//! | mode    | half-sample mode of total CPU time            |
//! | iqr     | Q₃ − Q₁ of total CPU time                     |
//! | median  | median total CPU time                         |
//! | user    | median user time (Hyperfine: the mean)        |
//! | system  | median system time (Hyperfine: the mean)      |
//! | min     | minimum total CPU time                        |
//! | max     | maximum total CPU time                        |
//!
//! Numbers are printed as C's `%f` would print the value in seconds, but
//! computed exactly: the value is rounded to a whole microsecond (halves
//! away from zero) and printed as an integer number of seconds and six
//! digits, so no float-to-decimal artefact can appear. The command is
//! quoted (RFC 4180) when it holds a comma, quote or line break, which C
//! BestGuess did not do.
//!
//! The five columns of total CPU time hold the ranked metric instead when
//! it is another time in microseconds (`--metric wall`, or wall-clock time
//! for data without CPU times, such as Hyperfine 1.x's files, whose rows
//! would otherwise be empty); a ranked metric of another unit (bytes,
//! counts) leaves them total CPU time, the columns being seconds.

use std::io;

use crate::analysis::Analysis;
use crate::data::{Metric, Unit};

/// The header line's fields.
pub const HEADER: [&str; 8] = [
    "command", "mode", "iqr", "median", "user", "system", "min", "max",
];

/// Writes the header and one row per command, in dataset order.
pub fn write(analysis: &Analysis<'_>, out: &mut dyn io::Write) -> io::Result<()> {
    let mut csv = super::csv_writer(out);
    csv.write_record(HEADER)?;
    let ranked = analysis.settings.metric;
    let metric = if ranked.unit() == Unit::Microseconds {
        ranked
    } else {
        Metric::TOTAL
    };
    for (i, stats) in analysis.commands.iter().enumerate() {
        let runs = analysis.runs(i);
        let command = if runs.command.is_empty() {
            &runs.shell
        } else {
            &runs.command
        };
        // The same command from two files (or two experiments of one) is
        // told apart as every report and export tells it: by its tag.
        let command = runs
            .tagged(runs.with_parameters(command.into()))
            .into_owned();
        // A metric the data lacks leaves its cells empty.
        let total = stats.metric(metric);
        let q = total.map(|t| t.quantiles);
        let median = |m| stats.metric(m).map(|s| s.quantiles.median);
        let numbers = [
            total.map(|t| t.mode),
            q.map(|q| q.q3 - q.q1),
            q.map(|q| q.median),
            median(Metric::USER),
            median(Metric::SYSTEM),
            q.map(|q| q.min),
            q.map(|q| q.max),
        ];
        let mut row = vec![command];
        row.extend(numbers.map(|x| x.map(seconds).unwrap_or_default()));
        csv.write_record(&row)?;
    }
    csv.flush()
}

/// Microseconds as seconds with six decimals, like C's `printf("%f")`.
pub(crate) fn seconds(us: f64) -> String {
    // Finite by the stats module's guarantee; the cast saturates otherwise.
    let us = us.round() as i64;
    let sign = if us < 0 { "-" } else { "" };
    let abs = us.unsigned_abs();
    format!("{sign}{}.{:06}", abs / 1_000_000, abs % 1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_exact_to_the_microsecond() {
        assert_eq!(seconds(5032.0), "0.005032");
        assert_eq!(seconds(2_350_000.4), "2.350000");
        assert_eq!(seconds(4932.5), "0.004933");
        assert_eq!(seconds(0.0), "0.000000");
        assert_eq!(seconds(-0.2), "0.000000");
        assert_eq!(seconds(-1_500_000.0), "-1.500000");
        assert_eq!(seconds(123_456_789_012.0), "123456.789012");
    }
}
