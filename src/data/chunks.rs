//! The raw CSV reader's input: the bytes in chunks that end at row ends,
//! and the fast path run on chunks ahead on another thread.
//!
//! [`Stream`] reads its input (on the calling thread, so any `Read` will
//! do, standard input too) a chunk at a time and is the [`BufRead`] the
//! reader's general path reads through. Each chunk is cut after the last
//! line end that is not inside quotes, counting quotes from the chunk's
//! start (`""` counts twice, so it does not matter), and the rest begins
//! the next chunk; memory holds a few chunks, never the file.
//!
//! With a plan (the fast path's reading of the current header) and worker
//! threads, the chunks read ahead are parsed on the workers
//! ([`super::fast_read::parse`]) while the reader applies earlier ones.
//! Such a block is only a guess made in advance: it is used only if the
//! reader arrives exactly at its chunk's start (so the chunk starts at a
//! row's start, whatever the quote count said) with the plan it was made
//! with (a header between would have changed it). Otherwise the reader
//! parses the chunk itself, so results are applied in file order and every
//! error comes from the reader's own pass, as without workers. While it
//! waits for a block, the reader parses the next chunk in the queue, so
//! both threads stay busy.

use std::cell::Cell;
use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::JoinHandle;

use super::fast_read::{parse, Block, Plan};

/// How the reader reads (tests vary it; [`Options::default`] is what
/// `bestreport` uses).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options {
    /// Bytes per chunk (the first is smaller: most files are small).
    pub chunk: usize,
    /// Threads parsing ahead; 0 for none.
    pub workers: usize,
    /// Use the fast path at all (without it, every row takes the general
    /// path, the oracle the tests compare the fast path with).
    pub fast: bool,
}

/// Bytes of the first chunk (a small file is read in one).
const FIRST_CHUNK: usize = 16 * 1024;

/// The longest line read (bytes before its line end; [`Stream`] checks it
/// a chunk at a time, so a line a chunk longer may pass). A row `bestguess`
/// writes is far shorter (its texts are arguments, at most 128 KiB each on
/// Linux); without a bound, a file with no line end (`/dev/zero`) would be
/// read into memory whole, or forever.
pub(crate) const MAX_LINE: usize = 16 << 20;

impl Default for Options {
    fn default() -> Self {
        // Asked once: it reads the cgroup's files, and bestreport may read
        // thousands of small files.
        static CORES: OnceLock<usize> = OnceLock::new();
        let cores =
            *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Options {
            chunk: 128 * 1024,
            // As many as the cores (at most 4), none on one core: the
            // reader has reading and appending to do besides parsing, and
            // parses chunks itself only while it waits.
            workers: if cores > 1 { cores.min(4) } else { 0 },
            fast: true,
        }
    }
}

/// The error for a line past [`MAX_LINE`].
pub(crate) fn line_too_long() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "a line runs past {} MiB without a line end, which no file bestreport reads \
             has (bestguess never writes one); check that this is the file you meant",
            MAX_LINE >> 20
        ),
    )
}

/// `R`, failing once a line runs past [`MAX_LINE`] bytes without a line
/// end (for readers that take their input whole; [`Stream`] counts its
/// own chunks).
pub(crate) struct BoundedLines<R> {
    inner: R,
    /// Bytes since the last line end.
    open: usize,
}

impl<R> BoundedLines<R> {
    pub fn new(inner: R) -> Self {
        BoundedLines { inner, open: 0 }
    }
}

impl<R: Read> Read for BoundedLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut lines = buf[..n].split(|&b| b == b'\n');
        // The line already open goes on; each line after starts afresh.
        self.open += lines.next().map_or(0, <[u8]>::len);
        loop {
            if self.open > MAX_LINE {
                return Err(line_too_long());
            }
            match lines.next() {
                Some(line) => self.open = line.len(),
                None => return Ok(n),
            }
        }
    }
}

/// A chunk the reader holds.
struct Chunk {
    data: Arc<Vec<u8>>,
    /// The job parsing it ahead, and the plan generation it used.
    job: Option<(u64, u64)>,
}

