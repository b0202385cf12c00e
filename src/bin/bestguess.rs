//! `bestguess`: run commands many times and report on every run.

fn main() {
    std::process::exit(bestguess::app::bestguess(std::env::args_os().collect()));
}
