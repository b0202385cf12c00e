//! The progress display on a real pseudo-terminal.
//!
//! `bestguess` runs under util-linux `script`, which gives it a pty for
//! standard output and standard error, and everything it wrote is replayed
//! through a minimal terminal emulator of the chosen width (wrapping at the
//! last column, carriage return, line feed, cursor up, erase below and
//! erase line). After the run, neither the screen nor the scrollback may
//! hold a progress line: every redraw replaced the previous one in place
//! and the last was erased before the report. Without a terminal (a pipe)
//! or with `TERM=dumb`, not one escape sequence may be written.

use std::process::Command;

use unicode_width::UnicodeWidthChar;

fn bestguess() -> String {
    env!("CARGO_BIN_EXE_bestguess").to_string()
}

fn have_script() -> bool {
    Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `args` under a pty of `width` columns; returns everything written.
fn under_pty(width: usize, term: &str, args: &str) -> Vec<u8> {
    let line = format!("{} {args}", bestguess());
    let out = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .env("COLUMNS", width.to_string())
        .env("TERM", term)
        .output()
        .expect("script runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A terminal `width` columns wide with unlimited scrollback: the rows
/// ever written, and the cursor.
struct Screen {
    width: usize,
    rows: Vec<Vec<char>>,
    row: usize,
    col: usize,
    /// A character was written in the last column: the next one wraps.
    pending_wrap: bool,
    /// Widest line any redraw tried to write (in columns, before wrapping).
    wrapped: usize,
}

impl Screen {
    fn new(width: usize) -> Screen {
        Screen {
            width,
            rows: vec![Vec::new()],
            row: 0,
            col: 0,
            pending_wrap: false,
            wrapped: 0,
        }
    }

    fn row_mut(&mut self) -> &mut Vec<char> {
        while self.rows.len() <= self.row {
            self.rows.push(Vec::new());
        }
        &mut self.rows[self.row]
    }

    fn put(&mut self, c: char) {
        let w = c.width().unwrap_or(0);
        if w == 0 {
            return;
        }
        if self.pending_wrap || self.col + w > self.width {
            self.wrapped += 1;
            self.row += 1;
            self.col = 0;
            self.pending_wrap = false;
        }
        let col = self.col;
        let row = self.row_mut();
        while row.len() < col + w {
            row.push(' ');
        }
        row[col] = c;
        for k in 1..w {
            row[col + k] = '\0';
        }
        self.col += w;
        if self.col == self.width {
            self.col -= 1;
            self.pending_wrap = true;
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => {
                    self.col = 0;
                    self.pending_wrap = false;
                }
                '\n' => {
                    self.row += 1;
                    self.pending_wrap = false;
                    self.row_mut();
                }
                '\x1b' => {
                    assert_eq!(chars.next(), Some('['), "only CSI sequences");
                    let mut arg = String::new();
                    let fin = loop {
                        let c = chars.next().expect("complete sequence");
                        if c.is_ascii_digit() {
                            arg.push(c);
                        } else {
                            break c;
                        }
                    };
                    let n: usize = arg.parse().unwrap_or(1);
                    self.pending_wrap = false;
                    match fin {
                        'A' => self.row = self.row.saturating_sub(n),
                        'J' => {
                            let (row, col) = (self.row, self.col);
                            self.row_mut().truncate(col);
                            self.rows.truncate(row + 1);
                        }
                        'K' => {
                            let col = self.col;
                            self.row_mut().truncate(col);
                        }
                        other => panic!("unexpected escape sequence ending in {other:?}"),
                    }
                }
                c => self.put(c),
            }
        }
    }

    fn lines(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|r| r.iter().filter(|&&c| c != '\0').collect())
            .collect()
    }
}

#[test]
fn progress_redraws_in_place_within_the_width_and_is_cleared() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    for width in [40, 60, 80, 120] {
        let out = under_pty(
            width,
            "xterm",
            "-r 150 'sleep 0.002' -n 'a command with a rather long name to cut' 'sleep 0.001'",
        );
        let raw = String::from_utf8_lossy(&out);
        assert!(raw.contains("runs ·"), "width {width}: no progress drawn");
        assert!(raw.contains("\x1b[J"), "width {width}: no erase");
        // Everything up to the report is the reminder and the progress
        // display (the report itself fits the width by its own tests).
        let report = raw.find("Command 1").expect("the report follows");
        // Lines before the first drawing (reminders) are not the display's.
        let first = raw[..raw.find('\x1b').unwrap()]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let mut screen = Screen::new(width);
        screen.feed(raw[first..report].as_bytes());
        assert_eq!(
            screen.wrapped, 0,
            "width {width}: some line reached the last column and wrapped:\n{raw}"
        );
        screen.feed(raw[report..].as_bytes());
        let lines = screen.lines();
        let stale: Vec<_> = lines.iter().filter(|l| l.contains("runs ·")).collect();
        assert!(
            stale.is_empty(),
            "width {width}: progress left on screen: {stale:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("Command 1")),
            "width {width}: the report follows"
        );
        // The last escape sequence before the report is the erase.
        let last_escape = raw[..report].rfind('\x1b').unwrap();
        assert_eq!(&raw[last_escape..last_escape + 3], "\x1b[J");
    }
}

