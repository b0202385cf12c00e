//! Measurement extras: what the launcher measures or controls besides
//! rusage and the clock — performance counters, CPU pinning, environment
//! padding and the command's own metrics file — and their part of the
//! launcher protocol (the layout is described at the top of `launcher.c`).
//!
//! None of it is sent unless asked for: without extras the launcher runs
//! exactly the path it runs without them, and its responses are unchanged.
//! When set up, every finished run of a measured program (a command, not a
//! hook) is followed by one extra frame.

use std::io::{self, Read};
use std::path::PathBuf;

use super::counters::{Counter, RawReading};
use super::protocol::{
    EXTRA_FRAME_MAX, METRICS_CUT, METRICS_NOT_A_FILE, METRICS_REMOVED, METRICS_WHOLE, OP_SETUP,
};

/// What the user asked for besides rusage and wall time: `--counters`,
/// `--custom-metrics`, `--cpus` and `--randomize-env`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeasureOptions {
    pub counters: Vec<&'static Counter>,
    /// Names of the metrics commands may report (the raw CSV's columns are
    /// fixed before the first run).
    pub custom_metrics: Vec<String>,
    /// CPUs to pin to (empty: no pinning).
    pub cpus: Vec<u32>,
    /// Pad each command's environment (seeded by `--seed`).
    pub randomize_env: bool,
}

impl MeasureOptions {
    /// Nothing asked for: the launcher runs exactly its plain path.
    pub fn is_empty(&self) -> bool {
        *self == MeasureOptions::default()
    }
}

/// The largest CPU number `--cpus` accepts (the kernel's `CPU_SETSIZE` − 1).
pub const MAX_CPU: u32 = 1023;

/// Parse `--cpus`: CPU numbers and ranges, `0,2-3`; sorted, without
/// repeats.
pub fn parse_cpus(text: &str) -> Result<Vec<u32>, String> {
    let bad = || {
        format!(
            "--cpus expects CPU numbers and ranges such as 0,2-3 (0 to {MAX_CPU}), got '{text}'"
        )
    };
    let number = |w: &str| w.trim().parse::<u32>().ok().filter(|&c| c <= MAX_CPU);
    let mut cpus = Vec::new();
    for part in text.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a).ok_or_else(bad)?, number(b).ok_or_else(bad)?);
                if a > b {
                    return Err(bad());
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(number(part).ok_or_else(bad)?),
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

/// CPUs as a short list: `0,2-3`.
pub fn format_cpus(cpus: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}-{}", cpus[i], cpus[j])
        } else {
            cpus[i].to_string()
        });
        i = j + 1;
    }
    parts.join(",")
}

/// What the launcher should do besides measuring rusage and wall time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtrasConfig {
    /// Counters to open (at most
    /// [`MAX_COUNTERS`](super::protocol::MAX_COUNTERS)).
    pub counters: Vec<&'static Counter>,
    /// Pin the launcher, and so every command, to these CPUs (empty: no
    /// pinning).
    pub cpus: Vec<u32>,
    /// Pad each command's environment with a variable of 0 to
    /// [`PAD_MAX`](super::protocol::PAD_MAX) bytes drawn
    /// from this seed.
    pub env_padding_seed: Option<u64>,
    /// The file each command finds named by `BESTGUESS_METRICS`.
    pub metrics_file: Option<PathBuf>,
}

impl ExtrasConfig {
    /// Nothing asked for: no SETUP is sent.
    pub fn is_empty(&self) -> bool {
        *self == ExtrasConfig::default()
    }

    /// The SETUP request (a length-prefixed frame).
    pub fn request(&self) -> Vec<u8> {
        let mut body = vec![OP_SETUP];
        body.extend_from_slice(&(self.counters.len() as u32).to_le_bytes());
        for c in &self.counters {
            body.extend_from_slice(&c.perf_type.to_le_bytes());
            body.extend_from_slice(&c.perf_config.to_le_bytes());
        }
        body.extend_from_slice(&(self.cpus.len() as u32).to_le_bytes());
        for cpu in &self.cpus {
            body.extend_from_slice(&cpu.to_le_bytes());
        }
        body.push(u8::from(self.env_padding_seed.is_some()));
        body.extend_from_slice(&self.env_padding_seed.unwrap_or(0).to_le_bytes());
        if let Some(path) = &self.metrics_file {
            body.extend_from_slice(path.as_os_str().as_encoded_bytes());
        }
        body.push(0);
        let mut frame = (body.len() as u32).to_le_bytes().to_vec();
        frame.extend_from_slice(&body);
        frame
    }
}

