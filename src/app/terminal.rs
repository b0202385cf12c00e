//! The terminal: how wide the reports are, and the progress display while
//! `bestguess` runs (when it is shown, how wide it is, and how often it is
//! redrawn; what it looks like is [`crate::report::progress`]).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use crate::analysis::LookResult;
use crate::data::RunRecord;
use crate::experiment::Plan;
use crate::measure::sys;
use crate::report::progress::{look_lines, Display, Status};
use crate::report::WIDTH_RANGE;

use super::live::Live;

/// The terminal's width for reports and the progress display: `COLUMNS`
/// when it holds a positive number (as shells and Hyperfine honour it),
/// else the width of the terminal on standard output or standard error,
/// else 80.
pub fn terminal_width() -> usize {
    if let Some(cols) = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
    {
        return cols;
    }
    sys::terminal_columns(1)
        .or_else(|| sys::terminal_columns(2))
        .unwrap_or(80)
}

/// The width of the reports when `-c width=` does not set it: `COLUMNS`
/// when set, else the width of the terminal standard output is, else 80 —
/// reports written into a file or a pipe keep the same 80 columns
/// wherever they are made. Always within [`WIDTH_RANGE`].
pub fn report_width() -> usize {
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .or_else(|| sys::terminal_columns(1))
        .unwrap_or(80);
    columns.clamp(WIDTH_RANGE.0, WIDTH_RANGE.1)
}

/// A progress display belongs on standard error only when that is a
/// terminal that understands cursor movement.
pub fn wanted() -> bool {
    let term_ok = match std::env::var_os("TERM") {
        Some(t) => t != "dumb" && !t.is_empty(),
        None => true,
    };
    term_ok && std::io::stderr().is_terminal()
}

/// The display on standard error. Results arrive a batch at a time (about
/// every 0.1 s) and it is redrawn at most four times a second, so it adds
/// no wake-ups while commands are measured.
pub struct Progress {
    total: u64,
    commands: usize,
    labels: Vec<String>,
    done: u64,
    started: Instant,
    /// When the first timed run was recorded (the pace is measured from
    /// there).
    first: Option<Instant>,
    last: Option<Instant>,
    display: Display,
    /// `--live`: the results so far, under the bar.
    live: Option<Live>,
    /// An adaptive experiment's last look, under the bar.
    looked: Option<Vec<String>>,
}

impl Progress {
    const EVERY: Duration = Duration::from_millis(250);

    pub fn new(plan: &Plan, live: Option<Live>) -> Progress {
        Progress {
            // Unknown in an adaptive experiment.
            total: if plan.adaptive {
                0
            } else {
                plan.runs.saturating_mul(plan.commands.len() as u64)
            },
            commands: plan.commands.len(),
            labels: plan
                .commands
                .iter()
                .map(|c| c.name.clone().unwrap_or_else(|| c.command.text.clone()))
                .collect(),
            done: 0,
            started: Instant::now(),
            first: None,
            last: None,
            display: Display::new(),
            live,
            looked: None,
        }
    }

    /// Before the first run: where setups or warmups come first, a line
    /// that says so (the screen had stayed blank through a 3 s `--setup`).
    pub fn start(&mut self, plan: &Plan) {
        let first = (plan.commands.iter()).any(|c| c.hooks.setup.is_some()) || plan.warmup > 0;
        if !first {
            return;
        }
        let line = format!(
            "0/{} runs · setups and warmups first (not timed)",
            self.total
        );
        let _ = self
            .display
            .redraw(&mut std::io::stderr().lock(), terminal_width(), &[line]);
    }

    pub fn update(&mut self, run: &RunRecord) {
        self.done += 1;
        let first = *self.first.get_or_insert_with(Instant::now);
        if let Some(live) = &mut self.live {
            live.record(run);
        }
        if self.last.is_some_and(|t| t.elapsed() < Self::EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        let index = usize::try_from(run.batch).unwrap_or(0);
        let status = Status {
            done: self.done,
            total: self.total,
            elapsed: self.started.elapsed(),
            since_first: (self.done - 1, first.elapsed()),
            command: index
                .checked_sub(1)
                .and_then(|i| self.labels.get(i))
                .map(|label| (index, self.commands, label.as_str())),
        };
        let live = self.live.as_mut().map(|l| (l.metric_label(), l.rows()));
        // A display that cannot be written is not worth stopping for.
        let _ = self.display.draw_with(
            &mut std::io::stderr().lock(),
            terminal_width(),
            sys::terminal_rows(2).unwrap_or(usize::MAX),
            &status,
            self.looked.as_deref().unwrap_or_default(),
            live,
        );
    }

    /// An adaptive experiment's look after `rounds` rounds: shown under
    /// the bar until the next.
    pub fn look(&mut self, rounds: u64, found: &LookResult) {
        self.looked = Some(look_lines(rounds, found, &self.labels));
    }

    /// Erases the display (before the report is printed).
    pub fn clear(&mut self) {
        let _ = self.display.clear(&mut std::io::stderr().lock());
    }
}
