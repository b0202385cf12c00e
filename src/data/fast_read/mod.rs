//! The raw CSV reader's fast path: many ordinary rows at once, from bytes
//! in memory straight into a [`Block`] of numbers, in one pass per row.
//!
//! It accepts a row only if the general path ([`super::tokenize`] then
//! `Layout::record` in [`super::csv_read`]) would accept it, and then
//! yields exactly the values that path yields; anything else — a row that
//! would be an error, a header, a number with blanks, a sign or quotes, a
//! C BestGuess row with backslashes, a real-valued metric, a row cut off by
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
//!
//! Here: the plan of what each field is, the block of values, and the
//! loop over rows; [`fields`](mod@fields) finds one row's fields and reads its numbers.

use super::c_tool_rows::c_tool_rss;

mod fields;

use super::columns::{idx, C_TOOL_ROW_FIELDS};
use super::metric::Metric;
use fields::{field, fields, End, Field};

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
    /// The slot of Max RSS, which C BestGuess rows give in KiB or bytes.
    rss: Option<usize>,
    /// Rows of 13 fields are C BestGuess's (not under a header with
    /// BestGuess's appended columns: there they are rows cut off).
    pub short_rows_are_c_tool: bool,
}

impl Plan {
    /// Texts, batch and exit code at their fixed places, nothing else yet.
    pub fn new() -> Plan {
        let mut jobs = vec![Job::Skip; C_TOOL_ROW_FIELDS];
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
            short_rows_are_c_tool: true,
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
    /// Scratch space of [`parse`]: the plan compiled, rows by row (see
    /// [`STRIPE`]), a row's texts with `""` undoubled.
    ops: Vec<Op>,
    stripe: Vec<i64>,
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
        self.ops.reserve(plan.jobs.len());
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

/// What [`parse`] does with a field after the texts: which of the block's
/// columns its value goes to, and what the value must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Op {
    column: u32,
    kind: Kind,
}

/// The checks of [`Op`], the two without any first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum Kind {
    /// Any integer or blank (`Optional`, `Total`).
    Any,
    /// Any well-formed field, its value (if a number) thrown away.
    Skip,
    /// An integer, not blank.
    Required,
    /// Blank, or 1 to 2^31 - 1.
    Signal,
    /// Blank, `0` or `1`; stored with blank as 0.
    Flag,
}

impl Plan {
    /// Cells per row while [`parse`] reads it: the slots, the totals'
    /// values (to check them), and one for skipped fields' values.
    fn columns(&self) -> usize {
        self.slots() + self.sums.len() + 1
    }

    /// The plan compiled for [`parse`]: an [`Op`] per field of `jobs`
    /// (into `ops`, cleared first), and the one for any later field.
    fn ops(&self, ops: &mut Vec<Op>) -> Op {
        let skip = Op {
            column: (self.columns() - 1) as u32,
            kind: Kind::Skip,
        };
        ops.clear();
        ops.extend(self.jobs.iter().map(|&job| match job {
            Job::Skip | Job::Text => skip,
            Job::Required(s) => Op {
                column: s as u32,
                kind: Kind::Required,
            },
            Job::Optional(s) => Op {
                column: s as u32,
                kind: Kind::Any,
            },
            Job::Signal => Op {
                column: slot::SIGNAL as u32,
                kind: Kind::Signal,
            },
            Job::Flag => Op {
                column: slot::TIMED_OUT as u32,
                kind: Kind::Flag,
            },
            Job::Total(k) => Op {
                column: (self.slots() + k) as u32,
                kind: Kind::Any,
            },
        }));
        skip
    }
}

/// Rows parsed into a stripe (row by row, all cells absent at first)
/// before they are moved to the block's columns.
const STRIPE: usize = 256;

/// The first `rows` rows of `stripe` (of `width` cells each) appended to
/// `columns`, which take the first cells of each row.
fn flush(stripe: &[i64], rows: usize, width: usize, columns: &mut [Vec<i64>]) {
    let stripe = &stripe[..rows * width];
    for (k, column) in columns.iter_mut().enumerate() {
        column.extend(stripe.chunks_exact(width).map(|row| row[k]));
    }
}

