//! The runs of one command in one experiment, packed into one byte
//! string: every value exactly as measured, in a fraction of the space of
//! the raw CSV rows.
//!
//! A column of values (one metric, or one attribute such as the exit
//! code) is written as a tag byte and its values:
//!
//! * `0` every run lacks it; `1` integers, all present; `2` integers,
//!   some absent (a presence bitmap first); `3` reals (a presence bitmap,
//!   then the present values as 8-byte IEEE 754 little-endian numbers).
//! * Integers are divided by their greatest common divisor (memory in
//!   bytes is a multiple of 1024, start times of 1) and written as the
//!   first value, then each value's difference from the one before, all
//!   as zigzag LEB128 varints: a run's value differs little from the
//!   previous run's, so most take one or two bytes.
//!
//! Each column is preceded by its length in bytes (a varint), so that a
//! reader of one metric skips the others. The whole string starts with a
//! format byte ([`FORMAT`]) and the number of runs; the names of the metric columns are stored beside it
//! (in the store's `metrics` field), in the order of the columns.

use std::fmt;

/// The version of this layout.
pub const FORMAT: u8 = 1;

/// A column: one optional value per run.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    Ints(Vec<Option<i64>>),
    Reals(Vec<Option<f64>>),
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::Ints(v) => v.len(),
            Column::Reals(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of run `i` as a real number, if present.
    pub fn get_f64(&self, i: usize) -> Option<f64> {
        match self {
            Column::Ints(v) => v.get(i).copied().flatten().map(|x| x as f64),
            Column::Reals(v) => v.get(i).copied().flatten(),
        }
    }
}

/// Why a packed string cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackError(pub &'static str);

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "packed runs are damaged: {}", self.0)
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn put_bitmap(out: &mut Vec<u8>, present: impl Iterator<Item = bool>) {
    let mut byte = 0u8;
    let mut bits = 0;
    for p in present {
        byte |= u8::from(p) << bits;
        bits += 1;
        if bits == 8 {
            out.push(byte);
            byte = 0;
            bits = 0;
        }
    }
    if bits > 0 {
        out.push(byte);
    }
}

/// Appends `column` to `out`, preceded by its length.
pub fn put_column(out: &mut Vec<u8>, column: &Column) {
    let mut body = Vec::with_capacity(2 * column.len() + 8);
    put_column_body(&mut body, column);
    put_varint(out, body.len() as u64);
    out.extend_from_slice(&body);
}

