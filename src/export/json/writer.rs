//! Where the document's bytes go: straight to the writer, or in chunks
//! to a thread that writes them while the next are made.

use std::io::{self, Write};

use crate::export::json_runs::Out;

/// The document written straight to its destination, on this thread.
pub(super) struct Direct<'a>(pub(super) &'a mut (dyn Write + Send));

impl Out for Direct<'_> {}

impl Write for Direct<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.0.write(data)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Bytes per chunk handed to the writing thread.
pub(super) const CHUNK: usize = 256 * 1024;

/// Gathers text into chunks and sends each, full, to the writing thread.
pub(super) struct ChunkSender {
    pub(super) buf: Vec<u8>,
    /// `None` once finished.
    pub(super) chunks: Option<std::sync::mpsc::SyncSender<Vec<u8>>>,
}

impl ChunkSender {
    fn send(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let full = std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK));
        match &self.chunks {
            Some(chunks) => chunks
                .send(full)
                .map_err(|_| io::Error::other("the export's writer stopped")),
            None => Ok(()),
        }
    }

    /// Sends what is left and closes the channel.
    pub(super) fn finish(&mut self) -> io::Result<()> {
        self.send()?;
        self.chunks = None;
        Ok(())
    }
}

impl Out for ChunkSender {
    /// Sends what was gathered, then `buf` itself (no copy).
    fn put(&mut self, buf: Vec<u8>) -> io::Result<()> {
        if buf.len() < CHUNK / 4 {
            // Small (few runs): copied, as sending it alone would cost more.
            return self.write_all(&buf);
        }
        self.send()?;
        self.buf = buf;
        self.send()
    }
}

impl Write for ChunkSender {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.send()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
