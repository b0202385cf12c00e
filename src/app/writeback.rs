//! An export's temporary file, sent to disk as it grows.
//!
//! The first [`DIRECT_FROM`] bytes go through the page cache, and every
//! [`EVERY`] bytes their writeback is started (without waiting), so the
//! disk works while the export is still being made and the `fdatasync`
//! before the rename waits only for the tail.
//!
//! Beyond that, a large export is written with direct I/O (`O_DIRECT`, on
//! a second descriptor of the same file), from an aligned buffer straight
//! to the disk: the data must reach the disk before the rename anyway, and
//! through the page cache each byte is also copied into a page the kernel
//! must first find and zero. Those copies were 40 % of a 0.8 GB export's
//! samples; and on a virtual machine that gives freed memory back to its
//! host, each such page is new to the host and costs a fault there too
//! (writing 800 MB took 1.5 s of system time instead of 0.15 s; directly,
//! 0.07 s). Direct I/O is only a way of writing: where the file system
//! refuses it (opening or writing), the bytes go through the page cache as
//! before. The unaligned tail is written through the page cache.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Bytes written through the page cache before switching to direct I/O
/// (most exports are smaller, and stay as they always were); a multiple of
/// [`ALIGN`].
const DIRECT_FROM: u64 = 16 << 20;

/// Bytes between writeback starts, through the page cache.
const EVERY: u64 = 8 << 20;

/// Alignment of direct I/O's buffer, file offsets and lengths: the page
/// size, a multiple of every block device's logical block size.
const ALIGN: usize = 4096;

/// Bytes per direct write.
const DIRECT_BUFFER: usize = 2 << 20;

/// A file written from its start; see the module docs.
pub struct Writeback {
    file: File,
    /// Bytes written so far (given to [`Write::write`] and accepted).
    written: u64,
    /// Bytes whose writeback has been started.
    started: u64,
    direct: Option<Direct>,
    /// Whether direct I/O was tried (it is tried once).
    tried: bool,
    /// Whether it was used.
    #[cfg_attr(not(test), allow(dead_code))]
    went_direct: bool,
}

/// Direct I/O in progress: bytes gathered in an aligned buffer and, when
/// it is full, written by a thread of its own while the next one fills
/// (two buffers, so that the disk is kept busy).
struct Direct {
    /// The buffer being filled.
    buffer: Aligned,
    /// The file offset of its first byte.
    at: u64,
    /// Full buffers to the disk thread, and where they go.
    to_disk: Option<SyncSender<(Aligned, u64)>>,
    /// Buffers written, back for reuse.
    back: Receiver<Aligned>,
    /// The disk thread: the first error it met, if any.
    thread: Option<JoinHandle<io::Result<()>>>,
    /// Buffers made so far.
    made: usize,
}

/// Room for [`DIRECT_BUFFER`] bytes at an [`ALIGN`]ed address, and how
/// many are gathered.
struct Aligned {
    room: Vec<u8>,
    start: usize,
    len: usize,
}

