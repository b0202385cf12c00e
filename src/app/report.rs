//! Reports and exports, shared by both programs: one [`Analysis`] of one
//! [`Dataset`], rendered by the same code. That is what makes the report
//! `bestguess -o FILE` prints identical to `bestreport FILE`.

use std::io::Write;
use std::path::Path;

use super::baseline::Baseline;
use super::output::{self, Export, ReportStream};
use super::provenance;
use super::terminal;
use super::{exit, AppError};
use crate::analysis::{resolve_metric, Analysis};
use crate::cli::{Output, ReportConfig};
use crate::data::{Catalogue, Dataset};
use crate::export::metadata::Metadata;
use crate::export::Format;
use crate::figure::{Figure, Input};
use crate::report;

/// Export files, prepared before anything runs or is read so that a bad path
/// fails fast: one per export format, and one per figure for
/// `--export-svg DIR` (the directory is created if needed). Each is put in
/// place only when complete (see [`Export`]).
pub struct OpenExports {
    files: Vec<(Format, Export)>,
    figures: Vec<(Figure, Export)>,
}

/// The paths of every output an [`Output`] asks for, as (option, path), for
/// [`output::check_paths`]. SVG figures are named by the directory.
pub fn output_paths(output: &Output) -> Vec<(String, String)> {
    let mut paths: Vec<(String, String)> = output
        .exports
        .all()
        .into_iter()
        .map(|(o, p)| (o, p.to_string()))
        .collect();
    if let Some(dir) = &output.svg_dir {
        // The directory itself too: an export given its path would be
        // written into a directory made for the figures ("Is a
        // directory", status 2, an empty directory left behind).
        paths.push(("--export-svg".into(), dir.to_string()));
        for figure in Figure::ALL {
            let path = Path::new(dir).join(format!("{}.svg", figure.name()));
            paths.push(("--export-svg".into(), path.to_string_lossy().into_owned()));
        }
    }
    paths
}

impl OpenExports {
    pub fn open(output: &Output) -> Result<OpenExports, AppError> {
        let mut files = Vec::new();
        for (format, path) in &output.exports.0 {
            let option = format!("--{}", format.option());
            files.push((*format, Export::create(&option, path)?));
        }
        let mut figures = Vec::new();
        if let Some(dir) = &output.svg_dir {
            std::fs::create_dir_all(dir).map_err(|e| {
                // The kernel's "File exists" says nothing of what is wrong.
                let why = match std::fs::metadata(dir) {
                    Ok(m) if !m.is_dir() => {
                        "it exists and is not a directory; give a directory path".to_owned()
                    }
                    _ => e.to_string(),
                };
                AppError::failure(format!(
                    "--export-svg {dir}: cannot create the directory: {why}"
                ))
            })?;
            for figure in Figure::ALL {
                let path = Path::new(dir).join(format!("{}.svg", figure.name()));
                let path = path.to_string_lossy().into_owned();
                figures.push((figure, Export::create("--export-svg", &path)?));
            }
        }
        Ok(OpenExports { files, figures })
    }

    /// Whether an export writes to standard output (reports then go to
    /// standard error).
    pub fn uses_stdout(&self) -> bool {
        self.files.iter().any(|(_, e)| e.is_stdout())
    }
}

/// Write one export completely and put it in place, or say why not.
fn commit(
    mut export: Export,
    write: impl FnOnce(&mut (dyn Write + Send)) -> std::io::Result<()>,
) -> Result<(), AppError> {
    let written = write(export.writer());
    let what = export.what.clone();
    let kept = if export.is_stdout() {
        ""
    } else {
        "; the previous file, if any, is unchanged"
    };
    match written.and_then(|()| export.commit()) {
        Ok(()) => Ok(()),
        // Standard output's reader went away: nothing to keep.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(AppError::failure(format!(
            "{what}: cannot write: {e}{kept}"
        ))),
    }
}

/// Analyse `dataset`, print the selected reports to `out`, write every
/// export and, with a baseline, print the comparison with it. Returns the
/// exit status: [`exit::OK`], or [`exit::REGRESSION`] when the baseline's
/// gate fails.
pub fn finish(
    dataset: &Dataset,
    output: &Output,
    out: &mut ReportStream,
    exports: OpenExports,
    baseline: Option<&Baseline>,
    metadata: &Metadata,
) -> Result<i32, AppError> {
    if dataset.is_empty() {
        return Ok(exit::OK);
    }
    let write_err = |e: std::io::Error| AppError::failure(format!("cannot write the report: {e}"));
    let analysis = Analysis::new(dataset, output.ranking.clone())
        .map_err(|e| AppError::failure(e.to_string()))?;
    // The metric settled (chosen from the data without --metric).
    let ranking = &analysis.settings;
    let gate = baseline
        .map(|b| b.compare(dataset, ranking).map(|g| (b, g)))
        .transpose()?;
    let mut selection = output.selection;
    if output.width_auto {
        selection.width = terminal::report_width();
    }
    report::render(&analysis, &selection, out)
        .and_then(|()| out.flush())
        .map_err(write_err)?;
    let mut warnings = Vec::new();
    let _ = report::warnings::write(&mut warnings, &analysis, selection.width, selection.explain);
    let warnings = String::from_utf8_lossy(&warnings).into_owned();
    // With -Q they are held, and written into the JSON with the rest.
    let quiet = output::quiet();
    if quiet {
        output::note(&warnings);
    }
    let metadata = &Metadata {
        messages: output::held(),
        ..metadata.clone()
    };
    for (format, export) in exports.files {
        commit(export, |w| {
            format.write_with(&analysis, metadata, &output.export, w)
        })?;
    }
    let input = (!exports.figures.is_empty()).then(|| Input::new(&analysis));
    for (f, export) in exports.figures {
        let Some(input) = &input else { break };
        commit(export, |w| f.write(input, w))?;
    }
    let status = match &gate {
        Some((b, gate)) => {
            writeln!(out).map_err(write_err)?;
            let status = b.write(gate, dataset, ranking, out, selection.width)?;
            out.flush().map_err(write_err)?;
            status
        }
        None => exit::OK,
    };
    // Warnings last, on standard error: seen after the reports, never
    // inside an export written to standard output.
    if !quiet {
        output::note(&warnings);
    }
    Ok(status)
}