fn put_column_body(out: &mut Vec<u8>, column: &Column) {
    match column {
        Column::Reals(v) => {
            out.push(3);
            put_bitmap(out, v.iter().map(Option::is_some));
            for x in v.iter().flatten() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        Column::Ints(v) => {
            let present = v.iter().filter(|x| x.is_some()).count();
            if present == 0 {
                out.push(0);
                return;
            }
            if present == v.len() {
                out.push(1);
            } else {
                out.push(2);
                put_bitmap(out, v.iter().map(Option::is_some));
            }
            // The divisor of every value and of every difference: a
            // difference of multiples is a multiple.
            let g = v
                .iter()
                .flatten()
                .fold(0u64, |g, &x| gcd(g, x.unsigned_abs()));
            let g = g.max(1);
            put_varint(out, g);
            let mut previous = 0i64;
            for &x in v.iter().flatten() {
                let q = x / g as i64;
                put_varint(out, zigzag(q.wrapping_sub(previous)));
                previous = q;
            }
        }
    }
}

/// Reads packed bytes from the front.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    pub fn byte(&mut self) -> Result<u8, PackError> {
        let b = *self.bytes.get(self.at).ok_or(PackError("cut short"))?;
        self.at += 1;
        Ok(b)
    }

    pub fn varint(&mut self) -> Result<u64, PackError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(PackError("a number is too long"))
    }

    fn bitmap(&mut self, n: usize) -> Result<Vec<bool>, PackError> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n.div_ceil(8) {
            let b = self.byte()?;
            for bit in 0..8 {
                if out.len() < n {
                    out.push(b >> bit & 1 == 1);
                }
            }
        }
        Ok(out)
    }

    /// Skips a column.
    pub fn skip_column(&mut self) -> Result<(), PackError> {
        let len = usize::try_from(self.varint()?).map_err(|_| PackError("a column is too long"))?;
        if self.bytes.len() - self.at < len {
            return Err(PackError("cut short"));
        }
        self.at += len;
        Ok(())
    }

    /// A column of `n` values.
    pub fn column(&mut self, n: usize) -> Result<Column, PackError> {
        let len = usize::try_from(self.varint()?).map_err(|_| PackError("a column is too long"))?;
        let end = self
            .at
            .checked_add(len)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(PackError("cut short"))?;
        let column = self.column_body(n)?;
        if self.at != end {
            return Err(PackError("a column's length is wrong"));
        }
        Ok(column)
    }

    fn column_body(&mut self, n: usize) -> Result<Column, PackError> {
        match self.byte()? {
            0 => Ok(Column::Ints(vec![None; n])),
            tag @ (1 | 2) => {
                let present = if tag == 1 {
                    vec![true; n]
                } else {
                    self.bitmap(n)?
                };
                let g = self.varint()? as i64;
                let mut previous = 0i64;
                let mut out = Vec::with_capacity(n);
                for p in present {
                    if p {
                        previous = previous.wrapping_add(unzigzag(self.varint()?));
                        out.push(Some(previous.wrapping_mul(g)));
                    } else {
                        out.push(None);
                    }
                }
                Ok(Column::Ints(out))
            }
            3 => {
                let present = self.bitmap(n)?;
                let mut out = Vec::with_capacity(n);
                for p in present {
                    if p {
                        let end = self.at + 8;
                        let b = self.bytes.get(self.at..end).ok_or(PackError("cut short"))?;
                        self.at = end;
                        let mut a = [0u8; 8];
                        a.copy_from_slice(b);
                        out.push(Some(f64::from_le_bytes(a)));
                    } else {
                        out.push(None);
                    }
                }
                Ok(Column::Reals(out))
            }
            _ => Err(PackError("an unknown column kind")),
        }
    }

    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// Appends the header: the format byte and the number of runs.
pub fn put_header(out: &mut Vec<u8>, runs: usize) {
    out.push(FORMAT);
    put_varint(out, runs as u64);
}

/// Reads the header: the number of runs.
pub fn header(r: &mut Reader<'_>) -> Result<usize, PackError> {
    if r.byte()? != FORMAT {
        return Err(PackError("an unknown layout"));
    }
    usize::try_from(r.varint()?).map_err(|_| PackError("too many runs"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(columns: &[Column]) -> usize {
        let n = columns[0].len();
        let mut out = Vec::new();
        put_header(&mut out, n);
        for c in columns {
            put_column(&mut out, c);
        }
        let mut r = Reader::new(&out);
        assert_eq!(header(&mut r).unwrap(), n);
        for c in columns {
            assert_eq!(&r.column(n).unwrap(), c);
        }
        assert!(r.at_end());
        out.len()
    }

    #[test]
    fn columns_read_back_exactly() {
        round_trip(&[
            Column::Ints(vec![
                Some(1000),
                Some(1003),
                Some(997),
                Some(-5),
                Some(i64::MAX),
            ]),
            Column::Ints(vec![None, Some(4096), None, Some(8192), Some(0)]),
            Column::Ints(vec![None; 5]),
            Column::Reals(vec![Some(2.5), None, Some(-0.125), Some(1e100), Some(3.0)]),
            Column::Ints(vec![
                Some(i64::MIN),
                Some(i64::MAX),
                Some(0),
                Some(1),
                Some(-1),
            ]),
        ]);
    }

    #[test]
    fn memory_in_kib_takes_about_a_byte_a_run() {
        let rss: Vec<Option<i64>> = (0..100).map(|i| Some((2500 + i % 7) * 1024)).collect();
        let bytes = round_trip(&[Column::Ints(rss)]);
        assert!(bytes < 120, "{bytes}");
    }

    #[test]
    fn damage_is_an_error_not_a_panic() {
        let mut out = Vec::new();
        put_header(&mut out, 3);
        put_column(&mut out, &Column::Ints(vec![Some(1), Some(2), Some(3)]));
        for cut in 0..out.len() {
            let mut r = Reader::new(&out[..cut]);
            let read = header(&mut r).and_then(|n| r.column(n));
            assert!(read.is_err(), "cut at {cut}");
        }
    }
}
