//! The byte protocol between the tool and its launcher process (the other
//! side is `launcher.c`; the layout is described at its top).
//!
//! Requests are length-prefixed frames of little-endian integers: a program
//! table sent once (so a long command crosses the pipe once, not per run),
//! then batches of steps that refer to it by index. Responses are fixed-size,
//! so reading one needs no allocation.
//!
//! Every constant of the protocol (descriptors, ops, response kinds, flags,
//! slots, spawn paths, limits, its version) is defined once, in
//! `consts.rs`: build.rs writes the same constants into the header
//! `launcher.c` includes, so the two sides cannot be built disagreeing.
//! Before anything else the launcher writes a hello, [`HELLO_MAGIC`] and
//! [`PROTOCOL_VERSION`]; the tool reads it right after its first request
//! and refuses a launcher that speaks another version or sends no hello
//! ([`VersionMismatch`]: a stale build, whose embedded launcher comes from
//! other sources), with one line that says to rebuild.

use std::io::{self, Read, Write};

use crate::data::{Catalogue, Value, Values};

/// The protocol's constants, shared with `launcher.c` (build.rs writes
/// them into the header it includes): descriptors, request ops, response
/// kinds, program flags, response slots, spawn paths, limits, and the
/// version the launcher's hello carries.
mod consts;

pub use consts::*;

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

/// Bytes of the hello the launcher writes before anything else:
/// [`HELLO_MAGIC`] and [`PROTOCOL_VERSION`], a little-endian u32 each.
pub const HELLO_LEN: usize = 8;

/// A launcher that does not speak this tool's protocol: one built from
/// other sources than the tool that embeds it (a stale build).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionMismatch {
    /// The version its hello names; `None` when it sent no hello at all.
    pub found: Option<u32>,
}

impl std::fmt::Display for VersionMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rebuild = "its embedded launcher comes from other sources than it; rebuild \
                       bestguess from clean (cargo clean -p bestguess, then cargo build)";
        match self.found {
            Some(v) => write!(
                f,
                "the launcher speaks protocol version {v}, this bestguess version \
                 {PROTOCOL_VERSION}: {rebuild}"
            ),
            None => write!(
                f,
                "the launcher sent no protocol version (this bestguess speaks version \
                 {PROTOCOL_VERSION}): {rebuild}"
            ),
        }
    }
}

impl std::error::Error for VersionMismatch {}

impl VersionMismatch {
    /// Whether `e` is a [`VersionMismatch`] (as [`read_hello`] returns it).
    pub fn is(e: &io::Error) -> bool {
        e.get_ref()
            .is_some_and(|inner| inner.is::<VersionMismatch>())
    }
}

/// Check the launcher's hello: this protocol's magic and version.
pub fn check_hello(b: &[u8; HELLO_LEN]) -> Result<(), VersionMismatch> {
    let magic = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let version = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    if magic != HELLO_MAGIC {
        return Err(VersionMismatch { found: None });
    }
    if version != PROTOCOL_VERSION {
        return Err(VersionMismatch {
            found: Some(version),
        });
    }
    Ok(())
}

/// Read the launcher's hello and check it: a launcher that speaks another
/// protocol is an error of kind `InvalidData` holding the
/// [`VersionMismatch`].
pub fn read_hello(r: &mut impl Read) -> io::Result<()> {
    let mut b = [0u8; HELLO_LEN];
    r.read_exact(&mut b)?;
    check_hello(&b).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
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
        let f = programs_request([(FLAG_NULL_STDIO | FLAG_NEW_GROUP, argv.as_slice())].into_iter());
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
    fn the_catalogues_slots_are_the_protocols() {
        use crate::data::Metric;
        let slots = [
            (Metric::WALL, SLOT_WALL_NS),
            (Metric::USER, SLOT_USER_US),
            (Metric::SYSTEM, SLOT_SYSTEM_US),
            (Metric::MAXRSS, SLOT_MAXRSS),
            (Metric::MINOR_FAULTS, SLOT_MINOR_FAULTS),
            (Metric::MAJOR_FAULTS, SLOT_MAJOR_FAULTS),
            (Metric::VOLUNTARY_CSW, SLOT_VOLUNTARY_CSW),
            (Metric::INVOLUNTARY_CSW, SLOT_INVOLUNTARY_CSW),
            (Metric::RUN_DELAY, SLOT_RUN_DELAY_NS),
        ];
        for (metric, slot) in slots {
            assert_eq!(metric.def().wire.map(|w| w.slot), Some(slot), "{metric:?}");
        }
        let catalogue = Catalogue::new();
        let wired = catalogue.iter().filter(|(_, d)| d.wire.is_some());
        assert_eq!(
            wired.count(),
            slots.len(),
            "a metric on a slot not named here"
        );
        assert_eq!(SLOT_RUN_DELAY_NS, INTS - 1, "no slot is spare");
    }

    fn hello(magic: u32, version: u32) -> [u8; HELLO_LEN] {
        let mut b = [0u8; HELLO_LEN];
        b[..4].copy_from_slice(&magic.to_le_bytes());
        b[4..].copy_from_slice(&version.to_le_bytes());
        b
    }

    #[test]
    fn a_launcher_of_another_protocol_version_is_refused() {
        assert_eq!(check_hello(&hello(HELLO_MAGIC, PROTOCOL_VERSION)), Ok(()));
        let stale = hello(HELLO_MAGIC, PROTOCOL_VERSION + 1);
        let e = read_hello(&mut stale.as_slice()).unwrap_err();
        assert!(VersionMismatch::is(&e));
        let said = e.to_string();
        assert!(
            said.starts_with(&format!(
                "the launcher speaks protocol version {}, this bestguess version {PROTOCOL_VERSION}: ",
                PROTOCOL_VERSION + 1
            )),
            "{said}"
        );
        assert!(
            said.ends_with("(cargo clean -p bestguess, then cargo build)"),
            "{said}"
        );
        assert!(!said.contains('\n'));
        // A launcher that sends no hello answers the FLOOR request first:
        // a response's bytes are not the magic.
        let floor = Response {
            kind: FLOOR,
            ints: [700, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            ..Response::default()
        }
        .encode();
        let first: [u8; HELLO_LEN] = floor[..HELLO_LEN].try_into().unwrap();
        assert_eq!(check_hello(&first), Err(VersionMismatch { found: None }));
        let none = io::Error::new(io::ErrorKind::InvalidData, VersionMismatch { found: None });
        assert!(none.to_string().contains("sent no protocol version"));
        // Other errors are not a mismatch (the caller says the launcher
        // did not answer).
        let short = read_hello(&mut &b"BGLP"[..]).unwrap_err();
        assert!(!VersionMismatch::is(&short));
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
