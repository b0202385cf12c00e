//! The progress display: a bar with runs done, elapsed time and ETA (for
//! an adaptive experiment: rounds done, the next look, and the ETA to the
//! look or the budget that comes first), and with `--live` a table of the
//! results so far, redrawn in place on a terminal.
//!
//! This module only renders: the caller decides whether a display is shown
//! at all (never when standard error is not a terminal or `TERM=dumb`) and
//! how often it is redrawn. Rendering is plain text plus three ANSI
//! sequences that every terminal since the VT100 understands: carriage
//! return, "cursor up" (`ESC [ n A`), "erase to the end of the line"
//! (`ESC [ K`, after every line, since a line is drawn over a possibly
//! longer one) and "erase below" (`ESC [ J`).
//!
//! Why the display never leaves stale copies of itself in the scrollback:
//! every line is cut to `width − 1` display columns, so no line can reach
//! the last column and make the terminal wrap it (a wrapped line would take
//! two rows, and moving the cursor up by the number of lines drawn would
//! then land one row too low, leaving the top row behind on each redraw).
//! The cursor stays on the last line of the block, so the next redraw
//! knows exactly how far up the block starts.

use std::io::{self, Write};
use std::time::Duration;

use super::text::{self, Align};
use super::units;
use crate::analysis::LookResult;
use crate::stats::Verdict;

/// Where the experiment is.
#[derive(Clone, Debug, PartialEq)]
pub struct Status<'a> {
    /// Timed runs completed so far.
    pub done: u64,
    /// Timed runs in the whole experiment.
    pub total: u64,
    /// Since the first run started.
    pub elapsed: Duration,
    /// The pace: the timed runs completed after the first one, and the
    /// time they took (from the first's end). Setups and warmups before
    /// the first run are not in it: counted, they would make the first ETA
    /// several times too long (`--setup "sleep 3"`: 0:10 for 1.5 s).
    pub since_first: (u64, Duration),
    /// The command of the latest run: its number (1-based), the number of
    /// commands, and its label.
    pub command: Option<(usize, usize, &'a str)>,
    /// An adaptive experiment (`total` is then 0): its rounds, looks and
    /// budget.
    pub adaptive: Option<Rounds>,
}

/// Where an adaptive experiment is: the rounds done, its next look and its
/// budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rounds {
    /// Complete rounds so far.
    pub done: u64,
    /// Runs in a round (the number of commands).
    pub commands: u64,
    /// The round of the next look.
    pub next_look: u64,
    /// `--max-runs`, in rounds.
    pub max_rounds: u64,
    /// `--max-time`, and the time it is counted against (since the
    /// experiment began, warmups included); `None` while it does not
    /// apply (the default budget waits for the first look).
    pub max_time: Option<(Duration, Duration)>,
}

/// What an adaptive experiment reaches next: a look (where it may stop,
/// decided) or a budget (where it stops).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Next {
    Look,
    MaxRuns,
    MaxTime,
}

impl Rounds {
    /// What comes first, how far along the way to it the experiment is
    /// (0–1), and the time left to it at the pace since the first run
    /// (`None` before the second run).
    pub fn next(&self, status: &Status<'_>) -> (Next, f64, Option<Duration>) {
        let per_run = match status.since_first {
            (0, _) => None,
            (runs, took) => Some(took.as_secs_f64() / runs as f64),
        };
        let runs_to = |rounds: u64| rounds.saturating_mul(self.commands);
        let left =
            |rounds: u64| per_run.map(|p| p * runs_to(rounds).saturating_sub(status.done) as f64);
        let fraction = |rounds: u64| status.done as f64 / runs_to(rounds).max(1) as f64;
        let mut next = (Next::Look, fraction(self.next_look), left(self.next_look));
        if self.max_rounds < self.next_look {
            next = (
                Next::MaxRuns,
                fraction(self.max_rounds),
                left(self.max_rounds),
            );
        }
        if let Some((limit, spent)) = self.max_time {
            let to_time = limit.saturating_sub(spent).as_secs_f64();
            if next.2.is_some_and(|t| to_time < t) || next.2.is_none() && spent >= limit {
                let fraction = spent.as_secs_f64() / limit.as_secs_f64().max(1e-9);
                next = (Next::MaxTime, fraction, Some(to_time));
            }
        }
        let eta = next
            .2
            .filter(|t| t.is_finite())
            .map(|t| Duration::from_secs_f64(t.clamp(0.0, 1e9)));
        (next.0, next.1.clamp(0.0, 1.0), eta)
    }
}

