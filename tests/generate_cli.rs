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