/// A chunk to parse ahead, and the block to parse it into (made by the
/// reader, with room enough: see [`Block::reserve_for`]).
struct Job {
    id: u64,
    data: Arc<Vec<u8>>,
    plan: Arc<Plan>,
    block: Block,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    /// Jobs being parsed.
    busy: Vec<u64>,
    done: Vec<(u64, Block)>,
    /// Jobs whose blocks are no longer wanted.
    dropped: Vec<u64>,
    /// Their blocks, for reuse.
    idle: Vec<Block>,
    workers: usize,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when a job is queued or the reader closes.
    queued: Condvar,
    /// Signalled when a job is done or a worker ends.
    done: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A worker that panicked left consistent state (it holds the lock
        // only to move jobs and blocks).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Parses queued jobs until the reader closes.
fn work(shared: &Shared) {
    /// Counts the worker out however it ends (and forgets the job it was
    /// on, if it panicked), so the reader never waits for a worker that is
    /// gone: it parses that chunk itself.
    struct Alive<'a>(&'a Shared, Cell<Option<u64>>);
    impl Drop for Alive<'_> {
        fn drop(&mut self) {
            let mut state = self.0.lock();
            state.workers -= 1;
            if let Some(id) = self.1.get() {
                state.busy.retain(|&b| b != id);
            }
            drop(state);
            self.0.done.notify_all();
        }
    }
    let alive = Alive(shared, Cell::new(None));
    let mut state = shared.lock();
    loop {
        if state.closed {
            return;
        }
        let Some(job) = state.queue.pop_front() else {
            state = shared
                .queued
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            continue;
        };
        let Job {
            id,
            data,
            plan,
            mut block,
        } = job;
        state.busy.push(id);
        alive.1.set(Some(id));
        drop(state);
        parse(&data, &plan, &mut block);
        drop((data, plan));
        state = shared.lock();
        alive.1.set(None);
        state.busy.retain(|&b| b != id);
        if let Some(k) = state.dropped.iter().position(|&d| d == id) {
            state.dropped.swap_remove(k);
            state.idle.push(block);
        } else {
            state.done.push((id, block));
        }
        shared.done.notify_all();
    }
}

/// The input, in chunks; see the module docs.
pub(crate) struct Stream<R> {
    input: R,
    options: Options,
    chunks: VecDeque<Chunk>,
    /// Position in the front chunk.
    pos: usize,
    /// Bytes read past the last cut: the next chunk's start.
    carry: Vec<u8>,
    /// Bytes read since the last row end (an error past [`MAX_LINE`]).
    open_line: usize,
    eof: bool,
    /// A read error met reading ahead, reported where it happened.
    error: Option<io::Error>,
    chunk_size: usize,
    /// Buffers of chunks read, for the next chunks.
    spare: Vec<Vec<u8>>,
    /// Blocks to parse into, for reuse.
    blocks: Vec<Block>,
    /// The plan and its generation (each header gives a new one).
    plan: Option<(Arc<Plan>, u64)>,
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    next_job: u64,
}

impl<R: Read> Stream<R> {
    pub fn new(input: R, options: Options) -> Self {
        Stream {
            input,
            options,
            chunks: VecDeque::new(),
            pos: 0,
            carry: Vec::new(),
            open_line: 0,
            eof: false,
            error: None,
            chunk_size: FIRST_CHUNK.min(options.chunk).max(1),
            spare: Vec::new(),
            blocks: Vec::new(),
            plan: None,
            shared: Arc::default(),
            threads: Vec::new(),
            next_job: 0,
        }
    }

    /// Whether the fast path is on.
    pub fn fast(&self) -> bool {
        self.options.fast
    }

    /// The plan rows are parsed with from now on (`None`: the general path
    /// only); `generation` tells plans apart.
    pub fn set_plan(&mut self, plan: Option<Arc<Plan>>, generation: u64) {
        self.plan = plan.map(|p| (p, generation));
        self.read_ahead();
    }

