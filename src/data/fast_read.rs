//! The raw CSV reader's fast path: many ordinary rows at once, from bytes
//! in memory straight into a [`Block`] of numbers, in one pass per row.
//!
//! It accepts a row only if the general path ([`super::tokenize`] then
//! `Layout::record` in [`super::csv_read`]) would accept it, and then
//! yields exactly the values that path yields; anything else — a row that
//! would be an error, a header, a number with blanks, a sign or quotes, a
//! reference row with backslashes, a real-valued metric, a row cut off by
//! the end of the bytes — stops the block just before that row, and the
//! general path takes that row. So every message, line and column comes
//! from the general path, and the fast path needs no error handling of its
//! own: it only has to be right about what it accepts.
//!
//! Accepted rows: each field unquoted without `"` (a `\r` just before the
//! line end is the `\r\n` line end) or quoted (`""` is one `"`, line ends
//! inside are data and count as lines), followed by `,` or a line end;
//! 13 fields, or 15 or more; numbers as 1 to 18 plain digits (which always
//! fit); the rules of `Layout::record` for each column (see [`Plan`]).
//! Blank lines are skipped as the general path skips them.
//!
//! The command, shell and name are seldom new: a row whose bytes up to the
//! comma after its third field equal the previous row's is known to have
//! the same texts without looking at them again.

use super::columns::{idx, REFERENCE_ROW_FIELDS};
use super::csv_read::reference_rss;
use super::metric::Metric;

/// A value a row does not have, in [`Block`]'s slots (every value the fast
/// path accepts is non-negative).
const ABSENT: i64 = -1;

/// The slots every row has, before the metrics'.
pub(crate) mod slot {
    pub const BATCH: usize = 0;
    pub const EXIT_CODE: usize = 1;
    pub const SEQUENCE: usize = 2;
    pub const START: usize = 3;
    pub const SIGNAL: usize = 4;
    pub const TIMED_OUT: usize = 5;
    /// The first metric's slot.
    pub const METRICS: usize = 6;
}

/// What to do with one field, by its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Job {
    /// A column the reader does not read: any well-formed field.
    Skip,
    /// Command, shell or name.
    Text,
    /// An integer that must be present, into a slot (`int` in `csv_read`).
    Required(usize),
    /// An integer or blank, into a slot (`opt_int`, or `metric_value` for a
    /// metric).
    Optional(usize),
    /// Signal: blank, or 1 to 2^31 - 1.
    Signal,
    /// Timed out: blank, `0` or `1`.
    Flag,
    /// The derived total `.0` of [`Plan::sums`]: blank or equal to its sum.
    Total(usize),
}

/// A derived total column and the slots of its parts.
#[derive(Clone, Debug)]
struct Sum {
    parts: [Option<usize>; 2],
}

/// What the fast path does with each field of a layout (a header's
/// columns); built by `Layout::plan` in [`super::csv_read`].
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    jobs: Vec<Job>,
    /// The stored metrics read, in the layout's order, and their slots.
    pub metrics: Vec<(Metric, usize)>,
    sums: Vec<Sum>,
    /// The slot of Max RSS, which reference rows give in KiB or bytes.
    rss: Option<usize>,
}

impl Plan {
    /// Texts, batch and exit code at their fixed places, nothing else yet.
    pub fn new() -> Plan {
        let mut jobs = vec![Job::Skip; REFERENCE_ROW_FIELDS];
        jobs[idx::COMMAND] = Job::Text;
        jobs[idx::SHELL] = Job::Text;
        jobs[idx::NAME] = Job::Text;
        jobs[idx::BATCH] = Job::Required(slot::BATCH);
        // 0 to 2^31 - 1: negative exit codes take the general path.
        jobs[idx::EXIT_CODE] = Job::Required(slot::EXIT_CODE);
        Plan {
            jobs,
            metrics: Vec::new(),
            sums: Vec::new(),
            rss: None,
        }
    }

    /// Values per row.
    pub fn slots(&self) -> usize {
        slot::METRICS + self.metrics.len()
    }

    /// Gives field `field` the job `job`; false if it has one already.
    fn set(&mut self, field: usize, job: Job) -> bool {
        if self.jobs.len() <= field {
            self.jobs.resize(field + 1, Job::Skip);
        }
        let free = self.jobs[field] == Job::Skip;
        if free {
            self.jobs[field] = job;
        }
        free
    }

