//! Numbers spelled as JSON text for the per-run arrays ([`super::json_runs`]),
//! fast and byte for byte as [`super::json`]'s printer spells them:
//! serde_json's shortest round-trip form for reals (the unit tests
//! compare). Whole µs shown as seconds are spelled by integer arithmetic,
//! which gives the same digits as the shortest form for any value of 15
//! digits or fewer (no two decimals of up to 15 significant digits round
//! to the same `f64`); everything else goes through serde_json. Each
//! appends to a byte buffer, a few fixed-size copies per value.

use std::io::Write;
use std::ops::Range;

use crate::data::Value;

/// `, x` for each of `values`, in decimal: the text of [`int`] after a
/// separator, made in a small staging array and appended a few hundred
/// values at a time (one append per value costs as much as its digits).
pub(super) fn separated_ints(buf: &mut Vec<u8>, values: &[i64]) {
    /// The longest element: ", " and "-9223372036854775808".
    const LONGEST: usize = 22;
    let mut stage = [0u8; 4096];
    let mut at = 0;
    for &x in values {
        if at + LONGEST > stage.len() {
            buf.extend_from_slice(&stage[..at]);
            at = 0;
        }
        stage[at..at + 2].copy_from_slice(b", ");
        at += 2;
        at += signed_decimal(&mut stage[at..at + 20], x);
    }
    buf.extend_from_slice(&stage[..at]);
}

/// Writes `u` in decimal at the start of `out` (room for its digits, at
/// most 20) and returns how many digits that took.
fn decimal(out: &mut [u8], mut u: u64) -> usize {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let digits = u.checked_ilog10().map_or(1, |l| l as usize + 1);
    let mut end = digits;
    while u >= 100 {
        let pair = (u % 100) as usize * 2;
        u /= 100;
        out[end - 2..end].copy_from_slice(&PAIRS[pair..pair + 2]);
        end -= 2;
    }
    if u >= 10 {
        let pair = u as usize * 2;
        out[end - 2..end].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        out[end - 1] = b'0' + u as u8;
    }
    digits
}

/// A value in its unit: an integer as is, a real in shortest form; a
/// time in seconds as its µs, an integer when whole.
pub(super) fn value(buf: &mut Vec<u8>, v: Value) {
    match v {
        Value::Int(x) => int(buf, x),
        Value::Real(x) => real(buf, x),
        Value::Seconds(_) => match v.as_f64() {
            us if us.fract() == 0.0 && us.abs() < 9e15 => int(buf, us as i64),
            us => real(buf, us),
        },
    }
}

/// A value in µs as seconds, as `real(v / 1e6)` writes it; a time read in
/// seconds as the very number read.
pub(super) fn seconds(buf: &mut Vec<u8>, v: Value) {
    // From 10 µs (below, the shortest form is 1e-6…9e-6) to 15 digits.
    const FAST: Range<i64> = 10..1_000_000_000_000_000;
    match v {
        Value::Int(us) if FAST.contains(&us) => {
            let (whole, fraction) = (us / 1_000_000, us % 1_000_000);
            // At most 10 digits, a point and six decimals.
            let mut text = [b'0'; 24];
            let n = decimal(&mut text[..20], whole as u64);
            // The six decimals, trailing zeros left out ("2.0" keeps one).
            let digits = &mut text[n..n + 7];
            digits[0] = b'.';
            let mut rest = fraction;
            for d in digits[1..].iter_mut().rev() {
                *d = b'0' + (rest % 10) as u8;
                rest /= 10;
            }
            let keep = digits
                .iter()
                .rposition(|&d| d != b'0')
                .map_or(2, |p| p.max(1) + 1);
            put_fixed(buf, &text, n + keep);
        }
        Value::Seconds(s) => real(buf, s),
        v => real(buf, v.as_f64() / 1e6),
    }
}

/// An `f64` as serde_json writes it; `null` unless finite.
fn real(buf: &mut Vec<u8>, x: f64) {
    match serde_json::Number::from_f64(x) {
        // Writing to a Vec cannot fail.
        Some(n) => {
            let _ = write!(buf, "{n}");
        }
        None => buf.extend_from_slice(b"null"),
    }
}

/// An integer in decimal.
pub(super) fn int(buf: &mut Vec<u8>, x: i64) {
    let mut text = [0; 24];
    let n = signed_decimal(&mut text[..20], x);
    put_fixed(buf, &text, n);
}