    /// Reads the next chunk into the queue; false at the end of the input
    /// (or at a read error, kept for when the reader gets there).
    fn read_chunk(&mut self) -> bool {
        if self.eof || self.error.is_some() {
            if self.carry.is_empty() {
                return false;
            }
            let data = std::mem::take(&mut self.carry);
            self.push_chunk(data);
            return true;
        }
        let size = self.chunk_size;
        self.chunk_size = self.options.chunk.max(1);
        let mut data = self.spare.pop().unwrap_or_default();
        data.clear();
        data.reserve(size.max(self.carry.len()) + 64);
        let carried = self.carry.len();
        data.append(&mut self.carry);
        let want = size.saturating_sub(data.len()) as u64;
        match (&mut self.input).take(want).read_to_end(&mut data) {
            Ok(n) if (n as u64) < want => self.eof = true,
            Ok(_) => {}
            Err(e) => self.error = Some(e),
        }
        if data.is_empty() {
            return false;
        }
        if !self.eof && self.error.is_none() {
            match last_row_end(&data) {
                Some(cut) => {
                    self.open_line = data.len() - cut;
                    self.carry.extend_from_slice(&data[cut..]);
                    data.truncate(cut);
                }
                None => self.open_line += data.len() - carried,
            }
            if self.open_line > MAX_LINE {
                // Reported where the reader gets to; nothing more is read.
                self.error = Some(line_too_long());
            }
        }
        self.push_chunk(data);
        true
    }

    fn push_chunk(&mut self, data: Vec<u8>) {
        self.chunks.push_back(Chunk {
            data: Arc::new(data),
            job: None,
        });
    }

    /// Keeps chunks read and queued ahead for the workers.
    fn read_ahead(&mut self) {
        let Some((plan, generation)) = self.plan.clone() else {
            return;
        };
        if self.options.workers == 0 {
            return;
        }
        let ahead = self.options.workers + 2;
        while self.chunks.len() <= ahead && self.read_chunk() {}
        let mut queued = Vec::new();
        for chunk in self.chunks.iter_mut().skip(1) {
            if chunk.job.is_none() {
                let id = self.next_job;
                self.next_job += 1;
                chunk.job = Some((id, generation));
                let mut block = self.blocks.pop().unwrap_or_default();
                block.reserve_for(chunk.data.len(), &plan);
                queued.push(Job {
                    id,
                    data: Arc::clone(&chunk.data),
                    plan: Arc::clone(&plan),
                    block,
                });
            }
        }
        if queued.is_empty() {
            return;
        }
        let mut state = self.shared.lock();
        state.queue.extend(queued);
        if self.threads.len() < self.options.workers {
            while self.threads.len() < self.options.workers {
                let shared = Arc::clone(&self.shared);
                match std::thread::Builder::new()
                    .name("csv-parse".into())
                    .spawn(move || work(&shared))
                {
                    Ok(handle) => {
                        state.workers += 1;
                        self.threads.push(handle);
                    }
                    // Without threads the reader parses every chunk.
                    Err(_) => {
                        self.options.workers = self.threads.len();
                        break;
                    }
                }
            }
        }
        drop(state);
        self.shared.queued.notify_all();
    }

