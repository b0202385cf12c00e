//! Output files, opened before anything runs so that a bad path fails fast.

use std::fs::File;
use std::io::{self, BufWriter, Write};

use super::AppError;

/// Where something is written: a file or standard output (`-`).
pub enum Destination {
    Stdout(io::Stdout),
    File(BufWriter<File>),
}

impl Destination {
    /// Create (truncate) `path`, or use standard output for `-`. `what` names
    /// the option for the error message.
    pub fn create(path: &str, what: &str) -> Result<Destination, AppError> {
        if path == "-" {
            return Ok(Destination::Stdout(io::stdout()));
        }
        File::create(path)
            .map(|f| Destination::File(BufWriter::new(f)))
            .map_err(|e| AppError::failure(format!("{what} {path}: cannot create the file: {e}")))
    }
}

impl Write for Destination {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Destination::Stdout(s) => s.write(buf),
            Destination::File(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Destination::Stdout(s) => s.flush(),
            Destination::File(f) => f.flush(),
        }
    }
}
