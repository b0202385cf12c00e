//! The README stays true to the programs: its options block is `--help`'s,
//! and its Hyperfine migration table covers every option of Hyperfine 2.0.

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

#[test]
fn the_options_block_is_the_help_text() {
    let help = assert_cmd::Command::cargo_bin("bestguess")
        .unwrap()
        .arg("--help")
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