/// `bestreport FILE…` (and `bestguess -A report FILE…`).
pub fn report_files(rc: &ReportConfig, command_line: &[String]) -> Result<i32, AppError> {
    if let Some(h) = &rc.history {
        return super::history::report(rc, h, command_line);
    }
    let mut inputs: Vec<(&str, &str)> = rc.files.iter().map(|f| ("", f.as_str())).collect();
    if let Some(gate) = &rc.output.gate {
        inputs.push(("--baseline", gate.baseline.as_str()));
    }
    let outputs = output_paths(&rc.output);
    let outputs: Vec<(&str, &str)> = outputs
        .iter()
        .map(|(o, p)| (o.as_str(), p.as_str()))
        .collect();
    output::check_paths(&inputs, &outputs)?;
    let exports = OpenExports::open(&rc.output)?;
    let baseline = Baseline::load(rc.output.gate.as_ref())?;
    let dataset = Dataset::read_files(&rc.files).map_err(|e| AppError::failure(e.to_string()))?;
    // Nothing to report is no success: the exports asked for would not exist.
    if dataset.is_empty() {
        return Err(AppError::failure(format!(
            "{}: no runs to report or export; give files that hold runs",
            rc.files.join(", ")
        )));
    }
    rc.check_commands(dataset.commands.len())
        .map_err(|e| AppError::usage(e.0))?;
    if let Some(note) = dataset.incomplete_runs_note() {
        output::note(&note);
    }
    let mut output = rc.output.clone();
    runs_as_recorded(&mut output, &dataset);
    choose_metric(&mut output, &dataset.catalogue, &[])?;
    // A --reference the data do not have is a usage error, as in bestguess
    // (and as --metric), not a failure (status 2): the option is at fault.
    if let Some(reference) = &output.ranking.reference {
        crate::analysis::resolve_reference(&dataset, reference)
            .map_err(|e| AppError::usage(e.to_string()))?;
    }
    let mut out = ReportStream::new(exports.uses_stdout());
    let metadata = provenance::for_report(command_line, &dataset);
    finish(
        &dataset,
        &output,
        &mut out,
        exports,
        baseline.as_ref(),
        &metadata,
    )
}

/// The runs of an adaptive experiment (`--runs auto`), whose raw file
/// records its rule, are analysed at the experiment's own look and level
/// unless `--runs fixed` asks for a fixed count, which a note qualifies.
fn runs_as_recorded(output: &mut Output, dataset: &Dataset) {
    use crate::cli::stopping::RunsAnalysis;
    let recorded = output.ranking.as_recorded(dataset, output.alpha_given);
    match (output.runs, recorded) {
        (RunsAnalysis::AsRecorded, Some(settings)) => output.ranking = settings,
        (RunsAnalysis::Fixed, Some(_)) => output::note(
            "Note: these runs came from --runs auto, which looked at them as they came;\n  \
             --runs fixed analyses them as a fixed count, whose α does not allow for\n  \
             those looks (leave --runs out to report them as the experiment did).\n",
        ),
        _ => {}
    }
}

/// Resolves `--metric NAME` against the catalogue of the data at hand (a
/// counter or custom metric exists only there) into the ranking settings.
/// `asked`: the counters `--counters` asked for (none for `bestreport`).
pub fn choose_metric(
    output: &mut Output,
    catalogue: &Catalogue,
    asked: &[&crate::measure::counters::Counter],
) -> Result<(), AppError> {
    if let Some(name) = &output.metric {
        output.ranking.metric = resolve_metric(name, catalogue).map_err(|e| {
            let counter = crate::measure::counters::by_name(&name.trim().to_ascii_lowercase());
            match counter {
                // Asked for and not opened (no PMU on this machine): the
                // message says so, not to ask for it (the user did).
                Some(c) if asked.iter().any(|a| a.name == c.name) => AppError::usage(format!(
                    "--metric {name}: the {} counter cannot be read on this machine (see the \
                     note above), so there is nothing to rank by; choose another --metric, \
                     such as cpu or wall",
                    c.name
                )),
                // A counter is measured only when asked for: say how.
                Some(c) => AppError::usage(format!(
                    "{e} ({} is a counter: measure it with --counters {})",
                    c.name, c.name
                )),
                None => AppError::usage(e.to_string()),
            }
        })?;
    }
    Ok(())
}
