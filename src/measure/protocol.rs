//! The byte protocol between the tool and its launcher process (the other
//! side is `launcher.c`; the layout is described at its top).
//!
//! Requests are length-prefixed frames of little-endian integers: a program
//! table sent once (so a long command crosses the pipe once, not per run),
//! then batches of steps that refer to it by index. Responses are fixed-size,
//! so reading one needs no allocation.

use std::io::{self, Read, Write};

use crate::data::{Catalogue, Value, Values};

pub const OP_FLOOR: u8 = 1;
pub const OP_PROGRAMS: u8 = 2;
pub const OP_BATCH: u8 = 3;

/// Response kinds.
pub const FINISHED: u8 = 0;
pub const SPAWN_ERROR: u8 = 1;
pub const CANCELLED: u8 = 2;
pub const FLOOR: u8 = 3;
pub const PROTOCOL_ERROR: u8 = 4;
pub const DEFINED: u8 = 5;
/// A measured run not started: its metrics file could not be made afresh
/// (the errno is the value).
pub const METRICS_ERROR: u8 = 7;

/// Program flag: stdin, stdout and stderr are /dev/null.
pub const NULL_STDIO: u8 = 1;
/// Program flag: a process group of its own (so everything it starts can be
/// killed on timeout or interrupt).
pub const NEW_GROUP: u8 = 2;

/// Bytes in one response.
pub const RESPONSE_LEN: usize = 1 + 8 * INTS + 1 + 4 + 1;

fn frame(op: u8, body: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(5 + body.len());
    f.extend_from_slice(&((body.len() + 1) as u32).to_le_bytes());
    f.push(op);
    f.extend_from_slice(body);
    f
}

/// The FLOOR request.
pub fn floor_request() -> Vec<u8> {
    frame(OP_FLOOR, &[])
}

/// The PROGRAMS request: each program is (flags, argv).
pub fn programs_request<'a>(
    programs: impl ExactSizeIterator<Item = (u8, &'a [String])>,
) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(&(programs.len() as u32).to_le_bytes());
    for (flags, argv) in programs {
        body.push(flags);
        body.extend_from_slice(&(argv.len() as u32).to_le_bytes());
        for word in argv {
            body.extend_from_slice(word.as_bytes());
            body.push(0);
        }
    }
    frame(OP_PROGRAMS, &body)
}

/// The BATCH request.
pub fn batch_request(steps: &[u32], timeout_us: u64, stop_on_failure: bool) -> Vec<u8> {
    let mut body = Vec::with_capacity(13 + 4 * steps.len());
    body.push(u8::from(stop_on_failure));
    body.extend_from_slice(&timeout_us.to_le_bytes());
    body.extend_from_slice(&(steps.len() as u32).to_le_bytes());
    for s in steps {
        body.extend_from_slice(&s.to_le_bytes());
    }
    frame(OP_BATCH, &body)
}

/// Number of little-endian i64 slots in a response's integer block.
pub const INTS: usize = 11;
/// Slot of the errno of a failed spawn, or the floor in KiB for [`FLOOR`].
pub const SLOT_VALUE: usize = 0;
/// Slot of the run's start, µs since the Unix epoch (CLOCK_REALTIME).
pub const SLOT_START: usize = 1;
/// In a [`FLOOR`] response: the slot of the launcher's spawn path (see
/// `SPAWN_*` in launcher.c and `launcher::SpawnPath`).
pub const SLOT_SPAWN_PATH: usize = 1;
/// In a [`FLOOR`] response: the errno with which the kernel refused clone3.
pub const SLOT_SPAWN_ERRNO: usize = 2;
// Slots 2 to 10 carry the metrics: each fixed metric's entry in the
// catalogue (`crate::data::metric`) names its slot and unit conversion; a
// negative value is one the launcher could not measure (slot 10, the
// run-queue delay, where the kernel does not keep it). No slot is spare:
// a further metric extends `INTS` here and in launcher.c.

/// One response frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Response {
    pub kind: u8,
    /// The integer block (see the `SLOT_` constants and the catalogue).
    pub ints: [i64; INTS],
    /// 0 = exited with `code`, 1 = killed by signal `code`.
    pub signaled: u8,
    pub code: i32,
    pub timed_out: u8,
}

impl Response {
    /// errno of a failed spawn, or the floor in KiB for [`FLOOR`].
    pub fn value(&self) -> i64 {
        self.ints[SLOT_VALUE]
    }

    /// When the run started, µs since the Unix epoch.
    pub fn start_unix_us(&self) -> i64 {
        self.ints[SLOT_START]
    }

    /// The metrics the launcher measured, read from the slots the catalogue
    /// names, in the catalogue's units.
    pub fn metrics(&self) -> Values {
        let mut values = Values::new();
        for (metric, def) in Catalogue::new().iter() {
            if let Some(wire) = def.wire {
                let raw = self.ints.get(wire.slot).copied().unwrap_or_default();
                let value = wire.convert(raw, super::platform::maxrss_bytes);
                values.set(metric, value.map(Value::Int));
            }
        }
        values
    }

    /// The run ended with exit code 0 (no signal, no timeout).
    pub fn succeeded(&self) -> bool {
        self.kind == FINISHED && self.signaled == 0 && self.code == 0 && self.timed_out == 0
    }

