//! Which command `--reference` names, by number, name or command text,
//! checked against the data or against the plan before anything runs.

use super::{AnalysisError, Reference};
use crate::data::{CommandRuns, Dataset};

/// The input position of the reference command, checked against the data.
pub(crate) fn resolve_reference(
    dataset: &Dataset,
    reference: &Reference,
) -> Result<usize, AnalysisError> {
    let commands: Vec<(&str, &str)> = (dataset.commands.iter())
        .map(|c: &CommandRuns| (c.name.as_str(), c.command.as_str()))
        .collect();
    resolve_reference_among(&commands, reference)
}

/// The index of the command `reference` names among `commands`, each
/// (its `-n` name, empty if none; its command text): so that `bestguess`
/// can check `--reference` against its plan before anything runs.
pub fn resolve_reference_among(
    commands: &[(&str, &str)],
    reference: &Reference,
) -> Result<usize, AnalysisError> {
    let k = commands.len();
    match reference {
        Reference::Number(n) if (1..=k).contains(n) => Ok(n - 1),
        Reference::Number(n) => Err(AnalysisError::Reference(format!(
            "{n}: there {}; give a number from 1 to {k} or a command's name",
            if k == 1 {
                "is only 1 command".to_owned()
            } else {
                format!("are only {k} commands")
            }
        ))),
        Reference::Name(name) => {
            let by = |f: &dyn Fn(&(&str, &str)) -> bool| -> Vec<usize> {
                (0..k).filter(|&i| f(&commands[i])).collect()
            };
            let mut found = by(&|c| c.0 == name.as_str());
            if found.is_empty() {
                found = by(&|c| c.1 == name.as_str());
            }
            match found.as_slice() {
                [i] => Ok(*i),
                [] => Err(AnalysisError::Reference(format!(
                    "'{name}' names no command: give a command's number (from 1), its name (-n) or its exact command text"
                ))),
                _ => Err(AnalysisError::Reference(format!(
                    "'{name}' names {} commands: give the command's number instead",
                    found.len()
                ))),
            }
        }
    }
}
