//! What is checked before anything starts: no output may overwrite an
//! input (a command file, the baseline, a program the commands run) or
//! another output, `--reference` names a command of the plan, and every
//! program the experiment will start can be started.

use crate::app::{output, report, AppError};
use crate::cli::RunConfig;
use crate::measure::resolve;

/// No output may overwrite an input or another output (usage error,
/// before anything starts).
pub(super) fn check_outputs(rc: &RunConfig) -> Result<(), AppError> {
    let mut inputs: Vec<(&str, &str)> = rc
        .command_files
        .iter()
        .map(|f| ("-f", f.as_str()))
        .collect();
    if let Some(gate) = &rc.output.gate {
        inputs.push(("--baseline", gate.baseline.as_str()));
    }
    let programs = program_files(&rc.plan);
    inputs.extend(programs.iter().map(|p| ("program", p.as_str())));
    let mut outputs: Vec<(String, String)> = rc
        .raw_output
        .iter()
        .map(|p| ("-o".to_string(), p.clone()))
        .collect();
    outputs.extend(report::output_paths(&rc.output));
    let outputs: Vec<(&str, &str)> = outputs
        .iter()
        .map(|(o, p)| (o.as_str(), p.as_str()))
        .collect();
    output::check_paths(&inputs, &outputs)
}

/// The files the commands and hooks name: the program each runs (by a
/// path, `./run.sh`, or found on `PATH`, `mybench`; also as the first word
/// under a shell) and every other word that names a file (`sh bench.sh`,
/// `-p "sh bench.sh"`): inputs no output may overwrite (`-o run.sh
/// ./run.sh` would replace the script by a CSV header, and so would `-o
/// bin/mybench mybench` and `-o bench.sh "sh bench.sh"`).
fn program_files(plan: &crate::experiment::Plan) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut keep = |path: String| {
        if !out.contains(&path) && std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            out.push(path);
        }
    };
    for c in &plan.commands {
        let hooks = [
            &c.hooks.prepare,
            &c.hooks.setup,
            &c.hooks.conclude,
            &c.hooks.cleanup,
        ];
        for hook in std::iter::once(&c.command).chain(hooks.into_iter().flatten()) {
            let words = crate::measure::split::split(&hook.text).unwrap_or_default();
            for (k, word) in hook.argv.iter().chain(&words).enumerate() {
                if k == 0 || k == hook.argv.len() {
                    // A program: where it is found.
                    if let Ok(found) = crate::measure::resolve::resolve(word) {
                        keep(found.to_string_lossy().into_owned());
                    }
                }
                keep(word.clone());
            }
        }
    }
    out
}

/// The `--reference` command's index in the plan: a name that is no
/// command's fails before anything is measured.
pub(super) fn plan_reference(rc: &RunConfig) -> Result<Option<usize>, AppError> {
    let Some(reference) = &rc.output.ranking.reference else {
        return Ok(None);
    };
    let commands: Vec<(&str, &str)> = (rc.plan.commands.iter())
        .map(|c| (c.name.as_deref().unwrap_or(""), c.command.text.as_str()))
        .collect();
    crate::analysis::resolve_reference_among(&commands, reference)
        .map(Some)
        .map_err(|e| AppError::usage(e.to_string()))
}

/// Every program the experiment will start must exist and be executable,
/// checked before any timing starts (also with `-i`).
pub(super) fn preflight(rc: &RunConfig) -> Result<(), AppError> {
    for (i, c) in rc.plan.commands.iter().enumerate() {
        let hooks = [
            &c.hooks.prepare,
            &c.hooks.setup,
            &c.hooks.conclude,
            &c.hooks.cleanup,
        ];
        for (what, hook) in std::iter::once((None, Some(&c.command))).chain(
            ["--prepare", "--setup", "--conclude", "--cleanup"]
                .into_iter()
                .zip(hooks)
                .map(|(o, h)| (Some(o), h.as_ref())),
        ) {
            let Some(hook) = hook else { continue };
            if let Err(e) = resolve::check_startable(&hook.argv) {
                // A command too long for the kernel is too long to quote.
                let text = |t: &str| match t.char_indices().nth(60) {
                    Some((at, _)) => format!("{}…", &t[..at]),
                    None => t.to_owned(),
                };
                let subject = match what {
                    None => format!("command {} ('{}')", i + 1, text(&c.command.text)),
                    Some(option) => {
                        format!(
                            "the {option} command '{}' of command {}",
                            text(&hook.text),
                            i + 1
                        )
                    }
                };
                let not_found = matches!(e, resolve::ResolveError::NotFound(_));
                let hint = if rc.plan.shell.is_empty() && not_found {
                    "; for shell built-ins, pipes or redirections use -s \"/bin/sh -c\""
                } else {
                    ""
                };
                return Err(AppError::failure(format!(
                    "{subject} cannot be started: {e}{hint}"
                )));
            }
        }
    }
    Ok(())
}