/// The three text fields' bytes, their doubled quotes undone, into
/// `undoubled` (cleared first): each one's range there.
#[inline]
fn undouble(buf: &[u8], fields: [&Field; 3], undoubled: &mut Vec<u8>) -> [(usize, usize); 3] {
    undoubled.clear();
    let mut ranges = [(0, 0); 3];
    for (k, f) in fields.into_iter().enumerate() {
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
    ranges
}

/// The row's three texts (`text`, cut at `ranges`) as the block's next
/// text id: the previous row's when they are the same.
#[inline]
fn intern(block: &mut Block, text: &str, ranges: [(usize, usize); 3]) {
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
}

/// Whether the fast path takes a row of `n` fields whose cells are `row`
/// (a timeout left blank made 0, a C BestGuess row's max RSS made bytes):
/// ours, or C BestGuess's when the plan takes them and its texts hold
/// no backslash; an exit code that fits; totals equal to their parts.
#[inline]
fn accept(row: &mut [i64], plan: &Plan, n: usize, backslash: bool) -> bool {
    let c_tool = n == C_TOOL_ROW_FIELDS;
    let accepted = (c_tool && plan.short_rows_are_c_tool || n > C_TOOL_ROW_FIELDS + 1)
        && row[slot::EXIT_CODE] <= i64::from(i32::MAX)
        && !(c_tool && backslash);
    if accepted && row[slot::TIMED_OUT] == ABSENT {
        row[slot::TIMED_OUT] = 0;
    }
    accepted
        && (!c_tool || match plan.rss {
            Some(s) if row[s] != ABSENT => match c_tool_rss(row[s]) {
                Some(bytes) => {
                    row[s] = bytes;
                    true
                }
                None => false,
            },
            _ => true,
        })
        // Totals are checked in our rows, when their parts are there.
        && (c_tool
            || plan.sums.iter().enumerate().all(|(k, sum)| {
                let [Some(a), Some(b)] = sum.parts else { return true };
                let (a, b, total) = (row[a], row[b], row[plan.slots() + k]);
                a == ABSENT || b == ABSENT || total == ABSENT || total == a + b
            }))
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
    let mut ops = std::mem::take(&mut block.ops);
    let skip = plan.ops(&mut ops);
    let width = plan.columns();
    // All absent between calls (parse may be called for every row when
    // the general path takes many).
    let mut stripe = std::mem::take(&mut block.stripe);
    if stripe.len() != STRIPE * width {
        stripe.clear();
        stripe.resize(STRIPE * width, ABSENT);
    }
    // Rows in the stripe, and rows whose cells were written.
    let mut k = 0;
    let mut touched = 0;
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
            let ranges = undouble(buf, [&f0, &f1, &f2], &mut undoubled);
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
            intern(block, text, ranges);
            p = f2.next;
            prefix = Some((row_start, p - row_start, lines, backslash));
            backslash
        };

        // The other fields, into the stripe's next row.
        if k == STRIPE {
            flush(&stripe, k, width, &mut block.columns);
            stripe.fill(ABSENT);
            k = 0;
        }
        // This row's cells are written now (and made absent again below
        // if it is refused).
        touched = k + 1;
        let row = &mut stripe[k * width..(k + 1) * width];
        let Some((next, n, quoted_lines)) = fields(buf, p, &ops, skip, row) else {
            block.text_ids.pop();
            break;
        };
        p = next;
        lines += quoted_lines;
        if !accept(row, plan, n, backslash) {
            block.text_ids.pop();
            break;
        }
        k += 1;
        block.rows += 1;
        block.lines += lines + 1;
        block.used = p;
    }
    flush(&stripe, k, width, &mut block.columns);
    stripe[..touched * width].fill(ABSENT);
    block.stripe = stripe;
    block.ops = ops;
    block.undoubled = undoubled;
}