impl Aligned {
    fn new() -> Aligned {
        let mut room = vec![0u8; DIRECT_BUFFER + ALIGN];
        // At most ALIGN - 1 for a byte buffer, whatever its address.
        let start = room.as_mut_ptr().align_offset(ALIGN).min(ALIGN);
        Aligned {
            room,
            start,
            len: 0,
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.room[self.start..self.start + self.len]
    }

    /// Gathers what fits of `buf`; how much that was.
    fn gather(&mut self, buf: &[u8]) -> usize {
        let n = buf.len().min(DIRECT_BUFFER - self.len);
        let at = self.start + self.len;
        self.room[at..at + n].copy_from_slice(&buf[..n]);
        self.len += n;
        n
    }
}

/// Writes each buffer at its offset, directly if it can and through the
/// page cache if not; stops at the first error.
fn disk(
    direct: File,
    cached: File,
    full: Receiver<(Aligned, u64)>,
    back: SyncSender<Aligned>,
) -> io::Result<()> {
    for (mut buffer, at) in full {
        let bytes = buffer.bytes();
        if bytes.len() % ALIGN != 0 || direct.write_all_at(bytes, at).is_err() {
            // The same bytes at the same place: a direct write that
            // failed part way is simply overwritten.
            cached.write_all_at(bytes, at)?;
        }
        buffer.len = 0;
        // The writer may have stopped taking buffers back: nothing lost.
        let _ = back.try_send(buffer);
    }
    Ok(())
}

impl Direct {
    /// Direct I/O on `file` from offset `at`, if the file system allows it
    /// and a thread can be had.
    fn open(file: &File, at: u64) -> Option<Direct> {
        use std::os::fd::AsRawFd;
        let direct = OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_DIRECT)
            .open(format!("/proc/self/fd/{}", file.as_raw_fd()))
            .ok()?;
        let cached = file.try_clone().ok()?;
        let (to_disk, full) = sync_channel(1);
        let (give_back, back) = sync_channel(2);
        let thread = std::thread::Builder::new()
            .name("export-disk".into())
            .spawn(move || disk(direct, cached, full, give_back))
            .ok()?;
        Some(Direct {
            buffer: Aligned::new(),
            at,
            to_disk: Some(to_disk),
            back,
            thread: Some(thread),
            made: 1,
        })
    }

    /// Hands the buffer to the disk thread and takes an empty one.
    fn send(&mut self) -> io::Result<()> {
        let next = match self.back.try_recv() {
            Ok(b) => b,
            Err(_) if self.made < 2 => {
                self.made += 1;
                Aligned::new()
            }
            Err(_) => Aligned {
                room: Vec::new(),
                start: 0,
                len: 0,
            },
        };
        let full = std::mem::replace(&mut self.buffer, next);
        let len = full.len as u64;
        let sent = self
            .to_disk
            .as_ref()
            .is_some_and(|d| d.send((full, self.at)).is_ok());
        if !sent {
            return self.finish();
        }
        self.at += len;
        if self.buffer.room.is_empty() {
            // Both buffers made: wait for one back.
            match self.back.recv() {
                Ok(b) => self.buffer = b,
                Err(_) => return self.finish(),
            }
        }
        Ok(())
    }

    /// Waits for every buffer sent to be written; the disk thread's error,
    /// if it had one.
    fn finish(&mut self) -> io::Result<()> {
        self.to_disk = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => Err(io::Error::other("the export's disk writer stopped")),
        }
    }
}

impl Writeback {
    pub fn new(file: File) -> Writeback {
        Writeback {
            file,
            written: 0,
            started: 0,
            direct: None,
            tried: false,
            went_direct: false,
        }
    }

    /// Everything written so far, on the disk (the file's size included).
    pub fn sync_data(&mut self) -> io::Result<()> {
        self.flush()?;
        self.file.sync_data()
    }

    /// Through the page cache, starting writeback every [`EVERY`] bytes.
    fn write_cached(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        if self.written - self.started >= EVERY {
            // Only a hint: the fdatasync at the end is what makes it safe.
            let _ = crate::measure::sys::start_writeback(
                &self.file,
                self.started,
                self.written - self.started,
            );
            self.started = self.written;
        }
        Ok(n)
    }
}

