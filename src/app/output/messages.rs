//! Notes, warnings and errors on standard error: wrapped on a terminal,
//! held back by `-Q` for the JSON export's `metadata.messages`.

use std::io::{self, Write};

/// `-Q`: notes and warnings are held ([`held`]) instead of printed.
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// What `-Q` kept off standard error, in order.
static HELD: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// With `-Q` (`quiet`), standard error gets errors only: every later
/// [`note`] (notes, warnings, the seed line) is held for the JSON export's
/// `metadata.messages` instead.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
}

/// Whether `-Q` holds notes and warnings back.
pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// The messages `-Q` held back so far, one per message, its wrapped lines
/// joined.
pub fn held() -> Vec<String> {
    HELD.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Writes an error line to standard error, whatever `-Q` says.
pub fn error(text: &str) {
    // On a terminal, broken at spaces at its width and continuing
    // indented, as the warnings are (a note can run past 60 columns);
    // into a file or a pipe, one line each, whole for grep.
    if !std::io::IsTerminal::is_terminal(&io::stderr()) {
        let mut e = io::stderr().lock();
        let _ = e.write_all(text.as_bytes()).and_then(|()| e.flush());
        return;
    }
    let width = crate::app::terminal::report_width();
    let mut wrapped = String::with_capacity(text.len() + 8);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let pieces = crate::report::text::continued(body, width);
        wrapped.push_str(&pieces.join("\n"));
        wrapped.push_str(end);
    }
    let mut e = io::stderr().lock();
    let _ = e.write_all(wrapped.as_bytes()).and_then(|()| e.flush());
}

/// Write a note (a reminder, the random seed, an interrupt, a warning) to
/// standard error, or hold it with `-Q` ([`set_quiet`]); a closed
/// standard error is not an error.
pub fn note(text: &str) {
    if quiet() {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        held.extend(messages(text));
        return;
    }
    error(text);
}

/// The messages of `text`: each starts on a line of its own, and a line
/// that starts with a blank continues the one before (the wrapped form
/// notes and warnings are printed in).
fn messages(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        match out.last_mut() {
            Some(last) if line.starts_with(' ') => {
                last.push(' ');
                last.push_str(line.trim_start());
            }
            _ if line.trim().is_empty() => {}
            _ => out.push(line.trim_end().to_owned()),
        }
    }
    out
}
