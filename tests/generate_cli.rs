//! `--generate`: the man page and the completion scripts of both programs,
//! checked by the tools that read them (bash, zsh, fish, groff).
//!
//! zsh, fish and groff may be missing on a developer's machine; then their
//! checks print a note and pass. CI installs them and sets
//! `BESTGUESS_REQUIRE_SHELLS=1`, which turns a missing tool into a failure.

use std::path::Path;
use std::process::Command;

use bestguess::cli::flags;

const PROGRAMS: [(&str, bool); 2] = [("bestguess", true), ("bestreport", false)];

fn generate(program: &str, kind: &str) -> String {
    let out = assert_cmd::Command::cargo_bin(program)
        .unwrap()
        .args(["--generate", kind])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// Whether `tool` can be run; if not, CI must fail and a developer is told.
fn have(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("BESTGUESS_REQUIRE_SHELLS").is_none(),
            "{tool} is required (BESTGUESS_REQUIRE_SHELLS is set)"
        );
        eprintln!("note: {tool} is not installed; its check is skipped");
    }
    found
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn run(tool: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(tool).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bash_completion_is_valid_and_completes_options_and_values() {
    let dir = tempfile::tempdir().unwrap();
    for (program, running) in PROGRAMS {
        let script = write(dir.path(), program, &generate(program, "complete-bash"));
        let (ok, _, err) = run("bash", &["-n", &script]);
        assert!(ok, "bash -n {program}: {err}");
        // Drive the completion function as bash would.
        let func = format!("_{program}");
        let complete = |words: &str| -> String {
            let probe = format!(
                "source {script}; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); \
                 {func}; printf '%s\\n' \"${{COMPREPLY[@]}}\""
            );
            let (ok, out, err) = run("bash", &["-c", &probe]);
            assert!(ok, "{program} {words}: {err}");
            out
        };
        let options = complete(&format!("{program} --ex"));
        assert!(options.contains("--export-json\n"), "{options}");
        assert!(options.contains("--explain\n"), "{options}");
        assert_eq!(
            complete(&format!("{program} --w")).contains("--warmup"),
            running
        );
        let values = complete(&format!("{program} --generate complete-"));
        assert_eq!(values, "complete-bash\ncomplete-zsh\ncomplete-fish\n");
        let short = complete(&format!("{program} -A r"));
        assert_eq!(short, "run\nreport\n");
    }
}

#[test]
fn zsh_completion_is_valid() {
    if !have("zsh") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (program, _) in PROGRAMS {
        let text = generate(program, "complete-zsh");
        assert!(text.starts_with(&format!("#compdef {program}\n")));
        let script = write(dir.path(), &format!("_{program}"), &text);
        let (ok, _, err) = run("zsh", &["-n", &script]);
        assert!(ok, "zsh -n {program}: {err}");
    }
}

#[test]
fn fish_completion_is_valid_and_completes() {
    if !have("fish") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (program, running) in PROGRAMS {
        let script = write(
            dir.path(),
            &format!("{program}.fish"),
            &generate(program, "complete-fish"),
        );
        let (ok, _, err) = run("fish", &["--no-execute", &script]);
        assert!(ok, "fish -n {program}: {err}");
        let complete = |line: &str| -> String {
            let probe = format!("source {script}; complete -C '{line}'");
            let (ok, out, err) = run("fish", &["--no-config", "-c", &probe]);
            assert!(ok, "{line}: {err}");
            out
        };
        let out = complete(&format!("{program} --export-j"));
        assert!(out.starts_with("--export-json\t"), "{out}");
        assert_eq!(
            complete(&format!("{program} --ord")).contains("--order"),
            running
        );
        if running {
            let out = complete("bestguess --order ");
            let words: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
            assert_eq!(words, ["interleave", "random", "sequential"]);
        }
    }
}

#[test]
fn man_pages_render_cleanly_and_list_every_option() {
    let dir = tempfile::tempdir().unwrap();
    for (program, running) in PROGRAMS {
        let page = generate(program, "man");
        if have("groff") {
            let path = write(dir.path(), &format!("{program}.1"), &page);
            let out = Command::new("groff")
                .args(["-man", "-Tutf8", "-ww", &path])
                .env("GROFF_NO_SGR", "1")
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success() && err.is_empty(), "groff: {err}");
            // The rendered page (what `man` shows), overstriking removed.
            let text = String::from_utf8_lossy(&out.stdout).replace("\u{2010}", "-");
            let text: String = {
                let mut t = String::new();
                for c in text.chars() {
                    if c == '\u{8}' {
                        t.pop();
                    } else {
                        t.push(c);
                    }
                }
                t
            };
            for f in flags::all() {
                let listed = text.contains(&format!("--{}", f.long));
                assert_eq!(listed, f.applies(running), "{program}.1 and --{}", f.long);
                for alias in f.long_aliases.iter() {
                    assert_eq!(text.contains(&format!("--{alias}")), f.applies(running));
                }
            }
        }
        assert!(page.starts_with(&format!(".TH {} 1", program.to_uppercase())));
    }
}

