//! The byte protocol between the tool and its launcher process (the other
//! side is `launcher.c`; the layout is described at its top).
//!
//! Requests are length-prefixed frames of little-endian integers: a program
//! table sent once (so a long command crosses the pipe once, not per run),
//! then batches of steps that refer to it by index. Responses are fixed-size,
//! so reading one needs no allocation.

use std::io::{self, Read, Write};

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

/// Program flag: stdin, stdout and stderr are /dev/null.
pub const NULL_STDIO: u8 = 1;
/// Program flag: a process group of its own (so everything it starts can be
/// killed on timeout or interrupt).
pub const NEW_GROUP: u8 = 2;

/// Bytes in one response.
pub const RESPONSE_LEN: usize = 1 + 8 * 11 + 1 + 4 + 1;

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
pub fn batch_request(steps: &[u32], timeout_ms: u64, stop_on_failure: bool) -> Vec<u8> {
    let mut body = Vec::with_capacity(13 + 4 * steps.len());
    body.push(u8::from(stop_on_failure));
    body.extend_from_slice(&timeout_ms.to_le_bytes());
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
    /// errno of a failed spawn, or the floor in KiB for [`FLOOR`].
    pub value: i64,
    pub start_unix_us: i64,
    pub wall_ns: u64,
    pub user_us: i64,
    pub system_us: i64,
    pub maxrss_kib: i64,
    pub minor_faults: i64,
    pub major_faults: i64,
    pub voluntary_csw: i64,
    pub involuntary_csw: i64,
    /// 0 = exited with `code`, 1 = killed by signal `code`.
    pub signaled: u8,
    pub code: i32,
    pub timed_out: u8,
}

impl Response {
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
        let int = |i: usize| {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&b[1 + 8 * i..9 + 8 * i]);
            i64::from_le_bytes(bytes)
        };
        let o = 1 + 8 * 11;
        Response {
            kind: b[0],
            value: int(0),
            start_unix_us: int(1),
            wall_ns: int(2) as u64,
            user_us: int(3),
            system_us: int(4),
            maxrss_kib: int(5),
            minor_faults: int(6),
            major_faults: int(7),
            voluntary_csw: int(8),
            involuntary_csw: int(9),
            signaled: b[o],
            code: i32::from_le_bytes([b[o + 1], b[o + 2], b[o + 3], b[o + 4]]),
            timed_out: b[o + 5],
        }
    }

    /// Encode as the launcher does (for tests of the decoder).
    pub fn encode(&self) -> [u8; RESPONSE_LEN] {
        let mut b = [0u8; RESPONSE_LEN];
        b[0] = self.kind;
        let ints = [
            self.value,
            self.start_unix_us,
            self.wall_ns as i64,
            self.user_us,
            self.system_us,
            self.maxrss_kib,
            self.minor_faults,
            self.major_faults,
            self.voluntary_csw,
            self.involuntary_csw,
            0,
        ];
        for (i, v) in ints.iter().enumerate() {
            b[1 + 8 * i..9 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        let o = 1 + 8 * 11;
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
    fn responses_round_trip_and_know_where_a_batch_ends() {
        let r = Response {
            kind: FINISHED,
            value: -3,
            start_unix_us: 1_700_000_000_000_000,
            wall_ns: 123_456,
            user_us: 1,
            system_us: 2,
            maxrss_kib: 3,
            minor_faults: 4,
            major_faults: 5,
            voluntary_csw: 6,
            involuntary_csw: 7,
            signaled: 0,
            code: 9,
            timed_out: 0,
        };
        let bytes = r.encode();
        assert_eq!(Response::read_from(&mut bytes.as_slice()).unwrap(), r);
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