/// The launcher's answer to SETUP: an errno per counter (0: opened), for
/// pinning, and for creating the metrics file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SetupReply {
    pub counter_errors: Vec<i32>,
    pub affinity_error: i32,
    pub metrics_error: i32,
}

impl SetupReply {
    pub fn read_from(r: &mut impl Read, counters: usize) -> io::Result<SetupReply> {
        let body = read_frame(r)?;
        let ints: Vec<i32> = body
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if ints.len() != counters + 2 || body.len() % 4 != 0 {
            return Err(io::Error::other("malformed SETUP reply"));
        }
        Ok(SetupReply {
            counter_errors: ints[..counters].to_vec(),
            affinity_error: ints[counters],
            metrics_error: ints[counters + 1],
        })
    }
}

/// What one run of a measured program got besides rusage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunExtras {
    /// Bytes of environment padding this run had (with `--randomize-env`).
    pub env_padding: Option<u32>,
    /// One reading per counter of the SETUP, in its order (also for
    /// counters that could not be opened, whose readings are empty).
    pub counters: Vec<RawReading>,
    /// What the command wrote to its metrics file (at most
    /// [`METRICS_MAX`](super::protocol::METRICS_MAX) bytes), if there is a
    /// metrics file.
    pub metrics: Option<Vec<u8>>,
    /// How much of the metrics file `metrics` holds.
    pub metrics_read: MetricsRead,
    /// What was wrong with the metrics file, one line each (filled when the
    /// extras become metrics; the runner warns, naming the run).
    pub notes: Vec<String>,
}

impl RunExtras {
    /// Read the extra frame that follows a measured run's response.
    pub fn read_from(
        r: &mut impl Read,
        counters: usize,
        has_metrics_file: bool,
    ) -> io::Result<RunExtras> {
        let body = read_frame(r)?;
        let bad = || io::Error::other("malformed extras frame from the launcher");
        let fixed = 4 + 24 * counters + 5;
        if body.len() < fixed {
            return Err(bad());
        }
        let u64_at = |i: usize| u64::from_le_bytes(body[i..i + 8].try_into().expect("8 bytes"));
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let padding = u32_at(0);
        let readings = (0..counters)
            .map(|k| {
                let o = 4 + 24 * k;
                RawReading {
                    value: u64_at(o),
                    enabled_ns: u64_at(o + 8),
                    running_ns: u64_at(o + 16),
                }
            })
            .collect();
        let o = 4 + 24 * counters;
        let len = u32_at(o) as usize;
        if body.len() != fixed + len {
            return Err(bad());
        }
        Ok(RunExtras {
            env_padding: (padding != u32::MAX).then_some(padding),
            counters: readings,
            metrics: has_metrics_file.then(|| body[fixed..].to_vec()),
            metrics_read: match body[o + 4] {
                METRICS_WHOLE => MetricsRead::Whole,
                METRICS_CUT => MetricsRead::Cut,
                METRICS_NOT_A_FILE => MetricsRead::NotAFile,
                METRICS_REMOVED => MetricsRead::Removed,
                _ => return Err(bad()),
            },
            notes: Vec::new(),
        })
    }
}

/// How much of a run's metrics file the launcher read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MetricsRead {
    /// All of it (or there was none).
    #[default]
    Whole,
    /// The first [`METRICS_MAX`](super::protocol::METRICS_MAX) bytes of
    /// more.
    Cut,
    /// Nothing: the command left something other than a regular file
    /// there (a FIFO, a device, a directory).
    NotAFile,
    /// Nothing: the command removed the file, or its directory (the next
    /// run gets both made afresh).
    Removed,
}

