//! One row's fields and numbers: a field found (quoted or not), up to 18
//! digits read eight bytes at a time, and the checks each column's value
//! must pass. Each gives `None` for anything the general path must decide.

use super::{Kind, Op, ABSENT};

/// Where a field ended.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum End {
    Comma,
    Line,
}

/// One field found by [`field`]: its content (quotes removed, not yet
/// undoubled), how it ended and where the next field starts.
pub(super) struct Field {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) quoted: bool,
    /// A quoted field with `""` inside.
    pub(super) doubled: bool,
    /// Line ends inside (quoted fields only).
    pub(super) lines: u64,
    pub(super) ended: End,
    pub(super) next: usize,
}

/// The field at `p`, if it is well formed and ends within `buf`.
#[inline]
pub(super) fn field(buf: &[u8], p: usize) -> Option<Field> {
    if buf.get(p) == Some(&b'"') {
        let start = p + 1;
        let mut q = start;
        let mut lines = 0;
        let mut doubled = false;
        loop {
            let k = q + buf[q..].iter().position(|&b| b == b'"')?;
            lines += buf[q..k].iter().filter(|&&b| b == b'\n').count() as u64;
            if buf.get(k + 1) == Some(&b'"') {
                doubled = true;
                q = k + 2;
                continue;
            }
            let (ended, next) = match buf.get(k + 1)? {
                b',' => (End::Comma, k + 2),
                b'\n' => (End::Line, k + 2),
                b'\r' if *buf.get(k + 2)? == b'\n' => (End::Line, k + 3),
                _ => return None,
            };
            return Some(Field {
                start,
                end: k,
                quoted: true,
                doubled,
                lines,
                ended,
                next,
            });
        }
    } else {
        let k = p + buf[p..]
            .iter()
            .position(|&b| b == b',' || b == b'\n' || b == b'"')?;
        match buf[k] {
            b',' => Some(Field {
                start: p,
                end: k,
                quoted: false,
                doubled: false,
                lines: 0,
                ended: End::Comma,
                next: k + 1,
            }),
            b'\n' => Some(Field {
                start: p,
                // `\r\n` ends the line; a `\r` elsewhere is data.
                end: if k > p && buf[k - 1] == b'\r' {
                    k - 1
                } else {
                    k
                },
                quoted: false,
                doubled: false,
                lines: 0,
                ended: End::Line,
                next: k + 1,
            }),
            _ => None, // A stray quote: an error.
        }
    }
}

/// An unquoted field of 0 to 18 digits at `p` and what ends it: its value
/// ([`ABSENT`] if empty), its number of digits, how it ended, and where the
/// next field starts. `None` for anything else (the general path decides).
#[inline]
fn digits(buf: &[u8], p: usize) -> Option<(i64, usize, End, usize)> {
    let mut q = p;
    let mut v: i64 = 0;
    // Eight bytes at a time while they are there (three rounds reach the
    // 19 digits that are too many).
    while let Some(bytes) = word(buf, q) {
        let (n, value) = swar_digits(bytes);
        v = v.wrapping_mul(POWERS[n]).wrapping_add(value as i64);
        q += n;
        if q - p > 18 {
            return None;
        }
        if n < 8 {
            // The byte after the digits is in hand.
            let v = if q == p { ABSENT } else { v };
            return match (bytes >> (8 * n)) as u8 {
                b',' => Some((v, q - p, End::Comma, q + 1)),
                b'\n' => Some((v, q - p, End::Line, q + 1)),
                b'\r' if *buf.get(q + 1)? == b'\n' => Some((v, q - p, End::Line, q + 2)),
                _ => None,
            };
        }
    }
    // Near the end of the bytes: one at a time.
    while let Some(&b) = buf.get(q) {
        let d = b.wrapping_sub(b'0');
        if d > 9 || q - p > 18 {
            break;
        }
        v = v.wrapping_mul(10).wrapping_add(i64::from(d));
        q += 1;
    }
    let n = q - p;
    if n > 18 {
        return None;
    }
    let v = if n == 0 { ABSENT } else { v };
    match *buf.get(q)? {
        b',' => Some((v, n, End::Comma, q + 1)),
        b'\n' => Some((v, n, End::Line, q + 1)),
        b'\r' if *buf.get(q + 1)? == b'\n' => Some((v, n, End::Line, q + 2)),
        _ => None,
    }
}

