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
//!
//! The commands are scripted (`BESTGUESS_SCRIPTED`): what the display
//! shows — which redraws happen, the elapsed time, the ETA, the ticker
//! during a long run, an adaptive experiment's rounds and looks — follows
//! from the scripted durations alone, the same on a loaded machine as on
//! an idle one. The terminal is real.

mod support;

use support::pty::{frame_lines, scripted_under_pty, under_pty, Screen};
use support::{bestguess, scripted};

/// Two commands of 20 and 10 ms.
const TWO: &str = "sleep 0.02 => wall=20ms user=1ms\nsleep 0.01 => wall=10ms user=1ms";

/// Three commands whose medians cross as runs come in: the live table's
/// rows change order and length.
const THREE: &str = "sleep 0.02 => wall=10ms,60ms,12ms\n\
                     sleep 0.01 => wall=30ms,40ms\n\
                     sleep 0.03 => wall=20ms,50ms,70ms,15ms";

#[test]
fn progress_redraws_in_place_within_the_width_and_is_cleared() {
    for width in [40, 60, 80, 120] {
        // 300 runs over 4.5 s: a redraw every quarter second.
        let out = scripted_under_pty(
            width,
            "xterm",
            TWO,
            "-r 150 'sleep 0.02' -n 'a command with a rather long name to cut' 'sleep 0.01'",
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
    let out = scripted_under_pty(80, "dumb", TWO, "-r 100 'sleep 0.02'");
    assert!(!out.contains(&0x1b), "{}", String::from_utf8_lossy(&out));
    assert!(String::from_utf8_lossy(&out).contains("Command 1"));
}

/// With `--show-output` the commands write to the terminal: no progress
/// line for their output to be appended to.
#[test]
fn no_progress_beside_the_commands_output() {
    let out = under_pty(80, "xterm", "-r 30 --show-output 'echo hello-from-cmd'");
    let raw = String::from_utf8_lossy(&out);
    assert!(raw.contains("hello-from-cmd"), "{raw}");
    assert!(!raw.contains("runs ·"), "{raw}");
    assert!(raw.contains("Command 1"), "{raw}");
}

#[test]
fn no_progress_into_a_pipe() {
    let out = scripted(TWO)
        .args(["-r", "100", "sleep 0.02"])
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
    for width in [60, 100] {
        let out = scripted_under_pty(
            width,
            "xterm",
            THREE,
            "--live -r 200 'sleep 0.02' -n two 'sleep 0.01' 'sleep 0.03'",
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

/// `--live` in the default adaptive mode: the intervals are the stopping
/// rule's, and the note under the table says the experiment stops itself
/// at a look; no reminder that stopping when the numbers look good biases
/// them, which would contradict the default.
#[test]
fn live_with_runs_auto_follows_the_looks_without_a_contradicting_warning() {
    let out = scripted_under_pty(
        100,
        "xterm",
        "sleep 0.1 => wall=50ms,150ms\nsleep 0.1002 => wall=100ms",
        "--live -w 1 --metric wall --max-runs 14 'sleep 0.1' 'sleep 0.1002'",
    );
    let raw = String::from_utf8_lossy(&out);
    let frames: Vec<String> = raw.split("\x1b[J").flat_map(frame_lines).collect();
    assert!(
        frames.iter().any(|l| l.contains("vs reference")),
        "no live table:\n{raw}"
    );
    assert!(
        frames.iter().any(|l| l
            .contains("Intervals at the next look's level; the experiment stops itself at a look")),
        "{frames:#?}"
    );
    assert!(!raw.contains("biases the result"), "{raw}");
    assert!(!raw.contains("decide the runs in advance"), "{raw}");
}

#[test]
fn live_without_a_terminal_says_so_and_runs() {
    let out = bestguess()
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
    let out = bestguess()
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
/// screen never stays blank through them), and the first ETA is the runs'
/// pace, not the setup's.
#[test]
fn setups_and_warmups_are_announced() {
    let out = scripted_under_pty(
        100,
        "xterm",
        "sleep 9 => wall=9s\nsleep 0.3 => wall=300ms",
        "-r 3 -w 2 --setup 'sleep 9' 'sleep 0.3'",
    );
    let raw = String::from_utf8_lossy(&out);
    assert!(
        raw.contains("0/3 runs · setups and warmups first (not timed)"),
        "{raw}"
    );
    let bars: Vec<String> = (raw.split("\x1b[J").flat_map(frame_lines))
        .filter(|l| l.starts_with('['))
        .collect();
    // The setup (9 s) and the warmups (0.6 s) came first: the runs, 0.3 s
    // apart, end at 9.9, 10.2 and 10.5 s, each drawn.
    assert!(
        bars[0].contains("] 1/3 runs · 0:09 elapsed · 1/1 sleep 0.3"),
        "{bars:#?}"
    );
    // After the second run one is left at 0.3 s a run: ETA 0:00, where the
    // setup's pace would have said 0:09 or more.
    assert!(
        bars[1].contains("] 2/3 runs · 0:10 elapsed · ETA 0:00 · 1/1 sleep 0.3"),
        "{bars:#?}"
    );
    assert!(
        bars[2].contains("] 3/3 runs · 0:10 elapsed · ETA 0:00"),
        "{bars:#?}"
    );
    assert_eq!(bars.len(), 3, "{bars:#?}");
}

/// A long run moves the display: the clock ticks and the command being
/// run is named while no result arrives, and an adaptive experiment shows
/// each comparison's interval at its last look.
#[test]
fn a_long_run_ticks_and_looks_are_shown() {
    let out = scripted_under_pty(
        100,
        "xterm",
        "sleep 2.2 => wall=2.2s",
        "-r 2 -w 0 --metric wall 'sleep 2.2'",
    );
    let raw = String::from_utf8_lossy(&out);
    let bars: Vec<String> = (raw.split("\x1b[J").flat_map(frame_lines))
        .filter(|l| l.starts_with('['))
        .collect();
    // The first run ends at 2.2 s and is drawn; during the second the
    // ticker (every 0.25 s) redraws once the bar is a second old: at 3.25
    // and 4.25 s, the run named.
    let running: Vec<&String> = bars.iter().filter(|l| l.contains("(running)")).collect();
    assert_eq!(running.len(), 2, "{bars:#?}");
    assert!(
        running[0].contains("] 1/2 runs · 0:03 elapsed · 1/1 sleep 2.2 (running)"),
        "{running:#?}"
    );
    assert!(running[1].contains(" 0:04 elapsed · "), "{running:#?}");
    let out = scripted_under_pty(
        100,
        "xterm",
        "sleep 0.05 => wall=50ms,52ms,49ms\nsleep 0.0502 => wall=51ms,50ms,53ms,48ms",
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
    // Half the rounds say faster and half slower: no look decides, and
    // --max-runs ends the experiment.
    let out = scripted_under_pty(
        100,
        "xterm",
        "sleep 0.1 => wall=50ms,150ms\nsleep 0.1002 => wall=100ms",
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

/// Every redraw of the live table, at 60, 80 and 120 columns with 3 and
/// 10 commands whose rows change length and order as results come in:
/// after each redraw the block on screen is exactly what that redraw
/// wrote, with nothing of the previous one left at the end of a row
/// ("referenceuns": a shorter row over a longer one), and nothing is left
/// once the report is printed.
#[test]
fn live_redraws_leave_no_debris_at_any_width() {
    let three = "'sleep 0.02' -n two 'sleep 0.01' 'sleep 0.03'";
    let ten: String = (1..=10)
        .map(|i| format!("'sleep 0.00{}' -n {} ", i % 4 + 1, "x".repeat(i * 3)))
        .collect();
    // Four commands of the ten share a line each; their medians cross.
    let four = "sleep 0.001 => wall=10ms,40ms\nsleep 0.002 => wall=30ms,20ms,25ms\n\
                sleep 0.003 => wall=15ms,45ms,20ms\nsleep 0.004 => wall=35ms,5ms";
    for width in [60, 80, 120] {
        for (script, commands, runs) in [(THREE, three, 60), (four, ten.as_str(), 16)] {
            let args = format!("--live -r {runs} {commands}");
            let out = scripted_under_pty(width, "xterm", script, &args);
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
    let out = scripted_under_pty(
        60,
        "dumb",
        "sleep 0.01 => wall=10ms user=0.2ms system=0.3ms\ntrue => wall=1ms user=0.4ms system=0.5ms",
        "-R --metric cpu -r 5 'sleep 0.01' true",
    );
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