/// One row of the live table (`--live`), already formatted by the caller
/// except for fitting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRow {
    pub label: String,
    pub runs: u64,
    /// The location of the metric of interest, with its unit.
    pub location: String,
    /// The relative difference from the reference with its interval, or
    /// what stands in for it ("reference", "too few runs").
    pub difference: String,
}

/// The note under the live table of a fixed count of runs (`-r N`),
/// whose intervals are at the fixed count's level.
pub const LIVE_REMINDER: &str =
    "Stopping because the numbers look good biases the result: decide the runs in advance.";

/// The note under the live table of an adaptive experiment, whose
/// intervals are at the level of the look the runs so far belong to.
pub const LIVE_LOOKS: &str =
    "Intervals at the next look's level; the experiment stops itself at a look where they decide.";

/// The live table: the ranked metric's name, one row per command, and
/// the note under them.
#[derive(Clone, Copy, Debug)]
pub struct LiveTable<'a> {
    pub metric: &'a str,
    pub rows: &'a [LiveRow],
    pub note: &'a str,
}

/// A block of lines on the terminal that is redrawn in place.
#[derive(Debug, Default)]
pub struct Display {
    /// Lines of the block last drawn (0: nothing on screen).
    drawn: usize,
}

impl Display {
    pub fn new() -> Display {
        Display::default()
    }

    /// Draws `status` (and the live table, if any) over the previous block,
    /// in at most `height − 1` lines (`height`: the terminal's rows, or
    /// `usize::MAX` when unknown). "Cursor up" stops at the top row, so a
    /// block taller than the screen could not be rewound and each redraw
    /// would leave a copy of its top in the scrollback.
    pub fn draw(
        &mut self,
        out: &mut impl Write,
        width: usize,
        height: usize,
        status: &Status<'_>,
        live: Option<LiveTable<'_>>,
    ) -> io::Result<()> {
        self.redraw(out, width, &block(status, width, height, &[], live))
    }

    /// Replaces the block on screen by `lines` (each cut to `width − 1`).
    pub fn redraw(
        &mut self,
        out: &mut impl Write,
        width: usize,
        lines: &[String],
    ) -> io::Result<()> {
        let mut buf = Vec::new();
        self.rewind(&mut buf);
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                buf.push(b'\n');
            }
            buf.extend_from_slice(text::truncate(line, width.saturating_sub(1)).as_bytes());
            // Each line over the previous block's: whatever a longer line
            // of it held past this one's end is erased (else a shorter row
            // over a longer one leaves debris, "referenceuns").
            buf.extend_from_slice(b"\x1b[K");
        }
        // Anything left of a taller previous block, and the rest of the
        // last line, goes.
        buf.extend_from_slice(b"\x1b[J");
        self.drawn = lines.len();
        out.write_all(&buf)?;
        out.flush()
    }

    /// Erases the block, leaving the cursor where it began.
    pub fn clear(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.drawn == 0 {
            return Ok(());
        }
        let mut buf = Vec::new();
        self.rewind(&mut buf);
        buf.extend_from_slice(b"\x1b[J");
        self.drawn = 0;
        out.write_all(&buf)?;
        out.flush()
    }

    /// Moves the cursor to the start of the block's first line.
    fn rewind(&self, buf: &mut Vec<u8>) {
        buf.push(b'\r');
        if self.drawn > 1 {
            buf.extend_from_slice(format!("\x1b[{}A", self.drawn - 1).as_bytes());
        }
    }
}

/// The lines of the display: the bar, `extra` lines under it (an adaptive
/// experiment's last look) and the live table, in at most `height − 1`
/// lines.
pub fn block(
    status: &Status<'_>,
    width: usize,
    height: usize,
    extra: &[String],
    live: Option<LiveTable<'_>>,
) -> Vec<String> {
    let mut lines = vec![bar_line(status, width)];
    lines.extend(extra.iter().take(height.saturating_sub(2)).cloned());
    if let Some(table) = live {
        let room = height.saturating_sub(lines.len() + 1);
        lines.extend(live_lines(&table, width, room));
    }
    lines
}

