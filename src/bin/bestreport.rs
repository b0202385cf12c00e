//! `bestreport`: re-analyse raw data saved by `bestguess -o`.

fn main() {
    std::process::exit(bestguess::app::bestreport(std::env::args_os().collect()));
}