impl Write for Writeback {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(direct) = &mut self.direct {
            let n = direct.buffer.gather(buf);
            self.written += n as u64;
            if direct.buffer.len == DIRECT_BUFFER {
                direct.send()?;
            }
            return Ok(n);
        }
        if self.tried {
            return self.write_cached(buf);
        }
        // Up to DIRECT_FROM exactly, then switch.
        let room = (DIRECT_FROM - self.written) as usize;
        let n = self.write_cached(&buf[..buf.len().min(room)])?;
        if self.written == DIRECT_FROM {
            self.tried = true;
            self.direct = Direct::open(&self.file, self.written);
            self.went_direct = self.direct.is_some();
        }
        Ok(n)
    }

    /// Writes what is gathered and waits for the disk thread: the aligned
    /// part directly, the rest through the page cache. Later writes go
    /// through the page cache (a flush comes only at the end).
    fn flush(&mut self) -> io::Result<()> {
        if let Some(mut direct) = self.direct.take() {
            let len = direct.buffer.len;
            let aligned = len - len % ALIGN;
            let tail = direct.buffer.bytes()[aligned..].to_vec();
            direct.buffer.len = aligned;
            if aligned > 0 {
                direct.send()?;
            }
            direct.finish()?;
            self.file
                .write_all_at(&tail, self.written - tail.len() as u64)?;
            self.file.seek(SeekFrom::Start(self.written))?;
        }
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// Bytes unlike their neighbours', so a piece out of place shows.
    fn pattern(len: usize) -> Vec<u8> {
        (0..len as u64)
            .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8)
            .collect()
    }

    fn read(path: &std::path::Path) -> Vec<u8> {
        let mut bytes = Vec::new();
        File::open(path).unwrap().read_to_end(&mut bytes).unwrap();
        bytes
    }

    /// Whether the file system under `dir` takes direct writes.
    fn takes_direct(dir: &std::path::Path) -> bool {
        let probe = dir.join("probe");
        let Ok(file) = OpenOptions::new()
            .write(true)
            .create(true)
            .custom_flags(libc::O_DIRECT)
            .open(&probe)
        else {
            return false;
        };
        let mut buffer = Aligned::new();
        buffer.len = ALIGN;
        let ok = file.write_all_at(buffer.bytes(), 0).is_ok();
        let _ = std::fs::remove_file(probe);
        ok
    }

    #[test]
    fn large_files_are_written_whole_and_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let direct = takes_direct(dir.path());
        let from = DIRECT_FROM as usize;
        // Written after a flush.
        const EXTRA: usize = 5000;
        // Short of the switch, at it, past it by a byte, by a whole buffer,
        // and by two buffers, three pages and a tail.
        for len in [
            from - 1,
            from,
            from + 1,
            from + DIRECT_BUFFER,
            from + 2 * DIRECT_BUFFER + 3 * ALIGN + 123,
        ] {
            let data = pattern(len + EXTRA);
            let path = dir.path().join(format!("out-{len}"));
            let mut w = Writeback::new(File::create(&path).unwrap());
            // Pieces of many sizes, as the export's writer hands them on.
            let sizes = [1, ALIGN - 1, 256 << 10, (1 << 20) + 7, 3];
            let mut at = 0;
            for size in sizes.iter().cycle() {
                if at == len {
                    break;
                }
                let end = (at + size).min(len);
                w.write_all(&data[at..end]).unwrap();
                at = end;
            }
            w.flush().unwrap();
            // Anything after a flush is written after what came before.
            w.write_all(&data[len..]).unwrap();
            w.sync_data().unwrap();
            assert_eq!(w.went_direct, direct && len + EXTRA >= from, "{len} bytes");
            assert!(read(&path) == data, "{len} bytes written");
        }
    }

    #[test]
    fn a_refused_direct_write_goes_through_the_page_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        File::create(&path).unwrap();
        // A descriptor that cannot write stands for a direct write refused.
        let refused = File::open(&path).unwrap();
        let cached = OpenOptions::new().write(true).open(&path).unwrap();
        let (to_disk, full) = sync_channel(4);
        let (give_back, back) = sync_channel(4);
        let data = pattern(3 * ALIGN + 10);
        // Out of order, one piece aligned and one not.
        for (range, at) in [(ALIGN..3 * ALIGN + 10, ALIGN), (0..ALIGN, 0)] {
            let mut buffer = Aligned::new();
            buffer.gather(&data[range]);
            to_disk.send((buffer, at as u64)).unwrap();
        }
        drop(to_disk);
        disk(refused, cached, full, give_back).unwrap();
        assert!(read(&path) == data);
        // Both buffers came back, empty.
        assert_eq!(back.try_iter().map(|b| b.len).collect::<Vec<_>>(), [0, 0]);

        // If the page cache refuses too, that is the error.
        let (to_disk, full) = sync_channel(1);
        let (give_back, _back) = sync_channel(1);
        let mut buffer = Aligned::new();
        buffer.gather(b"x");
        to_disk.send((buffer, 0)).unwrap();
        drop(to_disk);
        let refused = || File::open(&path).unwrap();
        assert!(disk(refused(), refused(), full, give_back).is_err());
    }
}