/// An adaptive experiment's last look, one line per comparison: its
/// interval at the look's level and whether it is decided.
pub fn look_lines(rounds: u64, found: &LookResult, labels: &[String]) -> Vec<String> {
    let label = |i: usize| text::clean(labels.get(i).map_or("", String::as_str)).into_owned();
    match found {
        LookResult::Nothing => vec![format!("Round {rounds}: not decided yet")],
        LookResult::Median { median, low, high } => vec![format!(
            "Round {rounds}: median {} [{}, {}] · decided",
            units::time(*median),
            units::time(*low),
            units::time(*high)
        )],
        LookResult::Ranking(r) => {
            let best = r.entries.first().map_or(0, |e| e.index);
            let mut lines = vec![format!("Round {rounds}: against {}", label(best))];
            for e in r.entries.iter().skip(1) {
                let interval = e.comparison.map_or_else(
                    || "not compared".to_owned(),
                    |c| {
                        units::change_interval(c.contrast.estimate, c.contrast.low, c.contrast.high)
                    },
                );
                let state = match e.verdict {
                    Verdict::Slower => "slower · decided",
                    Verdict::Faster => "faster · decided",
                    Verdict::Equivalent => "equivalent · decided",
                    _ => "open",
                };
                lines.push(format!("  {}: {interval} {state}", label(e.index)));
            }
            lines
        }
    }
}

/// `h:mm:ss`, or `m:ss` under an hour.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Estimated time left, from the pace since the first run (`None` before
/// the second).
pub fn eta(status: &Status<'_>) -> Option<Duration> {
    let (runs, took) = status.since_first;
    if runs == 0 || status.done > status.total {
        return None;
    }
    let left = (status.total - status.done) as f64;
    let secs = took.as_secs_f64() / runs as f64 * left;
    secs.is_finite()
        .then(|| Duration::from_secs_f64(secs.min(1e9)))
}

/// The first line: `[█████▌    ] 312/1000 runs · 0:04 elapsed · ETA 0:09 ·
/// 2/3 ls -l`; for an adaptive experiment `[███▌      ] 5 rounds · look at
/// 7 · 0:03 elapsed · ETA 0:01 to the look · 2/3 ls -l`, the bar and the
/// ETA for whatever comes first, the next look or a budget. The parts that
/// do not fit are dropped from the right, the bar shrunk first.
pub fn bar_line(status: &Status<'_>, width: usize) -> String {
    let usable = width.saturating_sub(1);
    let (counts, times, fraction) = match &status.adaptive {
        Some(rounds) => {
            let (next, fraction, eta) = rounds.next(status);
            let to = match next {
                Next::Look => "the look".to_owned(),
                Next::MaxRuns => format!("--max-runs {}", rounds.max_rounds),
                Next::MaxTime => "--max-time".to_owned(),
            };
            let counts = format!(
                "{} round{} · look at {}",
                rounds.done,
                if rounds.done == 1 { "" } else { "s" },
                rounds.next_look
            );
            let times = match eta {
                Some(left) => format!(
                    "{} elapsed · ETA {} to {to}",
                    clock(status.elapsed),
                    clock(left)
                ),
                None => format!("{} elapsed", clock(status.elapsed)),
            };
            (counts, times, fraction)
        }
        None => {
            let counts = format!("{}/{} runs", status.done, status.total);
            let times = match eta(status) {
                Some(left) => format!("{} elapsed · ETA {}", clock(status.elapsed), clock(left)),
                None => format!("{} elapsed", clock(status.elapsed)),
            };
            let fraction = if status.total == 0 {
                1.0
            } else {
                (status.done as f64 / status.total as f64).clamp(0.0, 1.0)
            };
            (counts, times, fraction)
        }
    };
    let command = status
        .command
        .map(|(i, n, label)| format!("{i}/{n} {}", text::clean(label)));
    // The bar takes what the counts, the times and (up to 20 columns of)
    // the command leave, up to 30 columns; below 10 it gives the command's
    // room back, and is left out below 10 still.
    let fixed = text::width(&counts) + 3 + text::width(&times);
    let shown = command
        .as_deref()
        .map_or(0, |c| text::width(c).clamp(8, 20) + 3);
    let bar_columns = match usable.saturating_sub(fixed + 3 + shown).min(30) {
        c if c >= 10 => c,
        _ => usable.saturating_sub(fixed + 3).min(30),
    };
    let mut line = String::new();
    if bar_columns >= 10 {
        line.push('[');
        line.push_str(&bar(fraction, bar_columns));
        line.push_str("] ");
    }
    line.push_str(&counts);
    line.push_str(" · ");
    line.push_str(&times);
    if let Some(command) = command {
        let room = usable.saturating_sub(text::width(&line) + 3);
        if room >= 8 {
            line.push_str(" · ");
            line.push_str(&text::truncate(&command, room));
        }
    }
    text::truncate(&line, usable).into_owned()
}

