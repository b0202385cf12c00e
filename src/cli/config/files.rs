//! Command files (`-f FILE`) read, with a bound on their size; their
//! lines are parsed by [`cmdfile`].

use super::super::lowargs::CommandArg;
use super::super::{cmdfile, UsageError};
use super::ConfigError;

/// The largest command file read: ten thousand commands take well under
/// 1 MiB, and without a bound `-f /dev/zero` would be read forever.
pub(super) const COMMAND_FILE_LIMIT: usize = 16 << 20;

/// The commands of command file `path`, read up to [`COMMAND_FILE_LIMIT`].
pub(super) fn read_command_file(path: &str) -> Result<Vec<CommandArg>, ConfigError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    // `-` is standard input, as for every other file the tools read.
    let open = || -> std::io::Result<Box<dyn Read>> {
        Ok(if path == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(path)?)
        })
    };
    open()
        .and_then(|f| {
            f.take(COMMAND_FILE_LIMIT as u64 + 1)
                .read_to_end(&mut bytes)
        })
        .map_err(|source| ConfigError::CommandFile {
            path: path.to_owned(),
            source,
        })?;
    if bytes.len() <= COMMAND_FILE_LIMIT {
        return Ok(cmdfile::parse_bytes(path, &bytes)?);
    }
    // Too long; but a fault in what was read (a NUL, say) says more. Its
    // whole lines, or, with none, as many whole characters as were read.
    let read = &bytes[..COMMAND_FILE_LIMIT];
    let end = match read.iter().rposition(|&b| b == b'\n') {
        Some(end) => end + 1,
        None => match std::str::from_utf8(read) {
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            _ => read.len(),
        },
    };
    cmdfile::parse_bytes(path, &read[..end])?;
    Err(UsageError(format!(
        "{path}: the command file runs past {} MiB; a command file holds one command per \
         line (is it the file you meant?)",
        COMMAND_FILE_LIMIT >> 20
    ))
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_file_is_read_up_to_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            path.to_string_lossy().into_owned()
        };
        let message = |path: &str| match read_command_file(path) {
            Err(ConfigError::Usage(UsageError(m))) => m,
            other => panic!("{other:?}"),
        };
        // Commands of 1 KiB, line end included.
        const LINE: usize = 1024;
        let lines = |n: usize| format!("{}\n", "t".repeat(LINE - 1)).repeat(n).into_bytes();
        // Within the bound: every command.
        let within = file("within", &lines(COMMAND_FILE_LIMIT / LINE));
        assert_eq!(
            read_command_file(&within).unwrap().len(),
            COMMAND_FILE_LIMIT / LINE
        );
        // Past it: refused, however the file goes on.
        let past = file("past", &lines(COMMAND_FILE_LIMIT / LINE + 1));
        assert!(
            message(&past).contains("runs past 16 MiB"),
            "{}",
            message(&past)
        );
        // A fault in what was read is the message, in whole lines …
        let mut nul = lines(3);
        nul.push(0);
        nul.extend(lines(COMMAND_FILE_LIMIT / LINE));
        let nul = file("nul", &nul);
        assert!(message(&nul).contains("line 4: control character U+0000"));
        // … or, on one long line, in whole characters (no false fault
        // from a character cut at the bound).
        let mut long = vec![b'x'; COMMAND_FILE_LIMIT - 1];
        long.extend("é".repeat(10).bytes());
        let long = file("long", &long);
        assert!(
            message(&long).contains("runs past 16 MiB"),
            "{}",
            message(&long)
        );
    }
}
