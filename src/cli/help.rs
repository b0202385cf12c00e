//! `--help`, generated from the option table ([`super::flags`]).

use super::flags;

/// What each program is for, and how it is called.
pub fn about(program: &str, running: bool) -> (String, String) {
    if running {
        (
            format!(
                "{program}: run commands many times, record every run, rank them with robust statistics"
            ),
            format!("{program} [options] COMMAND..."),
        )
    } else {
        (
            format!("{program}: report on raw data saved by bestguess -o"),
            format!("{program} [options] FILE...   (- reads standard input)"),
        )
    }
}

/// The width of the options column.
const USAGE_WIDTH: usize = 32;

/// The help text for one executable.
pub fn help(program: &str, running: bool) -> String {
    let (about, usage) = about(program, running);
    let mut out = format!("{about}\n\nUsage: {usage}\n\nOptions:\n");
    for f in flags::all().iter().filter(|f| f.applies(running)) {
        // An option too long for the column gets its help on the next line.
        let usage = f.usage();
        if usage.len() > USAGE_WIDTH {
            out.push_str(&format!(
                "  {usage}\n  {:USAGE_WIDTH$} {}\n",
                "",
                f.full_help()
            ));
        } else {
            out.push_str(&format!("  {usage:<USAGE_WIDTH$} {}\n", f.full_help()));
        }
    }
    out.push_str(if running {
        "\nValues may be given as -r 20, -r=20, --runs 20 or --runs=20; flags bundle (-QR).\n"
    } else {
        "\nValues may be given as -c width=100, -c=width=100 or --set=width=100; flags bundle (-QR).\n"
    });
    out.push_str(
        "Exit status: 0 success, 1 usage error, 2 failure, 3 --fail-if-slower found a command slower than its baseline, 4 --history: not recorded in the history, 130/143 interrupted.\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bestreport_help_leaves_out_run_options() {
        let h = help("bestreport", false);
        assert!(h.contains("--export-json FILE"));
        assert!(!h.contains("--warmup") && !h.contains("--max-runs"), "{h}");
        // --runs auto reads an adaptive experiment's runs.
        assert!(h.contains("-r, --runs N|auto"), "{h}");
        assert!(help("bestguess", true).contains("-r, --runs N|auto"));
    }
}