    /// Whether the launcher ends a batch after this response (the same rule
    /// as `run_batch` in launcher.c).
    pub fn ends_batch(&self, stop_on_failure: bool) -> bool {
        self.kind != FINISHED || (stop_on_failure && !self.succeeded())
    }

    pub fn read_from(r: &mut impl Read) -> io::Result<Response> {
        let mut b = [0u8; RESPONSE_LEN];
        r.read_exact(&mut b)?;
        Ok(Self::decode(&b))
    }

    fn decode(b: &[u8; RESPONSE_LEN]) -> Response {
        let mut ints = [0i64; INTS];
        for (i, slot) in ints.iter_mut().enumerate() {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&b[1 + 8 * i..9 + 8 * i]);
            *slot = i64::from_le_bytes(bytes);
        }
        let o = 1 + 8 * INTS;
        Response {
            kind: b[0],
            ints,
            signaled: b[o],
            code: i32::from_le_bytes([b[o + 1], b[o + 2], b[o + 3], b[o + 4]]),
            timed_out: b[o + 5],
        }
    }

    /// Encode as the launcher does (for tests of the decoder).
    pub fn encode(&self) -> [u8; RESPONSE_LEN] {
        let mut b = [0u8; RESPONSE_LEN];
        b[0] = self.kind;
        for (i, v) in self.ints.iter().enumerate() {
            b[1 + 8 * i..9 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        let o = 1 + 8 * INTS;
        b[o] = self.signaled;
        b[o + 1..o + 5].copy_from_slice(&self.code.to_le_bytes());
        b[o + 5] = self.timed_out;
        b
    }
}

/// Write a whole request and flush it.
pub fn send(w: &mut impl Write, request: &[u8]) -> io::Result<()> {
    w.write_all(request)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_carry_their_length_and_op() {
        let f = batch_request(&[0, 1, 0], 1500, true);
        assert_eq!(
            u32::from_le_bytes(f[0..4].try_into().unwrap()) as usize,
            f.len() - 4
        );
        assert_eq!(f[4], OP_BATCH);
        assert_eq!(f[5], 1);
        assert_eq!(u64::from_le_bytes(f[6..14].try_into().unwrap()), 1500);
        assert_eq!(u32::from_le_bytes(f[14..18].try_into().unwrap()), 3);
        assert_eq!(f.len(), 4 + 1 + 13 + 12);
    }

    #[test]
    fn program_tables_are_nul_separated_words() {
        let argv = vec!["ls".to_string(), "-l".to_string(), String::new()];
        let f = programs_request([(NULL_STDIO | NEW_GROUP, argv.as_slice())].into_iter());
        assert_eq!(
            &f[4..],
            b"\x02\x01\x00\x00\x00\x03\x03\x00\x00\x00ls\0-l\0\0"
        );
    }

    #[test]
    fn metrics_come_from_the_catalogues_slots() {
        use crate::data::Metric;
        let r = Response {
            kind: FINISHED,
            ints: [0, 0, 1_234_500, 10, 20, 3000, 4, 5, 6, 7, 2_500],
            ..Response::default()
        };
        let m = r.metrics();
        let int = |metric| m.int(metric).unwrap();
        assert_eq!(int(Metric::WALL), 1235, "ns rounded to µs");
        assert_eq!((int(Metric::USER), int(Metric::SYSTEM)), (10, 20));
        assert_eq!(int(Metric::TOTAL), 30);
        assert_eq!(
            int(Metric::MAXRSS),
            super::super::platform::maxrss_bytes(3000),
            "ru_maxrss in this platform's unit, to bytes"
        );
        assert_eq!(
            (int(Metric::MINOR_FAULTS), int(Metric::MAJOR_FAULTS)),
            (4, 5)
        );
        assert_eq!(
            (int(Metric::VOLUNTARY_CSW), int(Metric::INVOLUNTARY_CSW)),
            (6, 7)
        );
        assert_eq!(int(Metric::TOTAL_CSW), 13);
        assert_eq!(int(Metric::RUN_DELAY), 3, "ns rounded to µs");
        let unmeasured = Response {
            ints: [0, 0, 1_234_500, 10, 20, 3000, 4, 5, 6, 7, -1],
            ..r
        };
        assert_eq!(unmeasured.metrics().get(Metric::RUN_DELAY), None);
    }

    #[test]
    fn responses_round_trip_and_know_where_a_batch_ends() {
        let r = Response {
            kind: FINISHED,
            ints: [-3, 1_700_000_000_000_000, 123_456, 1, 2, 3, 4, 5, 6, 7, 0],
            signaled: 0,
            code: 9,
            timed_out: 0,
        };
        let bytes = r.encode();
        assert_eq!(Response::read_from(&mut bytes.as_slice()).unwrap(), r);
        assert_eq!((r.value(), r.start_unix_us()), (-3, 1_700_000_000_000_000));
        assert!(r.ends_batch(true) && !r.ends_batch(false));
        let ok = Response { code: 0, ..r };
        assert!(!ok.ends_batch(true));
        let cancelled = Response {
            kind: CANCELLED,
            ..ok
        };
        assert!(cancelled.ends_batch(false));
    }
}