    /// A stored metric in field `field`; `required`: it may not be blank.
    /// False if the field or the metric is taken already (left to the
    /// general path).
    pub fn metric(&mut self, metric: Metric, field: usize, required: bool) -> bool {
        if self.metrics.iter().any(|m| m.0 == metric) {
            return false;
        }
        let s = self.slots();
        let job = if required {
            Job::Required(s)
        } else {
            Job::Optional(s)
        };
        if !self.set(field, job) {
            return false;
        }
        self.metrics.push((metric, s));
        if metric == Metric::MAXRSS {
            self.rss = Some(s);
        }
        true
    }

    /// A derived total in field `field`, the sum of `parts` (call after
    /// the metrics).
    pub fn total(&mut self, field: usize, parts: [Metric; 2]) -> bool {
        let parts = parts.map(|p| self.metrics.iter().find(|m| m.0 == p).map(|m| m.1));
        let k = self.sums.len();
        self.sums.push(Sum { parts });
        self.set(field, Job::Total(k))
    }

    /// BestGuess's run column `k` (Sequence, Start time, Signal, Timed
    /// out) in field `field`.
    pub fn run_column(&mut self, k: usize, field: usize) -> bool {
        let job = match k {
            0 => Job::Optional(slot::SEQUENCE),
            1 => Job::Optional(slot::START),
            2 => Job::Signal,
            _ => Job::Flag,
        };
        self.set(field, job)
    }

    fn job(&self, field: usize) -> Job {
        self.jobs.get(field).copied().unwrap_or(Job::Skip)
    }
}

/// Rows parsed by the fast path: their values by slot, their texts.
#[derive(Debug, Default)]
pub(crate) struct Block {
    /// Rows in the block.
    pub rows: usize,
    /// Bytes of input the block stands for (its rows and blank lines).
    pub used: usize,
    /// Line ends in those bytes.
    pub lines: u64,
    /// Per slot, each row's value ([`ABSENT`] for none).
    columns: Vec<Vec<i64>>,
    /// Per row, its texts' index in `texts`.
    text_ids: Vec<u32>,
    /// Command, shell and name of each text, as ranges of `text_data`.
    texts: Vec<[(u32, u32); 3]>,
    text_data: String,
    /// Scratch space of [`parse`]: a row's values, its totals, its texts
    /// with `""` undoubled.
    row: Vec<i64>,
    totals: Vec<i64>,
    undoubled: Vec<u8>,
}

impl Block {
    /// Room for the rows of `bytes` bytes of input read with `plan`, so
    /// that parsing them seldom allocates (a worker thread's allocations
    /// would stay in its own malloc arena, unused by the rest of the run),
    /// without reserving much more than is used (memory the statistics
    /// could use).
    pub fn reserve_for(&mut self, bytes: usize, plan: &Plan) {
        // Rows of BestGuess's files take 60 to 120 bytes.
        let rows = bytes / 48 + 1;
        self.columns.resize_with(plan.slots(), Vec::new);
        for column in &mut self.columns {
            column.reserve(rows);
        }
        self.text_ids.reserve(rows);
        self.texts.reserve(rows);
        self.text_data.reserve(bytes / 4);
        self.row.reserve(plan.slots());
        self.totals.reserve(plan.sums.len());
        self.undoubled.reserve(256);
    }

    pub fn clear(&mut self) {
        self.rows = 0;
        self.used = 0;
        self.lines = 0;
        self.columns.iter_mut().for_each(Vec::clear);
        self.text_ids.clear();
        self.texts.clear();
        self.text_data.clear();
    }

    /// Slot `slot` of row `row`.
    #[inline]
    pub fn value(&self, row: usize, slot: usize) -> Option<i64> {
        let v = self.columns[slot][row];
        (v != ABSENT).then_some(v)
    }

    /// Slot `slot` of every row ([`ABSENT`], that is -1, for none).
    #[inline]
    pub fn column(&self, slot: usize) -> &[i64] {
        &self.columns[slot][..self.rows]
    }

    /// Which texts row `row` has (rows with the same id have the same
    /// texts; rows with different ids may too).
    #[inline]
    pub fn text_id(&self, row: usize) -> u32 {
        self.text_ids[row]
    }

    /// Command, shell and name of row `row`.
    pub fn texts(&self, row: usize) -> [&str; 3] {
        self.texts[self.text_ids[row] as usize]
            .map(|(a, b)| &self.text_data[a as usize..b as usize])
    }
}