fn read_frame(r: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > EXTRA_FRAME_MAX {
        return Err(io::Error::other("oversized frame from the launcher"));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::counters::by_name;

    #[test]
    fn setup_requests_lay_out_every_field() {
        let config = ExtrasConfig {
            counters: vec![by_name("task-clock").unwrap()],
            cpus: vec![1, 3],
            env_padding_seed: Some(7),
            metrics_file: Some(PathBuf::from("/t/m")),
        };
        let f = config.request();
        assert_eq!(
            u32::from_le_bytes(f[0..4].try_into().unwrap()) as usize,
            f.len() - 4
        );
        let b = &f[4..];
        assert_eq!(b[0], OP_SETUP);
        assert_eq!(&b[1..5], &1u32.to_le_bytes());
        assert_eq!(&b[5..9], &1u32.to_le_bytes()); // PERF_TYPE_SOFTWARE
        assert_eq!(&b[9..17], &1u64.to_le_bytes()); // TASK_CLOCK
        assert_eq!(&b[17..21], &2u32.to_le_bytes());
        assert_eq!(&b[21..29], b"\x01\0\0\0\x03\0\0\0");
        assert_eq!(b[29], 1);
        assert_eq!(&b[30..38], &7u64.to_le_bytes());
        assert_eq!(&b[38..], b"/t/m\0");
        assert!(ExtrasConfig::default().is_empty() && !config.is_empty());
    }

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut f = (body.len() as u32).to_le_bytes().to_vec();
        f.extend_from_slice(body);
        f
    }

    #[test]
    fn extra_frames_decode_and_reject_bad_lengths() {
        let mut body = 42u32.to_le_bytes().to_vec();
        for v in [5u64, 10, 10] {
            body.extend_from_slice(&v.to_le_bytes());
        }
        body.extend_from_slice(&3u32.to_le_bytes());
        body.push(1);
        body.extend_from_slice(b"a 1");
        let e = RunExtras::read_from(&mut frame(&body).as_slice(), 1, true).unwrap();
        assert_eq!(e.env_padding, Some(42));
        assert_eq!(
            e.counters,
            [RawReading {
                value: 5,
                enabled_ns: 10,
                running_ns: 10
            }]
        );
        assert_eq!(e.metrics.as_deref(), Some(&b"a 1"[..]));
        assert_eq!(e.metrics_read, MetricsRead::Cut);
        for (state, read) in [
            (0, MetricsRead::Whole),
            (2, MetricsRead::NotAFile),
            (3, MetricsRead::Removed),
        ] {
            let mut other = body.clone();
            other[4 + 24 + 4] = state;
            let e = RunExtras::read_from(&mut frame(&other).as_slice(), 1, true).unwrap();
            assert_eq!(e.metrics_read, read);
        }
        let mut unknown = body.clone();
        unknown[4 + 24 + 4] = 4;
        assert!(RunExtras::read_from(&mut frame(&unknown).as_slice(), 1, true).is_err());
        // Wrong counter count: the lengths no longer add up.
        assert!(RunExtras::read_from(&mut frame(&body).as_slice(), 0, true).is_err());
        let mut no_pad = u32::MAX.to_le_bytes().to_vec();
        no_pad.extend_from_slice(&[0, 0, 0, 0, 0]);
        let e = RunExtras::read_from(&mut frame(&no_pad).as_slice(), 0, false).unwrap();
        assert_eq!((e.env_padding, e.metrics), (None, None));
    }

    #[test]
    fn cpu_lists_parse_and_print_as_ranges() {
        assert_eq!(parse_cpus("3,0-1,1").unwrap(), [0, 1, 3]);
        assert_eq!(format_cpus(&[0, 1, 3, 5, 6, 7]), "0-1,3,5-7");
        assert_eq!(format_cpus(&parse_cpus(" 2 ").unwrap()), "2");
        for bad in ["", "a", "1-", "3-1", "1024", "-1", "0,,1"] {
            assert!(parse_cpus(bad).unwrap_err().contains("--cpus"), "{bad}");
        }
    }

    #[test]
    fn setup_replies_decode() {
        let mut body = Vec::new();
        for v in [0i32, 2, 0, 13] {
            body.extend_from_slice(&v.to_le_bytes());
        }
        let r = SetupReply::read_from(&mut frame(&body).as_slice(), 2).unwrap();
        assert_eq!(r.counter_errors, [0, 2]);
        assert_eq!((r.affinity_error, r.metrics_error), (0, 13));
        assert!(SetupReply::read_from(&mut frame(&body).as_slice(), 3).is_err());
    }
}
