//! Terminal reports: pure renderers from an [`Analysis`] into a writer.
//!
//! Both executables print their reports through [`render`], which is why a
//! report printed at the end of a run is byte-identical to `bestreport`'s
//! from the saved raw data. Renderers compute no statistics (everything
//! comes from the [`Analysis`]), do no I/O but writing into the given
//! writer, and never panic: any analysis, including one command, one run,
//! all-zero times, hundreds of commands or names in any script, renders.
//!
//! What is printed, in C BestGuess's order (its §1.7):
//!
//! 1. For each command in dataset order, if any per-command block is on:
//!    `Command N: <label>` (its parameter values, and a note when some of
//!    its runs failed), then
//!    the summary table ([`Selection::summary`]) or the mini table
//!    ([`Selection::mini`], which wins when both are set), the run graph
//!    (`graph`), the distribution table (`dist`) and the tail table
//!    (`tail`), each followed by a blank line.
//! 2. The box plot of all commands (`boxplot`).
//! 3. The ranking (`ranking`), with the settings legend and per-command
//!    statistics when `explain` is set too.
//!
//! The selection's flags are obeyed as they are: `-Q` has already turned
//! the reports off in [`Selection::from_switches`] (and a later `-R`, `-G`
//! or `-B` turns one back on), so `quiet` itself is not consulted here.
//!
//! Widths: tables are C BestGuess's fixed 78 columns (80 with the
//! 2-column indent); the `width` setting applies to the box plot and the
//! run graph, clamped to 40..=1024 like the setting itself.
//!
//! One module per report, plus [`units`] (unit choice and number
//! formatting), [`text`] (display-width truncation and padding) and
//! [`frame`] (the rounded frame of the `-D`, `-T` and `-E` tables).

mod boxplot;
mod dist;
pub mod explain;
mod frame;
pub mod gate;
mod graph;
pub mod progress;
pub mod ranking;
pub mod spending;
mod summary;
mod tail;
pub mod text;
pub mod units;
pub mod warnings;

use std::io::{self, Write};

use crate::analysis::Analysis;
use crate::data::CommandRuns;

/// Narrowest and widest plot accepted (the `width` setting's range).
pub const WIDTH_RANGE: (usize, usize) = (40, 1024);

/// Which reports to print, and how wide the plots are: the reports' own
/// options (the command line's report switches and `-c width=` fill it in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub quiet: bool,
    pub summary: bool,
    pub mini: bool,
    pub ranking: bool,
    pub explain: bool,
    pub dist: bool,
    pub tail: bool,
    pub graph: bool,
    pub boxplot: bool,
    /// Width of the box plot and the run graph, within [`WIDTH_RANGE`].
    pub width: usize,
    /// Whether `-G` draws every command on one scale.
    pub graph_scale: GraphScale,
}

/// The scale of the `-G` bars.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GraphScale {
    /// One scale for all commands (the largest run of any command), so bars
    /// can be compared across commands.
    #[default]
    Common,
    /// Each command scaled to its own largest run (the C tool's graph),
    /// which shows a command's own variation in more detail.
    Each,
}

impl Default for Selection {
    /// The summary and the ranking, 80 columns wide.
    fn default() -> Self {
        Selection {
            quiet: false,
            summary: true,
            mini: false,
            ranking: true,
            explain: false,
            dist: false,
            tail: false,
            graph: false,
            boxplot: false,
            width: 80,
            graph_scale: GraphScale::Common,
        }
    }
}

/// Prints every report the selection asks for: the per-command blocks,
/// then the box plot and the ranking.
pub fn render(
    analysis: &Analysis<'_>,
    selection: &Selection,
    out: &mut dyn Write,
) -> io::Result<()> {
    for index in 0..analysis.commands.len() {
        render_command(analysis, index, selection, out)?;
    }
    render_overall(analysis, selection, out)
}

/// The width every report line fits in: the `width` setting, and never
/// less than 60 (the narrowest the tables are laid out for; a narrower
/// `-c width=` applies to the plots only).
fn line_width(selection: &Selection) -> usize {
    plot_width(selection).max(60)
}

/// Prints the per-command blocks of command `index` (dataset order):
/// header, summary or mini table, graph, distribution, tail. Nothing if
/// none is selected or there is no such command.
pub fn render_command(
    analysis: &Analysis<'_>,
    index: usize,
    selection: &Selection,
    out: &mut dyn Write,
) -> io::Result<()> {
    let (Some(stats), Some(runs)) = (
        analysis.commands.get(index),
        analysis.dataset.commands.get(index),
    ) else {
        return Ok(());
    };
    let s = selection;
    if !(s.summary || s.mini || s.graph || s.dist || s.tail) {
        return Ok(());
    }
    let mut fitted = Fitted::new(out, line_width(s));
    command_blocks(analysis, index, stats, runs, s, &mut fitted)?;
    fitted.finish()
}

