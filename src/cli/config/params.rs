//! Parameter scans (`-P`) and lists (`-L`): names, values and the number
//! of combinations checked, every parameter used.

use super::super::lowargs::{Args, CommandArg, ParamArg};
use super::super::UsageError;
use super::hooks::quoted;
use crate::experiment::params::{self, mentions, Parameter};

/// The parameters of `-P` and `-L`, in the order given, checked.
pub(super) fn parameters(args: &Args) -> Result<Vec<Parameter>, UsageError> {
    let scans = args
        .parameters
        .iter()
        .filter(|p| matches!(p, ParamArg::Scan { .. }))
        .count();
    if args.step_size.is_some() && scans == 0 {
        return Err(UsageError(
            "--parameter-step-size needs a scan: give -P/--parameter-scan NAME MIN MAX".into(),
        ));
    }
    let mut out: Vec<Parameter> = Vec::new();
    for p in &args.parameters {
        let (option, name) = match p {
            ParamArg::Scan { name, .. } => ("-P/--parameter-scan", name),
            ParamArg::List { name, .. } => ("-L/--parameter-list", name),
        };
        if name.is_empty() || name.contains(['{', '}']) || name.contains(char::is_whitespace) {
            return Err(UsageError(format!(
                "{option}: parameter name '{name}' must be a word without braces or blanks (it is written {{NAME}} in commands)"
            )));
        }
        if out.iter().any(|q| q.name == *name) {
            return Err(UsageError(format!(
                "parameter '{name}' is given twice: give each parameter once"
            )));
        }
        out.push(match p {
            ParamArg::Scan { name, min, max } => {
                Parameter::scan(name, min, max, args.step_size.as_deref()).map_err(|e| {
                    let step = match &args.step_size {
                        Some(s) => format!(" --parameter-step-size {s}"),
                        None => String::new(),
                    };
                    UsageError(format!("-P {name} {min} {max}{step}: {e}"))
                })?
            }
            ParamArg::List { name, values } => {
                let list = Parameter::list(name, values);
                // As an unused parameter is refused: one command measured
                // twice under two labels is a typo, not an experiment.
                let mut seen = std::collections::HashSet::new();
                let twice = list.values.iter().position(|v| !seen.insert(v));
                if let Some(i) = twice {
                    return Err(UsageError(format!(
                        "-L {name}: the value {} is given twice, which would measure the same commands twice; give each value once",
                        quoted(&list.values[i])
                    )));
                }
                list
            }
        });
    }
    match params::count(&out) {
        Some(c) if c <= params::MAX_VALUES => Ok(out),
        _ => Err(UsageError(format!(
            "the parameters give more than {} combinations: use fewer values",
            params::MAX_VALUES
        ))),
    }
}

/// Every parameter must be used by a command, a name or a hook.
pub(super) fn check_used(
    parameters: &[Parameter],
    commands: &[CommandArg],
    args: &Args,
) -> Result<(), UsageError> {
    for p in parameters {
        let used = commands.iter().any(|c| {
            mentions(&c.text, &p.name) || c.name.as_ref().is_some_and(|n| mentions(n, &p.name))
        }) || args.hooks.iter().any(|(_, h)| mentions(h, &p.name));
        if !used {
            return Err(UsageError(format!(
                "parameter '{0}' is not used: no command, name or hook contains {{{0}}}",
                p.name
            )));
        }
    }
    Ok(())
}
