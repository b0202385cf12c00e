//! The byte protocol between the tool and its launcher process.
//!
//! Requests and responses are small length-prefixed frames of little-endian
//! integers over two pipes. A request carries the argv of one program to run
//! (each word NUL-terminated, so the launcher can pass pointers into its
//! receive buffer straight to `posix_spawnp` without allocating per run).

use std::io::{self, Read, Write};

/// What the launcher should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Run the program and report its measurement.
    Run = 0,
    /// Report the launcher's own peak RSS (its `VmHWM`), in KiB.
    Floor = 1,
}

/// How to run a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunFlags {
    /// stdin, stdout and stderr are /dev/null (otherwise inherited).
    pub null_stdio: bool,
    /// Put the program in a process group of its own.
    pub new_group: bool,
}

/// One run request, as the tool sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub op: Op,
    pub flags: RunFlags,
    /// Kill the program after this many milliseconds (0 = never).
    pub timeout_ms: u64,
    pub argv: Vec<String>,
}

/// The outcome kinds a response can carry.
pub const FINISHED: u8 = 0;
pub const SPAWN_ERROR: u8 = 1;
pub const CANCELLED: u8 = 2;
pub const FLOOR: u8 = 3;
pub const PROTOCOL_ERROR: u8 = 4;

/// A response frame: fixed size, so reading it needs no allocation.
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

const RESPONSE_LEN: usize = 1 + 8 * 11 + 1 + 4 + 1;

impl Request {
    /// Serialise as one frame: `u32 length`, then `op`, `flags`, `timeout`,
    /// `argc`, and the NUL-terminated words.
    pub fn write_to(&self, w: &mut impl Write) -> io::Result<()> {
        let words: usize = self.argv.iter().map(|a| a.len() + 1).sum();
        let len = 1 + 1 + 8 + 4 + words;
        let mut frame = Vec::with_capacity(4 + len);
        frame.extend_from_slice(&(len as u32).to_le_bytes());
        frame.push(self.op as u8);
        frame.push(u8::from(self.flags.null_stdio) | (u8::from(self.flags.new_group) << 1));
        frame.extend_from_slice(&self.timeout_ms.to_le_bytes());
        frame.extend_from_slice(&(self.argv.len() as u32).to_le_bytes());
        for word in &self.argv {
            frame.extend_from_slice(word.as_bytes());
            frame.push(0);
        }
        w.write_all(&frame)?;
        w.flush()
    }
}

/// A request as the launcher sees it: borrowed words inside the receive
/// buffer, each still NUL-terminated.
pub struct RawRequest<'a> {
    pub op: Op,
    pub flags: RunFlags,
    pub timeout_ms: u64,
    pub words: Vec<&'a std::ffi::CStr>,
}

/// Read one request frame into `buf` (reused). `Ok(None)` at end of input:
/// the tool has finished or died, and the launcher should exit.
pub fn read_request_frame(r: &mut impl Read, buf: &mut Vec<u8>) -> io::Result<Option<()>> {
    let mut len = [0u8; 4];
    match r.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let len = u32::from_le_bytes(len) as usize;
    buf.clear();
    buf.resize(len, 0);
    r.read_exact(buf)?;
    Ok(Some(()))
}

/// Decode a frame read by [`read_request_frame`].
pub fn parse_request(buf: &[u8]) -> Result<RawRequest<'_>, &'static str> {
    if buf.len() < 14 {
        return Err("short request");
    }
    let op = match buf[0] {
        0 => Op::Run,
        1 => Op::Floor,
        _ => return Err("unknown op"),
    };
    let flags = RunFlags {
        null_stdio: buf[1] & 1 != 0,
        new_group: buf[1] & 2 != 0,
    };
    let timeout_ms = u64::from_le_bytes(buf[2..10].try_into().map_err(|_| "bad timeout")?);
    let argc = u32::from_le_bytes(buf[10..14].try_into().map_err(|_| "bad argc")?) as usize;
    let mut words = Vec::with_capacity(argc);
    let mut rest = &buf[14..];
    for _ in 0..argc {
        let word = std::ffi::CStr::from_bytes_until_nul(rest).map_err(|_| "unterminated word")?;
        rest = &rest[word.to_bytes().len() + 1..];
        words.push(word);
    }
    Ok(RawRequest {
        op,
        flags,
        timeout_ms,
        words,
    })
}

impl Response {
    pub fn write_to(&self, w: &mut impl Write) -> io::Result<()> {
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
        ];
        for (i, v) in ints.iter().enumerate() {
            b[1 + 8 * i..9 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        // The 11th 8-byte slot is reserved (kept zero) for future fields.
        let o = 1 + 8 * 11;
        b[o] = self.signaled;
        b[o + 1..o + 5].copy_from_slice(&self.code.to_le_bytes());
        b[o + 5] = self.timed_out;
        w.write_all(&b)?;
        w.flush()
    }

    pub fn read_from(r: &mut impl Read) -> io::Result<Response> {
        let mut b = [0u8; RESPONSE_LEN];
        r.read_exact(&mut b)?;
        let int =
            |i: usize| i64::from_le_bytes(b[1 + 8 * i..9 + 8 * i].try_into().unwrap_or([0; 8]));
        let o = 1 + 8 * 11;
        Ok(Response {
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
            code: i32::from_le_bytes(b[o + 1..o + 5].try_into().unwrap_or([0; 4])),
            timed_out: b[o + 5],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_round_trips_through_a_frame() {
        let req = Request {
            op: Op::Run,
            flags: RunFlags {
                null_stdio: true,
                new_group: false,
            },
            timeout_ms: 1234,
            argv: vec!["ls".into(), "-l".into(), "".into(), "a b".into()],
        };
        let mut bytes = Vec::new();
        req.write_to(&mut bytes).unwrap();
        let mut buf = Vec::new();
        read_request_frame(&mut bytes.as_slice(), &mut buf)
            .unwrap()
            .unwrap();
        let raw = parse_request(&buf).unwrap();
        assert_eq!(raw.op, Op::Run);
        assert_eq!(raw.flags, req.flags);
        assert_eq!(raw.timeout_ms, 1234);
        let words: Vec<_> = raw.words.iter().map(|w| w.to_str().unwrap()).collect();
        assert_eq!(words, ["ls", "-l", "", "a b"]);
    }

    #[test]
    fn end_of_input_is_not_an_error() {
        let mut buf = Vec::new();
        assert!(read_request_frame(&mut [].as_slice(), &mut buf)
            .unwrap()
            .is_none());
    }

    #[test]
    fn truncated_words_are_rejected_not_panicking() {
        let mut buf = vec![0u8, 0];
        buf.extend_from_slice(&0u64.to_le_bytes());
        buf.extend_from_slice(&2u32.to_le_bytes());
        buf.extend_from_slice(b"abc");
        assert!(parse_request(&buf).is_err());
    }

    #[test]
    fn response_round_trips() {
        let resp = Response {
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
            signaled: 1,
            code: 9,
            timed_out: 1,
        };
        let mut bytes = Vec::new();
        resp.write_to(&mut bytes).unwrap();
        assert_eq!(bytes.len(), RESPONSE_LEN);
        assert_eq!(Response::read_from(&mut bytes.as_slice()).unwrap(), resp);
    }
}