#[test]
fn no_escape_sequences_for_a_dumb_terminal() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    let out = under_pty(80, "dumb", "-r 100 'sleep 0.002'");
    assert!(!out.contains(&0x1b), "{}", String::from_utf8_lossy(&out));
    assert!(String::from_utf8_lossy(&out).contains("Command 1"));
}

/// With `--show-output` the commands write to the terminal: no progress
/// line for their output to be appended to.
#[test]
fn no_progress_beside_the_commands_output() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    let out = under_pty(80, "xterm", "-r 30 --show-output 'echo hello-from-cmd'");
    let raw = String::from_utf8_lossy(&out);
    assert!(raw.contains("hello-from-cmd"), "{raw}");
    assert!(!raw.contains("runs ·"), "{raw}");
    assert!(raw.contains("Command 1"), "{raw}");
}

#[test]
fn no_progress_into_a_pipe() {
    let out = Command::new(bestguess())
        .args(["-r", "100", "sleep 0.002"])
        .env("TERM", "xterm")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!out.stderr.contains(&0x1b));
    assert!(!out.stdout.contains(&0x1b));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("runs ·"));
}

#[test]
fn live_results_redraw_in_place_and_are_cleared() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    for width in [60, 100] {
        let out = under_pty(
            width,
            "xterm",
            "--live -r 200 'sleep 0.002' -n two 'sleep 0.001' 'sleep 0.003'",
        );
        let raw = String::from_utf8_lossy(&out);
        assert!(raw.contains("vs reference"), "width {width}: no live table");
        assert!(
            raw.contains("biases the result"),
            "width {width}: no reminder"
        );
        let report = raw.find("Command 1").expect("the report follows");
        let first = raw[..raw.find('\x1b').unwrap()]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let mut screen = Screen::new(width);
        screen.feed(raw[first..report].as_bytes());
        assert_eq!(screen.wrapped, 0, "width {width}: a live line wrapped");
        screen.feed(raw[report..].as_bytes());
        let stale: Vec<_> = screen
            .lines()
            .into_iter()
            .filter(|l| l.contains("runs ·") || l.contains("vs reference") || l.contains("biases"))
            .collect();
        assert!(stale.is_empty(), "width {width}: left on screen: {stale:?}");
    }
}

#[test]
fn live_without_a_terminal_says_so_and_runs() {
    let out = Command::new(bestguess())
        .args(["--live", "-r", "5", "true"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "--live shows results on a terminal only, and is off: standard error is not a terminal"
        ),
        "{err}"
    );
    assert!(!err.contains('\x1b'));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Command 1"));
    // With -Q, that is the reason given, held with the other notes (-Q
    // prints nothing but errors).
    let out = Command::new(bestguess())
        .args(["-Q", "--live", "-r", "5", "--export-json", "-", "true"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        doc["metadata"]["messages"]
            .to_string()
            .contains("is off: -Q asks for no display"),
        "{doc}"
    );
}

/// A setup or warmups before the first run: a line says so at once (the
/// screen had stayed blank through them), and the first ETA is the runs'
/// pace, not the setup's.
#[test]
fn setups_and_warmups_are_announced() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    let out = under_pty(100, "xterm", "-r 3 -w 2 --setup 'sleep 0.5' 'sleep 0.05'");
    let raw = String::from_utf8_lossy(&out);
    assert!(
        raw.contains("0/3 runs · setups and warmups first (not timed)"),
        "{raw}"
    );
    // After the second run (0.05 s each), one run is left: about 0:00,
    // never the 0:01 or more that the setup's half second would give.
    assert!(
        !raw.contains("ETA 0:01") && !raw.contains("ETA 0:02"),
        "{raw}"
    );
}

/// A long run moves the display: the clock ticks and the command being
/// run is named while no result arrives, and an adaptive experiment shows
/// each comparison's interval at its last look.
#[test]
fn a_long_run_ticks_and_looks_are_shown() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    let out = under_pty(100, "xterm", "-r 2 -w 0 --metric wall 'sleep 2.2'");
    let raw = String::from_utf8_lossy(&out);
    assert!(raw.contains("elapsed · 1/1 sleep 2.2 (running)"), "{raw}");
    let out = under_pty(
        100,
        "xterm",
        "-w 0 --metric wall --max-runs 11 'sleep 0.05' 'sleep 0.0502'",
    );
    let raw = String::from_utf8_lossy(&out);
    assert!(raw.contains("Round 8: against"), "{raw}");
    assert!(raw.contains(" rounds · look at "), "{raw}");
}

