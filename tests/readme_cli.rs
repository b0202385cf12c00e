//! The README stays true to the programs: its options block is `--help`'s,
//! and its Hyperfine migration table covers every option of Hyperfine 2.0.

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The block is `--help` at its widest, 100 columns (a terminal of 80
/// wraps the same words into more lines).
#[test]
fn the_options_block_is_the_help_text() {
    let help = assert_cmd::Command::cargo_bin("bestguess")
        .unwrap()
        .arg("--help")
        .env("COLUMNS", "100")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let help = String::from_utf8(help).unwrap();
    let start = help.find("Options:\n").unwrap();
    let end = help.find("\nValues may").unwrap();
    let block = &help[start..end];
    assert!(
        readme().contains(&format!("### Options\n\n```\n{block}\n```")),
        "README.md's Options block differs from `bestguess --help`; paste this there:\n{block}"
    );
}

/// Every option in Hyperfine 2.0.0's `--help`, as it spells them.
const HYPERFINE_2_0: &[&str] = &[
    "--metrics",
    "-w",
    "--warmup",
    "-m",
    "--min-runs",
    "-M",
    "--max-runs",
    "-r",
    "--runs",
    "--env",
    "-s",
    "--setup",
    "-p",
    "--prepare",
    "-C",
    "--conclude",
    "-c",
    "--cleanup",
    "-P",
    "--parameter-scan",
    "-D",
    "--parameter-step-size",
    "-L",
    "--parameter-list",
    "--shell",
    "-S",
    "-N",
    "-i",
    "--ignore-failure",
    "--style",
    "--export-asciidoc",
    "--export-csv",
    "--export-json",
    "--export-markdown",
    "--export-orgmode",
    "--show-output",
    "--output",
    "--input",
    "-n",
    "--command-name",
    "-h",
    "--help",
    "-V",
    "--version",
];

#[test]
fn the_migration_table_covers_every_hyperfine_option() {
    let readme = readme();
    let start = readme.find("## Coming from Hyperfine").unwrap();
    let table = &readme[start..];
    let first_cells: Vec<&str> = table
        .lines()
        .take_while(|l| !l.starts_with("## ") || l.starts_with("## Coming"))
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split(" | ").next().unwrap())
        .collect();
    for option in HYPERFINE_2_0 {
        let spelled = |cell: &&str| cell.split(['`', ',', ' ', '[']).any(|word| word == *option);
        assert!(
            first_cells.iter().any(spelled),
            "the migration table has no row for Hyperfine's {option}"
        );
    }
}

/// The README's install loop, run as written in a fresh home whose
/// `~/.cargo/bin` holds the programs: `man` finds the pages with no
/// setting, and the `bash-completion` package loads the completions.
/// Without `man` or that package the check says so and passes, except
/// where CI requires them (`BESTGUESS_REQUIRE_SHELLS`).
#[test]
fn the_install_loop_works_on_a_stock_system() {
    let readme = readme();
    let start = readme.find("```sh\nfor p in bestguess bestreport").unwrap() + 6;
    let script = &readme[start..start + readme[start..].find("```").unwrap()];
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join(".cargo/bin");
    std::fs::create_dir_all(&bin).unwrap();
    for p in ["bestguess", "bestreport"] {
        let exe = assert_cmd::cargo::cargo_bin(p);
        std::os::unix::fs::symlink(exe, bin.join(p)).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let sh = |code: &str| {
        std::process::Command::new("bash")
            .args(["-c", code])
            .env("HOME", home.path())
            .env("PATH", &path)
            .env_remove("MANPATH")
            .env_remove("XDG_DATA_HOME")
            .env_remove("BASH_COMPLETION_USER_DIR")
            .output()
            .unwrap()
    };
    let ran = sh(script);
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let required = std::env::var_os("BESTGUESS_REQUIRE_SHELLS").is_some();
    let found = sh("man -w bestguess bestreport");
    if found.status.code() == Some(127) {
        assert!(
            !required,
            "man is required (BESTGUESS_REQUIRE_SHELLS is set)"
        );
        eprintln!("note: man is not installed; its check is skipped");
    } else {
        let pages = String::from_utf8_lossy(&found.stdout);
        let want = home.path().join(".cargo/share/man/man1/bestguess.1");
        assert!(
            pages.lines().any(|l| std::path::Path::new(l) == want
                || std::fs::canonicalize(l).ok() == std::fs::canonicalize(&want).ok()),
            "man -w: {pages}{}",
            String::from_utf8_lossy(&found.stderr)
        );
    }
    let loader = "/usr/share/bash-completion/bash_completion";
    if std::path::Path::new(loader).exists() {
        let loaded = sh(&format!(
            "source {loader}; __load_completion bestreport; complete -p bestreport"
        ));
        let text = String::from_utf8_lossy(&loaded.stdout);
        assert!(
            text.contains("-F _bestreport bestreport"),
            "{text}{}",
            String::from_utf8_lossy(&loaded.stderr)
        );
    } else {
        assert!(!required, "the bash-completion package is required");
        eprintln!("note: bash-completion is not installed; its check is skipped");
    }
}