/// A bar of `columns` columns filled in eighths to `fraction` (0–1).
fn bar(fraction: f64, columns: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let eighths = (fraction.clamp(0.0, 1.0) * columns as f64 * 8.0).round() as usize;
    let full = (eighths / 8).min(columns);
    let mut s = "█".repeat(full);
    if full < columns {
        s.push(PARTS[eighths % 8]);
        s.push_str(&" ".repeat(columns - full - 1));
    }
    s
}

/// The live table under the bar: a heading, one row per command, and the
/// reminder, in at most `room` lines. Columns narrow with the width;
/// labels are cut by display width. When the rows do not fit, the first
/// ones are shown and a line says how many more the final report has; with
/// fewer than four lines, one line says the table does not fit.
pub fn live_lines(table: &LiveTable<'_>, width: usize, room: usize) -> Vec<String> {
    let (metric, rows) = (table.metric, table.rows);
    let usable = width.saturating_sub(1);
    let fit = |l: String| text::truncate(text::trim_end(&l), usable).into_owned();
    if room == 0 {
        return Vec::new();
    }
    if rows.len() + 2 > room && room < 4 {
        return vec![fit(format!(
            "  {} commands: too few terminal rows for the live table",
            rows.len()
        ))];
    }
    let (rows, hidden) = if rows.len() + 2 > room {
        rows.split_at(room - 3)
    } else {
        (rows, &[][..])
    };
    let runs_w = rows
        .iter()
        .map(|r| r.runs.to_string().len())
        .max()
        .unwrap_or(1)
        .max(4);
    let loc_w = rows
        .iter()
        .map(|r| text::width(&r.location))
        .max()
        .unwrap_or(0)
        .max(text::width(metric).min(14));
    let diff_w = rows
        .iter()
        .map(|r| text::width(&r.difference))
        .max()
        .unwrap_or(0)
        .max(10);
    let label_w = usable
        .saturating_sub(2 + 2 + runs_w + 2 + loc_w + 2 + diff_w)
        .clamp(4, 40);
    let row = |label: &str, runs: &str, loc: &str, diff: &str| {
        format!(
            "  {}  {}  {}  {}",
            text::fit(label, label_w, Align::Left),
            text::fit(runs, runs_w, Align::Right),
            text::fit(loc, loc_w, Align::Right),
            text::fit(diff, diff_w, Align::Left),
        )
    };
    let mut lines = vec![row("Command", "Runs", metric, "vs reference")];
    for r in rows {
        lines.push(row(
            &r.label,
            &r.runs.to_string(),
            &r.location,
            &r.difference,
        ));
    }
    if !hidden.is_empty() {
        lines.push(format!(
            "  … and {} more (too few terminal rows; the report lists every command)",
            hidden.len()
        ));
    }
    lines.push(format!("  {}", table.note));
    lines.into_iter().map(fit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The live table of a fixed count of runs.
    fn fixed(rows: &[LiveRow]) -> LiveTable<'_> {
        LiveTable {
            metric: "Total CPU time",
            rows,
            note: LIVE_REMINDER,
        }
    }

    fn status(done: u64, total: u64, secs: u64) -> Status<'static> {
        Status {
            done,
            total,
            elapsed: Duration::from_secs(secs),
            since_first: (
                done.saturating_sub(1),
                Duration::from_secs(secs)
                    .mul_f64(done.saturating_sub(1) as f64 / done.max(1) as f64),
            ),
            command: Some((2, 3, "ls -l /usr/lib")),
            adaptive: None,
        }
    }

    #[test]
    fn the_eta_is_the_pace_after_the_first_run() {
        // A setup of 3 s, then runs of 0.5 s: after the first, 0:03
        // elapsed; after the second, 1.5 s left for two more runs.
        let mut s = status(1, 4, 3);
        s.since_first = (0, Duration::ZERO);
        assert_eq!(eta(&s), None, "one run gives no pace");
        s.done = 2;
        s.since_first = (1, Duration::from_millis(500));
        assert_eq!(eta(&s), Some(Duration::from_secs(1)));
    }

    #[test]
    fn the_bar_line_has_counts_elapsed_and_eta() {
        let line = bar_line(&status(250, 1000, 5), 100);
        assert!(line.starts_with('['), "{line}");
        assert!(line.contains("250/1000 runs"), "{line}");
        assert!(line.contains("0:05 elapsed"), "{line}");
        assert!(line.contains("ETA 0:15"), "{line}");
        assert!(line.ends_with("2/3 ls -l /usr/lib"), "{line}");
    }

    fn adaptive(done_rounds: u64, max_time: Option<(u64, u64)>) -> Status<'static> {
        // Two commands, 0.1 s a run: 0.2 s a round.
        let done = done_rounds * 2;
        Status {
            done,
            total: 0,
            elapsed: Duration::from_millis(200 * done_rounds),
            since_first: (done - 1, Duration::from_millis(100 * (done - 1))),
            command: Some((1, 2, "ls")),
            adaptive: Some(Rounds {
                done: done_rounds,
                commands: 2,
                next_look: 11,
                max_rounds: 1000,
                max_time: max_time.map(|(l, s)| (Duration::from_secs(l), Duration::from_secs(s))),
            }),
        }
    }

    #[test]
    fn an_adaptive_bar_runs_to_the_next_look_or_the_budget() {
        // 8 of 11 rounds: 6 runs of 0.1 s to the look.
        let s = adaptive(8, None);
        let (next, fraction, eta) = s.adaptive.unwrap().next(&s);
        assert_eq!(next, Next::Look);
        assert!((fraction - 8.0 / 11.0).abs() < 1e-9, "{fraction}");
        assert_eq!(eta, Some(Duration::from_millis(600)));
        let line = bar_line(&s, 100);
        assert!(line.starts_with('['), "{line}");
        assert!(
            line.contains("] 8 rounds · look at 11 · 0:01 elapsed · ETA 0:00 to the look · 1/2 ls"),
            "{line}"
        );
        // The budget ends first: 0 s of 10 left.
        let s = adaptive(8, Some((10, 10)));
        let (next, fraction, eta) = s.adaptive.unwrap().next(&s);
        assert_eq!(
            (next, fraction, eta),
            (Next::MaxTime, 1.0, Some(Duration::ZERO))
        );
        assert!(bar_line(&s, 100).contains("ETA 0:00 to --max-time"));
        // Plenty of budget: the look comes first.
        let s = adaptive(8, Some((10, 1)));
        assert_eq!(s.adaptive.unwrap().next(&s).0, Next::Look);
        // --max-runs before the look.
        let mut s = adaptive(8, None);
        if let Some(r) = &mut s.adaptive {
            r.max_rounds = 9;
        }
        let (next, fraction, eta) = s.adaptive.unwrap().next(&s);
        assert_eq!(next, Next::MaxRuns);
        assert!((fraction - 8.0 / 9.0).abs() < 1e-9, "{fraction}");
        assert_eq!(eta, Some(Duration::from_millis(200)));
        assert!(bar_line(&s, 100).contains("to --max-runs 9"));
    }

    #[test]
    fn no_eta_before_the_first_run() {
        let line = bar_line(&status(0, 10, 0), 80);
        assert!(!line.contains("ETA"), "{line}");
        assert_eq!(eta(&status(0, 10, 3)), None);
    }

    #[test]
    fn every_line_stays_below_the_width() {
        let long = "ü".repeat(300);
        let rows = vec![LiveRow {
            label: long.clone(),
            runs: 123_456,
            location: "3.69 ms".into(),
            difference: "+45.2 % [+40.1 %, +50.3 %]".into(),
        }];
        for width in [1, 2, 10, 20, 40, 60, 80, 120, 300] {
            let mut s = status(7, 1_000_000, 4000);
            s.command = Some((1, 1, &long));
            let line = bar_line(&s, width);
            assert!(text::width(&line) < width.max(1), "{width}: {line}");
            let mut a = adaptive(500, Some((10, 3)));
            a.command = s.command;
            let line = bar_line(&a, width);
            assert!(text::width(&line) < width.max(1), "{width}: {line}");
            for l in live_lines(&fixed(&rows), width, usize::MAX) {
                assert!(text::width(&l) < width.max(1), "{width}: {l}");
            }
        }
    }

    #[test]
    fn a_wide_terminal_shows_every_row_whole() {
        let rows = vec![LiveRow {
            label: "sleep 0.003".into(),
            runs: 256,
            location: "1.64 ms".into(),
            difference: "+16.2 % [+13.5 %, +18.9 %]".into(),
        }];
        let lines = live_lines(&fixed(&rows), 90, usize::MAX);
        assert!(
            lines[1].ends_with("+16.2 % [+13.5 %, +18.9 %]"),
            "{lines:?}"
        );
        assert!(
            lines.iter().all(|l| !l.contains(text::ELLIPSIS)),
            "{lines:?}"
        );
        assert!(lines.last().unwrap().contains("biases the result"));
    }

    #[test]
    fn the_block_never_outgrows_the_terminal() {
        let rows: Vec<LiveRow> = (1..=30)
            .map(|i| LiveRow {
                label: format!("command {i}"),
                runs: 10,
                location: "1.00 ms".into(),
                difference: "reference".into(),
            })
            .collect();
        let drawn = |height: usize| {
            let mut d = Display::new();
            let mut out = Vec::new();
            let live = Some(fixed(&rows));
            d.draw(&mut out, 80, height, &status(5, 300, 1), live)
                .unwrap();
            let text = String::from_utf8(out).unwrap();
            text.trim_end_matches("\x1b[J")
                .lines()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        // Enough rows: the bar, the heading, 30 commands, the reminder.
        let all = drawn(40);
        assert_eq!(all.len(), 33, "{all:?}");
        assert!(all[31].contains("command 30"), "{all:?}");
        // 24 rows: 23 lines, the first 19 commands and a line for the rest.
        let some = drawn(24);
        assert_eq!(some.len(), 23, "{some:?}");
        assert!(some[20].contains("command 19"), "{some:?}");
        assert!(some[21].contains("… and 11 more"), "{some:?}");
        assert!(some[22].contains("biases the result"), "{some:?}");
        // Too few for a table: one line says so; one row: the bar only.
        let few = drawn(4);
        assert_eq!(few.len(), 2, "{few:?}");
        assert!(
            few[1].contains("30 commands: too few terminal rows"),
            "{few:?}"
        );
        assert_eq!(drawn(2).len(), 1);
        assert_eq!(drawn(1).len(), 1);
        // Unknown height: everything.
        assert_eq!(drawn(usize::MAX).len(), 33);
    }

    #[test]
    fn the_bar_fills_in_eighths() {
        assert_eq!(bar(0.0, 4), "    ");
        assert_eq!(bar(1.0, 4), "████");
        assert_eq!(bar(0.5, 4), "██  ");
        assert_eq!(bar(1.0 / 32.0, 4), "▏   ");
        assert_eq!(text::width(&bar(3.0 / 7.0, 13)), 13);
    }

    #[test]
    fn clocks() {
        assert_eq!(clock(Duration::from_secs(0)), "0:00");
        assert_eq!(clock(Duration::from_secs(75)), "1:15");
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
    }

    #[test]
    fn redraws_move_up_over_the_whole_previous_block() {
        let mut d = Display::new();
        let mut out = Vec::new();
        let three = vec!["a".to_string(), "b".into(), "c".into()];
        d.redraw(&mut out, 80, &three).unwrap();
        assert_eq!(out, b"\ra\x1b[K\nb\x1b[K\nc\x1b[K\x1b[J");
        out.clear();
        d.redraw(&mut out, 80, &["x".to_string()]).unwrap();
        assert_eq!(out, b"\r\x1b[2Ax\x1b[K\x1b[J");
        out.clear();
        d.clear(&mut out).unwrap();
        assert_eq!(out, b"\r\x1b[J");
        out.clear();
        d.clear(&mut out).unwrap();
        assert!(out.is_empty(), "nothing drawn, nothing to clear");
    }
}
