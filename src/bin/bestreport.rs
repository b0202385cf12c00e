//! `bestreport`: re-analyse raw data saved by `bestguess -o`.

/// Running out of memory is a message and exit status 2, not an abort.
#[global_allocator]
static ALLOC: bestguess::measure::sys::ReportingAlloc =
    bestguess::measure::sys::ReportingAlloc("bestreport");

fn main() {
    std::process::exit(bestguess::app::bestreport(std::env::args_os().collect()));
}
