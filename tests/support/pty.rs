//! `bestguess` on a real pseudo-terminal, and a minimal terminal to replay
//! what it wrote.
//!
//! util-linux `script` gives the program a pty for standard output and
//! standard error; [`Screen`] replays the bytes at a chosen width (wrapping
//! at the last column, carriage return, line feed, cursor up, erase below
//! and erase line), so that a test sees what a user's terminal would show
//! and what its scrollback would keep.

use std::process::Command;

use unicode_width::UnicodeWidthChar;

/// Whether util-linux `script` is installed.
pub fn have_script() -> bool {
    Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `bestguess ARGS` (`args` as a shell would split them) under a pty
/// of `width` columns; returns everything written.
pub fn under_pty(width: usize, term: &str, args: &str) -> Vec<u8> {
    pty(width, term, None, args)
}

/// [`under_pty`] on the scripted executor (`BESTGUESS_SCRIPTED=script`):
/// the runs' values and the time come from `script`.
pub fn scripted_under_pty(width: usize, term: &str, script: &str, args: &str) -> Vec<u8> {
    pty(width, term, Some(script), args)
}

/// Every terminal test needs `script`: without it, each fails saying so.
fn pty(width: usize, term: &str, script: Option<&str>, args: &str) -> Vec<u8> {
    assert!(
        have_script(),
        "util-linux `script` is needed for this test (Debian: bsdutils)"
    );
    let line = format!("{} {args}", super::program_path("bestguess"));
    let mut command = Command::new("script");
    command
        .args(["-qfec", &line, "/dev/null"])
        .env("COLUMNS", width.to_string())
        .env("TERM", term);
    if let Some(script) = script {
        command.env(super::SCRIPTED, script);
    }
    let out = command.output().expect("script runs");
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
pub struct Screen {
    pub width: usize,
    pub rows: Vec<Vec<char>>,
    pub row: usize,
    pub col: usize,
    /// A character was written in the last column: the next one wraps.
    pub pending_wrap: bool,
    /// Widest line any redraw tried to write (in columns, before wrapping).
    pub wrapped: usize,
}

impl Screen {
    pub fn new(width: usize) -> Screen {
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

    pub fn feed(&mut self, bytes: &[u8]) {
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

    pub fn lines(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|r| r.iter().filter(|&&c| c != '\0').collect())
            .collect()
    }
}

/// The text each redraw writes for its block, one string per line: the
/// frame's bytes without its rewind (`\r`, cursor up), erase sequences and
/// final "erase below".
pub fn frame_lines(frame: &str) -> Vec<String> {
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