/// 10 to the power of 0 to 8.
const POWERS: [i64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// The leading ASCII digits of eight bytes (the first in the lowest
/// byte): how many there are and their value.
#[inline(always)]
fn swar_digits(bytes: u64) -> (usize, u64) {
    // Digits become 0 to 9; a byte that is none gets its top bit from
    // either term (a carry out of such a byte changes only later bytes,
    // so the first such byte is found exactly).
    let x = bytes ^ (0x30 * ONES);
    let other = (x.wrapping_add(0x76 * ONES) | x) & HIGH;
    // The top bit of the first byte that is no digit; 64 if none.
    let n = other.trailing_zeros() / 8;
    // The digits moved to the top bytes (for none, a shift by 0, and the
    // value replaced).
    let v = digit_value(x.wrapping_shl(64 - 8 * n));
    (n as usize, if n == 0 { 0 } else { v })
}

const ONES: u64 = 0x0101_0101_0101_0101;

const HIGH: u64 = 0x80 * ONES;

/// The first 8 bytes at `p`, the first the lowest, if there are 8.
#[inline(always)]
fn word(buf: &[u8], p: usize) -> Option<u64> {
    let bytes = buf.get(p..)?.first_chunk::<8>()?;
    Some(u64::from_le_bytes(*bytes))
}

/// The value of digits given as byte values 0 to 9 in the top bytes of
/// `v`, the first the highest place, with zero bytes below them: pairs,
/// then fours, then eight.
#[inline(always)]
fn digit_value(v: u64) -> u64 {
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    (v & 0x0000_00ff_0000_00ff)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & 0x0000_00ff_0000_00ff).wrapping_mul(1 + (10_000 << 32)))
        >> 32
}

/// The fields of a row after its texts, from `p`, each into its place
/// in `row` (whose cells are all absent until then): where the next row
/// starts, how many fields the row has, and the line ends inside its
/// fields; `None` if a field is not one the fast path takes.
///
/// Eight bytes at a time while they hold only digits, commas and the
/// line's `\n`: the bytes that are no digits end the fields, found for
/// each word at once, so that the fields' values do not wait for each
/// other. From the first field that is anything else, one field at a time
/// ([`fields_one_by_one`]).
#[inline(never)]
pub(super) fn fields(
    buf: &[u8],
    p: usize,
    ops: &[Op],
    skip: Op,
    row: &mut [i64],
) -> Option<(usize, usize, u64)> {
    let mut start = p;
    let mut n = 3;
    let mut at = p;
    // The eight bytes before `at` (any bytes before the first field: no
    // field reaches them).
    let mut previous = 0u64;
    'words: while let Some(w) = word(buf, at) {
        let x = w ^ (0x30 * ONES);
        // The top bit of each byte that is no digit (exact: no carries).
        let mut ends = (((x & (0x7f * ONES)) + 0x76 * ONES) | x) & HIGH;
        while ends != 0 {
            let bit = ends.trailing_zeros();
            let end = at + (bit / 8) as usize;
            let separator = (w >> (bit & 56)) as u8;
            let len = end - start;
            if !(separator == b',' || separator == b'\n') {
                break 'words;
            }
            // The eight bytes before `end`.
            let eight = ((u128::from(w) << 64 | u128::from(previous)) >> (bit & 56)) as u64;
            let v = if len <= 8 {
                // The field's digits at the top, the bytes below cleared.
                let digits = (eight ^ (0x30 * ONES)) & (!0u64).wrapping_shl(64 - 8 * len as u32);
                let v = digit_value(digits) as i64;
                if len == 0 {
                    ABSENT
                } else {
                    v
                }
            } else if len <= 16 && end >= 16 {
                // The last 8 digits, and those before them from the 8
                // bytes before those.
                let Some(high) = word(buf, end - 16) else {
                    break 'words;
                };
                let high = (high ^ (0x30 * ONES)) & (!0u64).wrapping_shl(128 - 8 * len as u32);
                (digit_value(high) * 100_000_000 + digit_value(eight ^ (0x30 * ONES))) as i64
            } else {
                match long_value(buf, start, end) {
                    Some(v) => v,
                    None => break 'words,
                }
            };
            let op = ops.get(n).copied().unwrap_or(skip);
            let v = match op.kind {
                Kind::Any | Kind::Skip => v,
                Kind::Required if len != 0 => v,
                Kind::Signal if len == 0 => v,
                Kind::Flag if len <= 1 && v <= 1 => v.max(0),
                _ => match checked(op.kind, v, len) {
                    Some(v) => v,
                    None => break 'words,
                },
            };
            row[op.column as usize] = v;
            n += 1;
            start = end + 1;
            if separator == b'\n' {
                return Some((start, n, 0));
            }
            ends &= ends - 1;
        }
        previous = w;
        at += 8;
    }
    fields_one_by_one(buf, start, n, ops, skip, row)
}