/// `--help` at the width `COLUMNS` gives (80 when standard output is not a
/// terminal and `COLUMNS` is unset): no line wider, and no word broken:
/// the words at every width are those at the widest, in the same order.
#[test]
fn help_keeps_to_the_width() {
    let help = |program: &str, columns: Option<&str>| {
        let mut cmd = assert_cmd::Command::cargo_bin(program).unwrap();
        cmd.arg("--help").env_remove("COLUMNS");
        if let Some(c) = columns {
            cmd.env("COLUMNS", c);
        }
        let out = cmd.assert().success().get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    };
    for (program, _) in PROGRAMS {
        let widest = help(program, Some("100"));
        let words = |t: &str| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        for columns in [None, Some("80"), Some("60"), Some("100")] {
            let text = help(program, columns);
            let width: usize = columns.map_or(80, |c| c.parse().unwrap());
            for line in text.lines() {
                assert!(
                    line.chars().count() <= width,
                    "{program} at {columns:?}: {} columns: {line}",
                    line.chars().count()
                );
            }
            assert_eq!(words(&text), words(&widest), "{program} at {columns:?}");
        }
        // Not one line over 80 by default (Hyperfine's has one).
        let plain = help(program, None);
        assert!(plain.lines().all(|l| l.chars().count() <= 80), "{plain}");
    }
}

#[test]
fn man_pages_have_examples_every_exit_status_and_whole_sentences() {
    for (program, _) in PROGRAMS {
        let page = generate(program, "man");
        for section in ["EXIT STATUS", "EXAMPLES", "ENVIRONMENT", "SEE ALSO"] {
            assert!(
                page.contains(&format!(".SH {section}\n")),
                "{program}: {section}"
            );
        }
        for code in ["0", "1", "2", "3", "129, 130, 131, 143"] {
            assert!(
                page.contains(&format!(".TP\n{code}\n")),
                "{program}: {code}"
            );
        }
        // From OPTIONS on, every paragraph is sentences: a line ends with a
        // full stop, so that nothing roff joins after it runs into it (as
        // in "… bestguess One of: …").
        let lines: Vec<&str> = page.lines().collect();
        let from = lines.iter().position(|l| *l == ".SH OPTIONS").unwrap();
        let mut literal = false;
        for (i, line) in lines.iter().enumerate().skip(from) {
            literal = match *line {
                ".nf" => true,
                ".fi" => false,
                _ => literal,
            };
            // The line after .TP is the tag (the option's names).
            let tag = lines[i - 1] == ".TP";
            if !line.starts_with('.') && !line.is_empty() && !literal && !tag {
                assert!(line.ends_with('.'), "{program}: not a sentence: {line:?}");
            }
        }
    }
}

#[test]
fn completions_offer_metric_names_and_setting_names() {
    let dir = tempfile::tempdir().unwrap();
    for (program, _) in PROGRAMS {
        let script = write(dir.path(), program, &generate(program, "complete-bash"));
        let func = format!("_{program}");
        let complete = |words: &str| -> String {
            let probe = format!(
                "source {script}; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); \
                 {func}; printf '%s\\n' \"${{COMPREPLY[@]}}\""
            );
            let (ok, out, err) = run("bash", &["-c", &probe]);
            assert!(ok, "{program} {words}: {err}");
            out
        };
        assert_eq!(complete(&format!("{program} --metric w")), "wall\n");
        let all = complete(&format!("{program} --metric ''"));
        for name in ["cpu", "wall", "user", "system", "rss", "ctxsw"] {
            assert!(all.lines().any(|l| l == name), "{name}: {all}");
        }
        assert_eq!(complete(&format!("{program} -c al")), "alpha=\n");
        assert_eq!(complete(&format!("{program} --set w")), "width=\n");
        if have("fish") {
            let script = write(
                dir.path(),
                &format!("{program}.fish"),
                &generate(program, "complete-fish"),
            );
            let probe = format!("source {script}; complete -C '{program} -c ep'");
            let (ok, out, err) = run("fish", &["--no-config", "-c", &probe]);
            assert!(ok, "{err}");
            assert!(out.starts_with("epsilon="), "{out}");
        }
    }
}