/// An adaptive experiment's progress: a bar, the rounds done, the next
/// look, the elapsed time and the ETA to the look (or to the budget, when
/// that comes first); before the first run, the first look. The bar fills
/// towards the look: after a look the next one is further, and the bar
/// starts again from where the rounds done stand against it.
#[test]
fn adaptive_progress_has_a_bar_the_next_look_and_an_eta() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    let out = under_pty(
        100,
        "xterm",
        "-w 1 --metric wall --max-runs 14 'sleep 0.1' 'sleep 0.1002'",
    );
    let raw = String::from_utf8_lossy(&out);
    assert!(
        raw.contains("0 rounds · look at 8 · setups and warmups first (not timed)"),
        "{raw}"
    );
    let frames: Vec<String> = raw
        .split("\x1b[J")
        .flat_map(frame_lines)
        .filter(|l| l.starts_with('['))
        .collect();
    let bar = |l: &str| {
        let end = l.find(']').unwrap();
        l[1..end].chars().all(|c| " ▏▎▍▌▋▊▉█".contains(c)) && end > 10
    };
    // `[█████▌   ] 3 rounds · look at 8 · 0:00 elapsed · ETA 0:00 to the look`
    let to_look: Vec<&String> = frames
        .iter()
        .filter(|l| l.contains(" rounds · look at 8 · ") && l.contains(" elapsed · ETA 0:0"))
        .filter(|l| l.contains(" to the look"))
        .collect();
    assert!(!to_look.is_empty(), "{frames:#?}");
    assert!(to_look.iter().all(|l| bar(l)), "{to_look:#?}");
    // After the look at 8 the next is at 12; --max-runs 14 comes before
    // the one after it (18).
    assert!(
        frames.iter().any(|l| l.contains("look at 12 · ")),
        "{frames:#?}"
    );
    assert!(
        frames
            .iter()
            .any(|l| l.contains("look at 18 · ") && l.contains("to --max-runs 14")),
        "{frames:#?}"
    );
}

/// The text each redraw writes for its block, one string per line: the
/// frame's bytes without its rewind (`\r`, cursor up), erase sequences and
/// final "erase below".
fn frame_lines(frame: &str) -> Vec<String> {
    let mut text = String::new();
    let mut chars = frame.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {}
            '\x1b' => {
                // Skip the CSI sequence.
                chars.next();
                while chars.next().is_some_and(|c| c.is_ascii_digit()) {}
            }
            c => text.push(c),
        }
    }
    text.split('\n').map(str::to_owned).collect()
}

/// Every redraw of the live table, at 60, 80 and 120 columns with 3 and
/// 10 commands whose rows change length and order as results come in:
/// after each redraw the block on screen is exactly what that redraw
/// wrote, with nothing of the previous one left at the end of a row
/// ("referenceuns": a shorter row over a longer one), and nothing is left
/// once the report is printed.
#[test]
fn live_redraws_leave_no_debris_at_any_width() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    let three = "'sleep 0.002' -n two 'sleep 0.001' 'sleep 0.003'";
    let ten: String = (1..=10)
        .map(|i| format!("'sleep 0.00{}' -n {} ", i % 4 + 1, "x".repeat(i * 3)))
        .collect();
    for width in [60, 80, 120] {
        for (commands, runs) in [(three, 60), (ten.as_str(), 16)] {
            let out = under_pty(width, "xterm", &format!("--live -r {runs} {commands}"));
            let raw = String::from_utf8_lossy(&out);
            let report = raw.find("Command 1").expect("the report follows");
            let first = raw[..raw.find('\x1b').unwrap()]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let mut screen = Screen::new(width);
            let mut frames = 0;
            for frame in raw[first..report].split_inclusive("\x1b[J") {
                screen.feed(frame.as_bytes());
                if !frame.ends_with("\x1b[J") {
                    continue;
                }
                frames += 1;
                let want = frame_lines(frame);
                let lines = screen.lines();
                let block = &lines[screen.row + 1 - want.len()..=screen.row];
                for (shown, wrote) in block.iter().zip(&want) {
                    assert_eq!(
                        shown.trim_end(),
                        wrote.trim_end(),
                        "width {width}, {commands}: a redraw left debris"
                    );
                }
            }
            assert!(frames > 3, "width {width}: only {frames} redraws");
            assert_eq!(screen.wrapped, 0, "width {width}: a live line wrapped");
            screen.feed(raw[report..].as_bytes());
            let stale: Vec<_> = (screen.lines().into_iter())
                .filter(|l| l.contains("runs ·") || l.contains("vs reference"))
                .collect();
            assert!(stale.is_empty(), "width {width}: left on screen: {stale:?}");
        }
    }
}

/// On a terminal of 60 columns, the notes before the results and the
/// warnings after them are broken at spaces within the width.
#[test]
fn notes_and_warnings_keep_to_a_narrow_terminal() {
    if !have_script() {
        panic!("util-linux `script` is needed for this test (Debian: bsdutils)");
    }
    let out = under_pty(60, "dumb", "-R --metric cpu -r 5 'sleep 0.01' true");
    let text = String::from_utf8_lossy(&out);
    let joined = text.replace("\r\n  ", " ");
    assert!(joined.contains("Random order, seed"), "{text}");
    assert!(joined.contains("mostly wait"), "{text}");
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        assert!(
            line.chars().count() <= 60,
            "wider than 60 columns: {line:?}"
        );
    }
}