/// The value of the digits from `start` to `end`, if there are 9 to 18
/// (and 8 bytes before each group of 8 that ends at `end`).
#[inline(never)]
fn long_value(buf: &[u8], start: usize, end: usize) -> Option<i64> {
    let len = end - start;
    if !(9..=18).contains(&len) {
        return None;
    }
    // The first group has the digits left over by the groups of 8 after.
    let mut k = (len - 1) % 8 + 1;
    let mut group_end = start + k;
    let mut v = 0;
    loop {
        let w = word(buf, group_end.checked_sub(8)?)?;
        let digits = (w ^ (0x30 * ONES)) & (!0u64).wrapping_shl(64 - 8 * k as u32);
        v = v * POWERS[k] + digit_value(digits) as i64;
        if group_end == end {
            return Some(v);
        }
        group_end += 8;
        k = 8;
    }
}

/// [`fields`] from field `n` at `p`, one field at a time.
#[inline(never)]
fn fields_one_by_one(
    buf: &[u8],
    mut p: usize,
    mut n: usize,
    ops: &[Op],
    skip: Op,
    row: &mut [i64],
) -> Option<(usize, usize, u64)> {
    let mut lines = 0;
    loop {
        let op = ops.get(n).copied().unwrap_or(skip);
        n += 1;
        if let Some((v, len, ended, next)) = digits(buf, p) {
            p = next;
            row[op.column as usize] = checked(op.kind, v, len)?;
            if ended == End::Line {
                return Some((p, n, lines));
            }
        } else if op.kind == Kind::Skip {
            let f = field(buf, p)?;
            lines += f.lines;
            p = f.next;
            if f.ended == End::Line {
                return Some((p, n, lines));
            }
        } else {
            return None;
        }
    }
}

/// The value `v` (of `len` digits) of a field with check `kind`, as it is
/// stored; `None` if the general path would refuse it.
#[inline(never)]
fn checked(kind: Kind, v: i64, len: usize) -> Option<i64> {
    match kind {
        Kind::Any | Kind::Skip => Some(v),
        Kind::Required => (v != ABSENT).then_some(v),
        Kind::Signal => (v == ABSENT || (1..=i64::from(i32::MAX)).contains(&v)).then_some(v),
        Kind::Flag => (len <= 1 && v <= 1).then_some(v.max(0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_digits_at_a_time_as_one_at_a_time() {
        let cases: &[&[u8]] = &[
            b"00000000",
            b"12345678",
            b"9",
            b"98765432",
            b"1234567,",
            b"0,",
            b",",
            b"/:09",
            b"12\xff45678",
            b"1\n",
            b"99999999",
            b"07\r\n",
        ];
        for case in cases {
            let mut bytes = [b'x'; 8];
            bytes[..case.len().min(8)].copy_from_slice(&case[..case.len().min(8)]);
            let n = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let v = bytes[..n]
                .iter()
                .fold(0u64, |v, &b| v * 10 + u64::from(b - b'0'));
            assert_eq!(swar_digits(u64::from_le_bytes(bytes)), (n, v), "{case:?}");
        }
        // Every byte value next to digits.
        for b in 0..=255u8 {
            let bytes = [b'4', b'2', b, b'7', b'0', b'0', b'0', b'0'];
            let n = if b.is_ascii_digit() { 8 } else { 2 };
            let v = bytes[..n]
                .iter()
                .fold(0u64, |v, &b| v * 10 + u64::from(b - b'0'));
            assert_eq!(swar_digits(u64::from_le_bytes(bytes)), (n, v), "{b}");
        }
    }

    #[test]
    fn digit_fields() {
        for (text, expected) in [
            ("0,", Some((0, 1))),
            ("123456789012345678,", Some((123456789012345678, 18))),
            ("1234567890123456789,", None),
            ("12345678901234567890123,", None),
            (",", Some((ABSENT, 0))),
            ("12\n", Some((12, 2))),
            ("12\r\n", Some((12, 2))),
            ("12\r,", None),
            ("12 ,", None),
            ("12", None),
            ("87654321,", Some((87654321, 8))),
            ("8765432112345678\n", Some((8765432112345678, 16))),
        ] {
            let got = digits(text.as_bytes(), 0).map(|d| (d.0, d.1));
            assert_eq!(got, expected, "{text:?}");
        }
    }
}
