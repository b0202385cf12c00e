//! The terminal: how wide the reports are, and the progress display while
//! `bestguess` runs (when it is shown, how wide it is, and how often it is
//! redrawn; what it looks like is [`crate::report::progress`]).

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::analysis::LookResult;
use crate::data::RunRecord;
use crate::experiment::clock::{Clock, Ticker};
use crate::experiment::Plan;
use crate::measure::sys;
use crate::report::progress::{bar_line, block, look_lines, Display, Rounds, Status};
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
    help_width().clamp(WIDTH_RANGE.0, WIDTH_RANGE.1)
}

/// The width of `--help`: `COLUMNS` when set, else the width of the
/// terminal standard output is, else 80 (help into a file or a pager
/// keeps 80 columns). `cli::help` keeps it within its own range.
pub fn help_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .or_else(|| sys::terminal_columns(1))
        .unwrap_or(80)
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
/// no wake-ups while commands are measured. During a long run (no result
/// for a second) a ticker redraws the bar once a second with the clock and
/// the command being run, as Hyperfine's spinner moves. Its times are the
/// experiment's [`Clock`]'s.
pub struct Progress {
    total: u64,
    commands: usize,
    labels: Vec<String>,
    done: u64,
    clock: Clock,
    started: Instant,
    /// When the first timed run was recorded (the pace is measured from
    /// there).
    first: Option<Instant>,
    last: Option<Instant>,
    /// The block on screen, shared with the ticker.
    shared: Arc<Mutex<Shared>>,
    ticker: Ticker,
    /// `--live`: the results so far, under the bar.
    live: Option<Live>,
    /// An adaptive experiment's last look, under the bar.
    looked: Option<Vec<String>>,
}

/// An adaptive experiment's rounds, looks and budget as last told, and
/// when: the time against `--max-time` moves on from there.
#[derive(Clone, Copy)]
struct Told {
    rounds: Rounds,
    at: Instant,
}

impl Told {
    /// The rounds with the time spent against `--max-time` as of now.
    fn now(&self, clock: &Clock) -> Rounds {
        let mut r = self.rounds;
        if let Some((limit, spent)) = r.max_time {
            r.max_time = Some((limit, spent + clock.since(self.at)));
        }
        r
    }
}

/// What the ticker needs to redraw the bar.
struct Shared {
    display: Display,
    /// The lines last drawn (the bar first).
    lines: Vec<String>,
    drawn_at: Instant,
    done: u64,
    since_first: (u64, Duration),
    /// The command whose timed run is going (0-based).
    running: Option<usize>,
    /// An adaptive experiment's rounds, looks and budget.
    rounds: Option<Told>,
    finished: bool,
}

impl Progress {
    const EVERY: Duration = Duration::from_millis(250);
    /// A bar unchanged this long is redrawn by the ticker.
    const STILL: Duration = Duration::from_secs(1);

    pub fn new(plan: &Plan, live: Option<Live>, clock: &Clock) -> Progress {
        let labels: Vec<String> = plan
            .commands
            .iter()
            .map(|c| c.name.clone().unwrap_or_else(|| c.command.text.clone()))
            .collect();
        let total = if plan.adaptive {
            // Unknown in an adaptive experiment.
            0
        } else {
            plan.runs.saturating_mul(plan.commands.len() as u64)
        };
        let started = clock.now();
        let shared = Arc::new(Mutex::new(Shared {
            display: Display::new(),
            lines: Vec::new(),
            drawn_at: started,
            done: 0,
            since_first: (0, Duration::ZERO),
            running: None,
            rounds: None,
            finished: false,
        }));
        let ticker = {
            let (shared, labels, c) = (Arc::clone(&shared), labels.clone(), clock.clone());
            clock.every("progress", Self::EVERY, move || {
                tick(&shared, &labels, total, started, &c)
            })
        };
        Progress {
            total,
            commands: plan.commands.len(),
            labels,
            done: 0,
            clock: clock.clone(),
            started,
            first: None,
            last: None,
            shared,
            ticker,
            live,
            looked: None,
        }
    }

    /// Before the first run: where setups or warmups come first, a line
    /// that says so (else the screen stays blank through a 3 s `--setup`).
    pub fn start(&mut self, plan: &Plan) {
        let first = (plan.commands.iter()).any(|c| c.hooks.setup.is_some()) || plan.warmup > 0;
        if !first {
            return;
        }
        let Ok(mut g) = self.shared.lock() else {
            return;
        };
        let counts = match g.rounds.map(|t| t.rounds) {
            Some(r) => format!("0 rounds · look at {}", r.next_look),
            None => format!("0/{} runs", self.total),
        };
        let line = format!("{counts} · setups and warmups first (not timed)");
        let _ = g
            .display
            .redraw(&mut std::io::stderr().lock(), terminal_width(), &[line]);
    }

