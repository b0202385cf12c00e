//! The global allocator that reports running out of memory in one line.

use super::doomed::remove_doomed;

/// The global allocator of both programs: the system allocator, except that
/// running out of memory (a tight `ulimit -v`, a huge input) ends the
/// program with one line on standard error and exit status 2, instead of
/// Rust's abort (SIGABRT, a core dump and no word of what to do). The raw
/// data file is written row by row, so what it holds stays complete; an
/// export's temporary file is removed (the previous export stays). The
/// field is the program's name, for the message.
pub struct ReportingAlloc(pub &'static str);

/// Set by the first thread that runs out of memory: it alone writes the
/// line and exits (several threads can fail at once).
static OUT_OF_MEMORY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn out_of_memory(program: &str, size: usize) -> ! {
    if OUT_OF_MEMORY.swap(true, std::sync::atomic::Ordering::SeqCst) {
        // Another thread is writing the message and ending the process.
        loop {
            // SAFETY: pause(2) takes no arguments and only waits for a
            // signal; the process ends by the other thread's _exit.
            unsafe { libc::pause() };
        }
    }
    remove_doomed();
    let mut msg = *b": error: out of memory (could not allocate                     ";
    let prefix = b": error: out of memory (could not allocate ".len();
    let mut digits = [0u8; 20];
    let mut n = 0;
    let mut v = size;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let mut end = prefix;
    while n > 0 {
        n -= 1;
        msg[end] = digits[n];
        end += 1;
    }
    let tail = b" bytes); give more memory (ulimit -v) or fewer runs/files\n";
    // SAFETY: write(2) on fd 2 with pointers to live stack buffers and their
    // lengths; _exit(2) never returns and runs no destructors or allocations.
    unsafe {
        libc::write(2, program.as_ptr().cast(), program.len());
        libc::write(2, msg.as_ptr().cast(), end);
        libc::write(2, tail.as_ptr().cast(), tail.len());
        libc::_exit(2);
    }
}

// SAFETY: every method forwards to `System` with the same arguments and
// returns its result unchanged, so System's guarantees hold; the only
// addition is that a null result (allocation failure) never returns.
unsafe impl std::alloc::GlobalAlloc for ReportingAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: forwarded as is (the caller upholds alloc's contract).
        let p = unsafe { std::alloc::System.alloc(layout) };
        if p.is_null() {
            out_of_memory(self.0, layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { std::alloc::System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(self.0, layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: forwarded as is.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(self.0, new_size);
        }
        p
    }
}
