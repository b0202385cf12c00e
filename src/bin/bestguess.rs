//! `bestguess`: run commands many times and report on every run.

/// Running out of memory is a message and exit status 2, not an abort.
#[global_allocator]
static ALLOC: bestguess::measure::sys::ReportingAlloc =
    bestguess::measure::sys::ReportingAlloc("bestguess");

fn main() {
    std::process::exit(bestguess::app::bestguess(std::env::args_os().collect()));
}