    /// An adaptive experiment's rounds, next look and budget (before the
    /// first run, and after each).
    pub fn rounds(&mut self, rounds: Rounds) {
        if let Ok(mut g) = self.shared.lock() {
            g.rounds = Some(Told {
                rounds,
                at: self.clock.now(),
            });
        }
    }

    /// The timed run of command `cmd` is starting.
    pub fn starting(&mut self, cmd: usize) {
        if let Ok(mut g) = self.shared.lock() {
            g.running = Some(cmd);
        }
    }

    pub fn update(&mut self, run: &RunRecord) {
        self.done += 1;
        let now = self.clock.now();
        let first = *self.first.get_or_insert(now);
        if let Some(live) = &mut self.live {
            live.record(run);
        }
        let since_first = (self.done - 1, now - first);
        let Ok(mut g) = self.shared.lock() else {
            return;
        };
        g.done = self.done;
        g.since_first = since_first;
        if self.last.is_some_and(|t| now - t < Self::EVERY) {
            return;
        }
        self.last = Some(now);
        let index = usize::try_from(run.batch).unwrap_or(0);
        let status = Status {
            done: self.done,
            total: self.total,
            elapsed: now - self.started,
            since_first,
            command: index
                .checked_sub(1)
                .and_then(|i| self.labels.get(i))
                .map(|label| (index, self.commands, label.as_str())),
            adaptive: g.rounds.map(|t| t.now(&self.clock)),
        };
        let live = self.live.as_mut().map(|l| l.table());
        let width = terminal_width();
        let height = sys::terminal_rows(2).unwrap_or(usize::MAX);
        let extra = self.looked.as_deref().unwrap_or_default();
        let lines = block(&status, width, height, extra, live);
        // A display that cannot be written is not worth stopping for.
        let _ = g
            .display
            .redraw(&mut std::io::stderr().lock(), width, &lines);
        g.lines = lines;
        g.drawn_at = self.clock.now();
    }

    /// An adaptive experiment's look after `rounds` rounds: shown under
    /// the bar until the next.
    pub fn look(&mut self, rounds: u64, found: &LookResult) {
        let looked = look_lines(rounds, found, &self.labels);
        // Shown at once, under the bar last drawn (the experiment may stop
        // here); the next update redraws the whole block.
        if let Ok(mut g) = self.shared.lock() {
            if let Some(bar) = g.lines.first().cloned() {
                let lines: Vec<String> =
                    std::iter::once(bar).chain(looked.iter().cloned()).collect();
                let _ = g
                    .display
                    .redraw(&mut std::io::stderr().lock(), terminal_width(), &lines);
                g.lines = lines;
                g.drawn_at = self.clock.now();
            }
        }
        self.looked = Some(looked);
    }

    /// Stops the ticker and erases the display (before the report is
    /// printed).
    pub fn clear(&mut self) {
        self.stop_ticker();
        if let Ok(mut g) = self.shared.lock() {
            let _ = g.display.clear(&mut std::io::stderr().lock());
        }
    }

    fn stop_ticker(&mut self) {
        if let Ok(mut g) = self.shared.lock() {
            g.finished = true;
        }
        self.ticker.stop();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop_ticker();
    }
}

/// The ticker, every quarter second: if the bar has not moved for a
/// second while a run is going, redraws it with the clock and the command
/// being run. False once the display is finished.
fn tick(
    shared: &Mutex<Shared>,
    labels: &[String],
    total: u64,
    started: Instant,
    clock: &Clock,
) -> bool {
    let Ok(mut g) = shared.lock() else {
        return false;
    };
    if g.finished {
        return false;
    }
    let Some(cmd) = g.running else { return true };
    if clock.since(g.drawn_at) < Progress::STILL || g.lines.is_empty() {
        return true;
    }
    let label = labels.get(cmd).map_or("", String::as_str);
    let status = Status {
        done: g.done,
        total,
        elapsed: clock.since(started),
        since_first: g.since_first,
        command: Some((cmd + 1, labels.len(), label)),
        adaptive: g.rounds.map(|t| t.now(clock)),
    };
    let width = terminal_width();
    g.lines[0] = format!("{} (running)", bar_line(&status, width.saturating_sub(10)));
    let lines = g.lines.clone();
    let _ = g
        .display
        .redraw(&mut std::io::stderr().lock(), width, &lines);
    g.drawn_at = clock.now();
    true
}