/// Where a field ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Comma,
    Line,
}

/// One field found by [`field`]: its content (quotes removed, not yet
/// undoubled), how it ended and where the next field starts.
struct Field {
    start: usize,
    end: usize,
    quoted: bool,
    /// A quoted field with `""` inside.
    doubled: bool,
    /// Line ends inside (quoted fields only).
    lines: u64,
    ended: End,
    next: usize,
}

/// The field at `p`, if it is well formed and ends within `buf`.
#[inline]
fn field(buf: &[u8], p: usize) -> Option<Field> {
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
    while let Some(eight) = buf.get(q..q + 8) {
        let bytes = u64::from_le_bytes(eight.try_into().ok()?);
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
#[inline]
fn swar_digits(bytes: u64) -> (usize, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // A byte is a digit if its high nibble is 3 and its low nibble at most
    // 9. (A carry out of a byte of 0xfa or more changes only later bytes,
    // and that byte is no digit itself.)
    let high = (bytes & (0xf0 * ONES)) ^ (0x30 * ONES);
    let low = (bytes.wrapping_add(0x06 * ONES) & (0xf0 * ONES)) ^ (0x30 * ONES);
    let other = high | low;
    // The top bit of each byte that is not a digit (exact: no carries).
    let other = (((other & (0x7f * ONES)) + 0x7f * ONES) | other) & (0x80 * ONES);
    let n = (other.trailing_zeros() / 8) as usize;
    if n == 0 {
        return (0, 0);
    }
    // The digits' values in the top `n` bytes, the first the highest
    // place (leading zero bytes below), then pairs, fours, eight.
    let mut v = bytes.wrapping_sub(0x30 * ONES) << (8 * (8 - n));
    v = v.wrapping_mul(10).wrapping_add(v >> 8);
    v = ((v & 0x0000_00ff_0000_00ff).wrapping_mul(100 + (1_000_000 << 32))
        + ((v >> 16) & 0x0000_00ff_0000_00ff).wrapping_mul(1 + (10_000 << 32)))
        >> 32;
    (n, v)
}

/// Field `field`'s value `v` (of `len` digits) into `row` (or `totals`)
/// as `job` says; false if the general path would refuse it.
#[inline(always)]
fn apply(
    job: Job,
    v: i64,
    len: usize,
    row: &mut [i64],
    totals: &mut [i64],
    seen: &mut u64,
) -> bool {
    match job {
        Job::Required(s) => {
            row[s] = v;
            v != ABSENT
        }
        Job::Optional(s) => {
            row[s] = v;
            true
        }
        Job::Signal => {
            row[slot::SIGNAL] = v;
            v == ABSENT || (1..=i64::from(i32::MAX)).contains(&v)
        }
        Job::Flag => {
            row[slot::TIMED_OUT] = v.max(0);
            len <= 1 && v <= 1
        }
        Job::Total(k) if k < 64 => {
            totals[k] = v;
            *seen |= 1 << k;
            true
        }
        Job::Total(_) | Job::Text => false,
        Job::Skip => true,
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x80 * ONES;

/// The top bit of each byte of `word` that is not zero (exact: no carry
/// crosses a byte).
#[inline(always)]
fn nonzero(word: u64) -> u64 {
    (((word & (0x7f * ONES)) + 0x7f * ONES) | word) & HIGH
}

/// The top bit of each byte of `word` equal to `byte`.
#[inline(always)]
fn equal(word: u64, byte: u8) -> u64 {
    !nonzero(word ^ (u64::from(byte) * ONES)) & HIGH
}

/// The top bit of each byte of `word` that is not an ASCII digit (see
/// [`swar_digits`]; bytes after one of 0xfa or more may be marked too,
/// which only sends the row the slower way).
#[inline(always)]
fn not_digits(word: u64) -> u64 {
    let high = (word & (0xf0 * ONES)) ^ (0x30 * ONES);
    let low = (word.wrapping_add(0x06 * ONES) & (0xf0 * ONES)) ^ (0x30 * ONES);
    nonzero(high | low)
}

/// The value of the `k` (1 to 8) digits that end just before `end`.
#[inline(always)]
fn tail(buf: &[u8], end: usize, k: usize) -> Option<i64> {
    let word = u64::from_le_bytes(buf.get(end.checked_sub(8)?..end)?.try_into().ok()?);
    let keep = !0u64 << (8 * (8 - k));
    // The digits' values in the top `k` bytes (the first digit the highest
    // place; the bytes below, before the field, zero), then pairs, fours,
    // eight.
    let mut v = (word & keep) - ((0x30 * ONES) & keep);
    v = v.wrapping_mul(10).wrapping_add(v >> 8);
    v = ((v & 0x0000_00ff_0000_00ff).wrapping_mul(100 + (1_000_000 << 32))
        + ((v >> 16) & 0x0000_00ff_0000_00ff).wrapping_mul(1 + (10_000 << 32)))
        >> 32;
    Some(v as i64)
}

/// The fields from `start` (after the third) to the end of the row, eight
/// bytes at a time, if they are all digits (or empty) and the row's line
/// end is `\n`: into `row` as [`apply`] says. Returns where the next row
/// starts and how many fields the row has; `None` if anything else is in
/// the row, if it goes past the end of `buf`, or if a value is refused (the
/// caller goes field by field).
#[inline]
fn numbers(
    buf: &[u8],
    start: usize,
    plan: &Plan,
    row: &mut [i64],
    totals: &mut [i64],
    seen: &mut u64,
) -> Option<(usize, usize)> {
    let mut w = start;
    let mut field_start = start;
    let mut n = 3;
    loop {
        let word = u64::from_le_bytes(buf.get(w..w + 8)?.try_into().ok()?);
        let line = equal(word, b'\n');
        let separators = equal(word, b',') | line;
        // This word up to the line end, if that is in it.
        let through = match line & line.wrapping_neg() {
            0 => !0,
            first => first | (first - 1),
        };
        if not_digits(word) & !separators & through != 0 {
            return None;
        }
        let mut ends = separators & through;
        while ends != 0 {
            let end = w + (ends.trailing_zeros() / 8) as usize;
            let len = end - field_start;
            let v = match len {
                0 => ABSENT,
                1..=8 => tail(buf, end, len)?,
                9..=16 => tail(buf, end - 8, len - 8)? * 100_000_000 + tail(buf, end, 8)?,
                17..=18 => {
                    (tail(buf, end - 16, len - 16)? * 100_000_000 + tail(buf, end - 8, 8)?)
                        * 100_000_000
                        + tail(buf, end, 8)?
                }
                _ => return None,
            };
            if !apply(plan.job(n), v, len, row, totals, seen) {
                return None;
            }
            n += 1;
            field_start = end + 1;
            ends &= ends - 1;
        }
        if line != 0 {
            return Some((field_start, n));
        }
        w += 8;
    }
}

/// Parses rows from the start of `buf` (which must be the start of a row)
/// into `block` (cleared first), up to the first row the fast path does
/// not take or the end of `buf`. `block.used` and `block.lines` say how
/// far it got.
pub(crate) fn parse(buf: &[u8], plan: &Plan, block: &mut Block) {
    block.clear();
    if buf.is_empty() {
        return;
    }
    block.reserve_for(buf.len(), plan);
    let mut row = std::mem::take(&mut block.row);
    row.resize(plan.slots(), ABSENT);
    let mut totals = std::mem::take(&mut block.totals);
    totals.resize(plan.sums.len(), ABSENT);
    let mut undoubled = std::mem::take(&mut block.undoubled);
    let mut p = 0;
    // The previous row's bytes up to the comma after its third field, the
    // line ends in them, and whether its texts hold a backslash.
    let mut prefix: Option<(usize, usize, u64, bool)> = None;
    while p < buf.len() {
        let row_start = p;
        let mut lines = 0;

        // The texts.
        let same = prefix.filter(|&(s, n, ..)| buf.get(p..p + n) == Some(&buf[s..s + n]));
        let backslash = if let Some((_, n, l, backslash)) = same {
            p += n;
            lines += l;
            block.text_ids.push(block.texts.len() as u32 - 1);
            backslash
        } else {
            let Some(f0) = field(buf, p) else { break };
            if f0.ended == End::Line {
                // A row of one field: skipped if blank, else not ours.
                let blank = !f0.quoted
                    && buf[f0.start..f0.end]
                        .iter()
                        .all(|&b| b == b' ' || b == b'\t');
                if !blank {
                    break;
                }
                p = f0.next;
                block.lines += 1;
                block.used = p;
                continue;
            }
            let Some(f1) = field(buf, f0.next).filter(|f| f.ended == End::Comma) else {
                break;
            };
            let Some(f2) = field(buf, f1.next).filter(|f| f.ended == End::Comma) else {
                break;
            };
            lines += f0.lines + f1.lines + f2.lines;
            undoubled.clear();
            let mut ranges = [(0, 0); 3];
            for (k, f) in [&f0, &f1, &f2].into_iter().enumerate() {
                let start = undoubled.len();
                let bytes = &buf[f.start..f.end];
                if f.doubled {
                    let mut rest = bytes.iter();
                    while let Some(&b) = rest.next() {
                        undoubled.push(b);
                        if b == b'"' {
                            rest.next(); // The second quote of `""`.
                        }
                    }
                } else {
                    undoubled.extend_from_slice(bytes);
                }
                ranges[k] = (start, undoubled.len());
            }
            let backslash = undoubled.contains(&b'\\');
            // Each text must be UTF-8 on its own.
            if ranges
                .iter()
                .any(|&(a, b)| std::str::from_utf8(&undoubled[a..b]).is_err())
            {
                break;
            }
            let Ok(text) = std::str::from_utf8(&undoubled) else {
                break;
            };
            let last = block
                .texts
                .last()
                .map(|t| t.map(|(a, b)| &block.text_data[a as usize..b as usize]));
            let new = ranges.map(|(a, b)| &text[a..b]);
            if last != Some(new) {
                let base = block.text_data.len() as u32;
                block.text_data.push_str(text);
                block
                    .texts
                    .push(ranges.map(|(a, b)| (base + a as u32, base + b as u32)));
            }
            block.text_ids.push(block.texts.len() as u32 - 1);
            p = f2.next;
            prefix = Some((row_start, p - row_start, lines, backslash));
            backslash
        };

        // The other fields: eight bytes at a time while they are digits
        // and separators, else one by one.
        row.fill(ABSENT);
        totals.fill(ABSENT);
        let mut seen_totals = 0u64;
        let mut n = 3;
        let accepted = if let Some((next, fields)) =
            numbers(buf, p, plan, &mut row, &mut totals, &mut seen_totals)
        {
            p = next;
            n = fields;
            true
        } else {
            row.fill(ABSENT);
            totals.fill(ABSENT);
            seen_totals = 0;
            loop {
                let job = plan.job(n);
                n += 1;
                let ended = if job == Job::Skip || job == Job::Text {
                    match field(buf, p) {
                        Some(f) => {
                            lines += f.lines;
                            p = f.next;
                            f.ended
                        }
                        None => break false,
                    }
                } else {
                    let Some((v, len, ended, next)) = digits(buf, p) else {
                        break false;
                    };
                    p = next;
                    if !apply(job, v, len, &mut row, &mut totals, &mut seen_totals) {
                        break false;
                    }
                    ended
                };
                if ended == End::Line {
                    break true;
                }
            }
        };
        let reference = n == REFERENCE_ROW_FIELDS;
        let accepted = accepted
            && (reference || n > REFERENCE_ROW_FIELDS + 1)
            && row[slot::EXIT_CODE] <= i64::from(i32::MAX)
            && !(reference && backslash);
        if accepted && row[slot::TIMED_OUT] == ABSENT {
            row[slot::TIMED_OUT] = 0;
        }
        let accepted = accepted
            && (!reference || match plan.rss.map(|s| row[s]) {
                Some(v) if v != ABSENT => match reference_rss(v) {
                    Some(bytes) => {
                        row[plan.rss.unwrap_or_default()] = bytes;
                        true
                    }
                    None => false,
                },
                _ => true,
            })
            // Totals are checked in our rows, when their parts are there.
            && plan.sums.iter().enumerate().all(|(k, sum)| {
                let [Some(a), Some(b)] = sum.parts else { return true };
                let (a, b) = (row[a], row[b]);
                reference
                    || a == ABSENT
                    || b == ABSENT
                    || k >= 64
                    || seen_totals & (1 << k) == 0
                    || totals[k] == ABSENT
                    || totals[k] == a + b
            });
        if !accepted {
            block.text_ids.pop();
            break;
        }
        for (column, &v) in block.columns.iter_mut().zip(&row) {
            column.push(v);
        }
        block.rows += 1;
        block.lines += lines + 1;
        block.used = p;
    }
    block.row = row;
    block.totals = totals;
    block.undoubled = undoubled;
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