/// Writes `x` in decimal, with its sign, at the start of `out` (room for
/// 20 characters: a sign and at most 19 digits) and returns how many
/// characters that took.
fn signed_decimal(out: &mut [u8], x: i64) -> usize {
    let sign = usize::from(x < 0);
    out[0] = b'-';
    sign + decimal(&mut out[sign..], x.unsigned_abs())
}

/// Appends `text[..len]` by copying all of `text`: its size is known when
/// compiled, so the copy is a few moves, not a call to `memcpy` with a
/// length known only when run (the per-run text is many short pieces,
/// and such calls would be a tenth of the export's time); the rest is
/// dropped at once.
#[inline(always)]
fn put_fixed<const N: usize>(buf: &mut Vec<u8>, text: &[u8; N], len: usize) {
    let at = buf.len();
    buf.extend_from_slice(text);
    buf.truncate(at + len);
}

/// Text appended many times: copied at a fixed size ([`put_fixed`]) when
/// it fits, else as it is.
pub(super) struct Piece {
    pub(super) text: String,
    fixed: Option<[u8; Piece::FIXED]>,
}

impl Piece {
    const FIXED: usize = 48;

    pub(super) fn new(text: String) -> Piece {
        let fixed = (text.len() <= Piece::FIXED).then(|| {
            let mut fixed = [0; Piece::FIXED];
            fixed[..text.len()].copy_from_slice(text.as_bytes());
            fixed
        });
        Piece { text, fixed }
    }

    #[inline(always)]
    pub(super) fn put(&self, buf: &mut Vec<u8>) {
        match &self.fixed {
            Some(fixed) => put_fixed(buf, fixed, self.text.len()),
            None => buf.extend_from_slice(self.text.as_bytes()),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// What `f` appends to an empty buffer, as text.
    pub(in crate::export) fn text(f: impl Fn(&mut Vec<u8>)) -> String {
        let mut buf = Vec::new();
        f(&mut buf);
        String::from_utf8(buf).unwrap()
    }

    fn serde(x: f64) -> String {
        serde_json::Number::from_f64(x).map_or("null".into(), |n| n.to_string())
    }

    #[test]
    fn seconds_are_spelled_as_serde_json_spells_them() {
        let mut rng = crate::stats::SplitMix64::new(13);
        let mut cases: Vec<i64> = vec![
            0,
            1,
            9,
            10,
            11,
            99,
            100,
            101,
            999_999,
            1_000_000,
            1_000_001,
            2_000_000,
            123_456_789,
            999_999_999_999_999,
            1_000_000_000_000_000,
            i64::MAX,
            -1,
            -10,
            -1_234_567,
            i64::MIN,
        ];
        for digits in 1..19 {
            let top = 10u64.pow(digits);
            cases.extend((0..200).map(|_| (rng.next_u64() % top) as i64));
        }
        for us in cases {
            let ours = text(|b| seconds(b, Value::Int(us)));
            assert_eq!(ours, serde(us as f64 / 1e6), "{us} µs");
        }
        for x in [0.5, 1e-9, 2.5e300, -3.25] {
            assert_eq!(text(|b| seconds(b, Value::Real(x))), serde(x / 1e6));
        }
    }

    #[test]
    fn separated_integers_are_spelled_as_to_string() {
        let mut rng = crate::stats::SplitMix64::new(21);
        let mut cases: Vec<i64> = vec![0, 1, -1, 9, 10, 99, 100, i64::MAX, i64::MIN, i64::MIN + 1];
        for p in 1..19 {
            let ten = 10i64.pow(p);
            cases.extend([ten - 1, ten, ten + 1, -ten + 1, -ten, -ten - 1]);
        }
        // Enough to fill the staging array several times, every width.
        cases.extend((0..3000).map(|k| (rng.next_u64() >> (k % 64)) as i64));
        let expected: String = cases.iter().map(|x| format!(", {x}")).collect();
        assert_eq!(text(|b| separated_ints(b, &cases)), expected);
        assert_eq!(text(|b| separated_ints(b, &[])), "");
    }

    #[test]
    fn integers_and_reals() {
        for x in [0, 7, -7, 10, 1234567890, i64::MAX, i64::MIN] {
            assert_eq!(text(|b| int(b, x)), x.to_string());
        }
        assert_eq!(text(|b| value(b, Value::Real(2.0))), "2.0");
        assert_eq!(text(|b| real(b, f64::NAN)), "null");
    }
}