    /// The block parsed ahead for the rows from here with plan generation
    /// `generation`, if there is one (waiting for it if a worker is on it,
    /// and parsing the next queued chunk meanwhile).
    pub fn block_here(&mut self, generation: u64) -> Option<Block> {
        if self.drop_used() {
            self.read_ahead();
        }
        if self.pos != 0 {
            return None;
        }
        let (id, made_with) = self.chunks.front()?.job?;
        if made_with != generation {
            return None;
        }
        let shared = Arc::clone(&self.shared);
        let mut state = shared.lock();
        loop {
            if let Some(k) = state.done.iter().position(|d| d.0 == id) {
                self.chunks[0].job = None;
                return Some(state.done.swap_remove(k).1);
            }
            if let Some(job) = take_job(&mut state.queue, id) {
                // Not started: the caller parses it in place.
                self.blocks.push(job.block);
                self.chunks[0].job = None;
                return None;
            }
            if !state.busy.contains(&id) {
                self.chunks[0].job = None;
                return None;
            }
            // A worker is on it: parse the next chunk meanwhile.
            if let Some(mut job) = state.queue.pop_front() {
                state.busy.push(job.id);
                drop(state);
                parse(&job.data, &job.plan, &mut job.block);
                state = shared.lock();
                state.busy.retain(|&b| b != job.id);
                state.done.push((job.id, job.block));
                continue;
            }
            if state.workers == 0 {
                self.chunks[0].job = None;
                return None;
            }
            state = shared
                .done
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Gives a block back for reuse.
    pub fn recycle(&mut self, block: Block) {
        if self.blocks.len() <= self.options.workers {
            self.blocks.push(block);
        }
    }

    /// Forgets the chunks read to their end (reading ahead in their
    /// place); whether there were any.
    fn drop_used(&mut self) -> bool {
        let mut moved = false;
        while self
            .chunks
            .front()
            .is_some_and(|c| self.pos >= c.data.len())
        {
            self.pop_chunk();
            moved = true;
        }
        moved
    }

    /// Forgets the front chunk and its job.
    fn pop_chunk(&mut self) {
        self.pos = 0;
        let Some(chunk) = self.chunks.pop_front() else {
            return;
        };
        if let Some((id, _)) = chunk.job {
            let shared = Arc::clone(&self.shared);
            let mut state = shared.lock();
            if let Some(job) = take_job(&mut state.queue, id) {
                self.recycle(job.block);
            } else if let Some(k) = state.done.iter().position(|d| d.0 == id) {
                let block = state.done.swap_remove(k).1;
                self.recycle(block);
            } else if state.busy.contains(&id) {
                state.dropped.push(id);
            }
            while let Some(block) = state.idle.pop() {
                self.recycle(block);
            }
        }
        // Its buffer is reused once no worker holds it.
        if let Ok(data) = Arc::try_unwrap(chunk.data) {
            if self.spare.len() < 2 {
                self.spare.push(data);
            }
        }
    }
}

/// Takes job `id` out of `queue`, if it is there.
fn take_job(queue: &mut VecDeque<Job>, id: u64) -> Option<Job> {
    let k = queue.iter().position(|j| j.id == id)?;
    queue.remove(k)
}

/// Where the last row in `data` ends: after its last line end outside
/// quotes, counting quotes from the start. `None` if there is none.
fn last_row_end(data: &[u8]) -> Option<usize> {
    // Whether the quotes before position `i` are odd, going backwards
    // (a fold the compiler makes a vector loop).
    let mut odd = data.iter().fold(0u8, |odd, &b| odd ^ u8::from(b == b'"')) == 1;
    for i in (0..data.len()).rev() {
        match data[i] {
            b'"' => odd = !odd,
            b'\n' if !odd => return Some(i + 1),
            _ => {}
        }
    }
    None
}

impl<R: Read> Read for Stream<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Stream<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let mut moved = self.drop_used();
        if self.chunks.is_empty() {
            moved = true;
            if !self.read_chunk() {
                if let Some(e) = self.error.take() {
                    return Err(e);
                }
            }
        }
        if moved {
            self.read_ahead();
        }
        Ok(match self.chunks.front() {
            Some(c) => &c.data[self.pos..],
            None => &[],
        })
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

impl<R> Drop for Stream<R> {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.queued.notify_all();
        for t in self.threads.drain(..) {
            // A worker that panicked has said so on standard error; the
            // reader parsed its chunks itself.
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader handing out at most `piece` bytes a call.
    struct Pieces<'a>(&'a [u8], usize);

    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn bounded_lines_refuse_a_line_past_the_bound_only() {
        let long = |len: usize| {
            let mut text = b"a,b\n".to_vec();
            text.extend(std::iter::repeat_n(b'x', len));
            text.extend_from_slice(b"\nc,d\n");
            text
        };
        for piece in [1000, 65_536, 1 << 20] {
            // Within the bound, and many lines past it in all: read whole.
            let within = long(MAX_LINE);
            let mut read = Vec::new();
            BoundedLines::new(Pieces(&within, piece))
                .read_to_end(&mut read)
                .unwrap();
            assert!(read == within, "piece {piece}");
            let many = b"0123456789\n".repeat(MAX_LINE / 11 + 1000);
            read.clear();
            BoundedLines::new(Pieces(&many, piece))
                .read_to_end(&mut read)
                .unwrap();
            assert_eq!(read.len(), many.len(), "piece {piece}");
            // A byte more: refused.
            let past = long(MAX_LINE + 1);
            let e = BoundedLines::new(Pieces(&past, piece))
                .read_to_end(&mut Vec::new())
                .unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidData, "piece {piece}");
        }
    }
}