fn command_blocks(
    analysis: &Analysis<'_>,
    index: usize,
    stats: &crate::analysis::CommandStats,
    runs: &CommandRuns,
    s: &Selection,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "Command {}: {}", index + 1, label(runs))?;
    if !runs.parameters.is_empty() {
        let values: Vec<String> = runs
            .parameters
            .iter()
            .map(|(name, value)| format!("{name} = {value}"))
            .collect();
        writeln!(out, "  Parameters: {}", text::clean(&values.join(", ")))?;
    }
    if stats.failed > 0 {
        writeln!(
            out,
            "  Note: {} of {} runs failed; they are included in every statistic.",
            stats.failed, stats.runs
        )?;
    }
    if s.mini || s.summary {
        // The run-queue delay where it matters: on a busy machine.
        let busy = analysis.spending.busy().is_some();
        let shown = summary::Shown {
            mini: s.mini,
            run_delay: busy,
        };
        summary::write(out, stats, &analysis.dataset.catalogue, shown, s.width)?;
        writeln!(out)?;
    }
    let metric = analysis.settings.metric;
    if s.graph {
        let scale_max = match s.graph_scale {
            GraphScale::Common => Some(
                analysis
                    .dataset
                    .commands
                    .iter()
                    .map(|c| graph::largest(c, metric))
                    .fold(0.0, f64::max),
            ),
            GraphScale::Each => None,
        };
        graph::write(out, runs, metric, scale_max, plot_width(s))?;
        writeln!(out)?;
    }
    let ranked = stats.metric(metric);
    if let (true, Some(summary)) = (s.dist, ranked) {
        dist::write(
            out,
            summary,
            metric,
            stats.failed,
            analysis.settings.alpha,
            s.width,
        )?;
        writeln!(out)?;
    }
    if let (true, Some(summary)) = (s.tail, ranked) {
        let best = analysis.diagnostics.get(index).map_or(
            Err(crate::stats::NotApplicable::TooFewValues { n: 0, min: 0 }),
            |d| d.best_case,
        );
        tail::write(out, summary, metric, &best, s.width)?;
        writeln!(out)?;
    }
    Ok(())
}

/// Prints the reports about all commands together: the box plot and the
/// ranking, as selected.
pub fn render_overall(
    analysis: &Analysis<'_>,
    selection: &Selection,
    out: &mut dyn Write,
) -> io::Result<()> {
    let width = line_width(selection);
    let mut fitted = Fitted::new(out, width);
    if selection.boxplot {
        boxplot::write(&mut fitted, analysis, plot_width(selection))?;
    }
    if selection.ranking {
        ranking::write(&mut fitted, analysis, selection.explain, width)?;
    }
    fitted.finish()
}

/// A writer that keeps every line within `width` display columns: a line
/// that fits passes unchanged; a longer one (a long note, a label, a
/// verdict sentence) is broken at spaces by [`text::wrap_hanging`], its
/// continuation indented to its second cell, so nothing is cut and the
/// terminal never wraps a line itself. The tables narrow their own columns
/// first (see each report); this is the guarantee for everything else.
struct Fitted<'a> {
    out: &'a mut dyn Write,
    width: usize,
    line: Vec<u8>,
}

impl<'a> Fitted<'a> {
    fn new(out: &'a mut dyn Write, width: usize) -> Fitted<'a> {
        Fitted {
            out,
            width,
            line: Vec::new(),
        }
    }

    /// Writes the buffered line (without its newline) and a newline.
    fn emit(&mut self) -> io::Result<()> {
        let line = String::from_utf8_lossy(&self.line);
        if text::width(&line) <= self.width {
            self.out.write_all(&self.line)?;
            self.out.write_all(b"\n")?;
        } else {
            for part in text::wrap_hanging(&line, self.width) {
                writeln!(self.out, "{}", text::trim_end(&part))?;
            }
        }
        self.line.clear();
        Ok(())
    }

    /// Writes a last line without its newline, if any.
    fn finish(mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            let rest = std::mem::take(&mut self.line);
            self.out.write_all(&rest)?;
        }
        self.out.flush()
    }
}

impl Write for Fitted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                self.emit()?;
            } else {
                self.line.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// How a command is named in every report: [`CommandRuns::label`] on one
/// line (control characters made spaces, trailing spaces dropped).
pub(crate) fn label(runs: &CommandRuns) -> String {
    one_line(&runs.label())
}

/// `s` as a report shows it on one line: control characters made spaces,
/// trailing spaces dropped.
pub(crate) fn one_line(s: &str) -> String {
    text::trim_end(&text::clean(s)).to_owned()
}

/// The `width` setting, within its valid range.
fn plot_width(selection: &Selection) -> usize {
    selection.width.clamp(WIDTH_RANGE.0, WIDTH_RANGE.1)
}
