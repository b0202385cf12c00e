//! A run's configuration: its commands (given and from files), each with
//! its hooks and parameter values, the shell, order, counts and budget, as
//! the [`Plan`] the runner follows.

use super::super::lowargs::{Args, CommandArg};
use super::super::{habits, UsageError};
use super::files::read_command_file;
use super::hooks::{check_text, hook_texts, quoted, to_hook};
use super::options::{count, measure_options, seed, timeout, DEFAULT_WARMUP};
use super::params::{check_used, parameters};
use super::{ConfigError, Output, RunConfig};
use crate::experiment::params;
use crate::experiment::MAX_RUNS;
use crate::experiment::{CommandPlan, Hook, HookKind, Hooks, Order, Plan};
use crate::measure::split::split;

pub(super) fn run_config(args: Args, output: Output) -> Result<RunConfig, ConfigError> {
    // `--runs auto` (`output.ranking.adaptive`): at most its rounds, each
    // round asking whether to go on.
    let adaptive = output.ranking.adaptive;
    let runs = match adaptive {
        Some(rule) => rule.max_rounds,
        None => count(args.runs.as_deref(), "-r/--runs", 1, MAX_RUNS)?.unwrap_or(1),
    };
    let warmup =
        count(args.warmup.as_deref(), "-w/--warmup", 0, MAX_RUNS)?.unwrap_or(DEFAULT_WARMUP);
    let order = match args.order.as_deref() {
        None => Order::default(),
        Some(o) => o.parse().map_err(UsageError)?,
    };
    if adaptive.is_some() && order == Order::Sequential {
        return Err(UsageError(
            "--order sequential runs each command's runs in fixed blocks, and --runs auto decides between complete rounds: give -r N, or leave --order out".into(),
        )
        .into());
    }
    let seed = seed(&args)?;
    let timeout = timeout(&args)?;
    let measure = measure_options(&args)?;
    if let Some(problem) = args.output.as_deref().and_then(habits::output_word) {
        return Err(UsageError(problem).into());
    }
    let mut warnings = args.notes.clone();
    let (shell, shell_words) = shell(&args, &mut warnings)?;
    let mut commands: Vec<CommandArg> = args.positional.clone();
    for path in &args.files {
        commands.extend(read_command_file(path)?);
    }
    if commands.is_empty() {
        return Err(UsageError(
            "no commands to run: give at least one, e.g. bestguess -r 20 \"ls -l\"; see --help"
                .into(),
        )
        .into());
    }
    if shell_words.is_none() {
        warnings.extend(shell_syntax(&commands, &args));
    }
    let to_hook = |text: &str, what: &str| to_hook(shell_words.as_deref(), text, what);
    let parameters = parameters(&args)?;
    check_used(&parameters, &commands, &args)?;
    let combos = params::combinations(&parameters);
    let n = commands.len();
    let total = n * combos.len();
    if args.precision.is_some() {
        super::super::stopping::precision_for(total)?;
    }
    let hooks: Vec<Vec<Option<&str>>> = HookKind::ALL
        .iter()
        .map(|&kind| hook_texts(&args, kind, n, &combos))
        .collect::<Result<_, _>>()?;
    let mut plans = Vec::with_capacity(total);
    for (j, (i, binding)) in params::expansion(n, &combos).enumerate() {
        let c = &commands[i];
        let text = params::substitute(&c.text, binding);
        let hook = |k: usize| -> Result<Option<Hook>, UsageError> {
            hooks[k][j]
                .map(|h| to_hook(&params::substitute(h, binding), HookKind::ALL[k].option()))
                .transpose()
        };
        plans.push(CommandPlan {
            command: to_hook(&text, &format!("command {} ({})", j + 1, quoted(&text)))?,
            name: c.name.as_ref().map(|n| params::substitute(n, binding)),
            hooks: Hooks {
                prepare: hook(0)?,
                setup: hook(1)?,
                conclude: hook(2)?,
                cleanup: hook(3)?,
            },
            parameters: binding.clone(),
        });
    }
    Ok(RunConfig {
        plan: Plan {
            commands: plans,
            shell,
            warmup,
            runs,
            adaptive: adaptive.is_some(),
            order,
            seed: seed.unwrap_or(0),
            timeout,
            ignore_failure: args.ignore_failure,
            show_output: args.show_output,
        },
        raw_output: args.output,
        seed_given: seed.is_some(),
        live: args.live,
        command_files: args.files.clone(),
        measure,
        output,
        warnings,
        history: None,
    })
}

/// `-s`/`--shell`: the shell as recorded and its words (`None`: no
/// shell). Hyperfine 2.0's two shell words: "none" (its default, and ours)
/// and "default" (the platform shell); a shell without `-c` gets it, as
/// Hyperfine runs `--shell bash`.
pub(super) fn shell(
    args: &Args,
    warnings: &mut Vec<String>,
) -> Result<(String, Option<Vec<String>>), UsageError> {
    let mut shell = match args.shell.as_deref() {
        None | Some("none") => String::new(),
        Some("default") => "/bin/sh -c".to_string(),
        Some(s) => s.to_string(),
    };
    check_text(&shell, "-s/--shell")?;
    if shell.is_empty() {
        return Ok((shell, None));
    }
    let mut words = split(&shell).map_err(|e| UsageError(format!("-s/--shell: {e}")))?;
    if words.is_empty() {
        return Err(UsageError(
            "-s/--shell is blank: give a shell such as \"/bin/sh -c\"".into(),
        ));
    }
    // The shell recorded is the one that runs.
    if let Some((with_c, note)) = habits::add_c(&shell, &words) {
        warnings.push(note);
        shell.push_str(" -c");
        words = with_c;
    }
    warnings.extend(habits::shell_hint(&shell, &words));
    Ok((shell, Some(words)))
}

/// Without a shell: one warning for the commands and hooks that look
/// like shell syntax (the first named, the others counted).
pub(super) fn shell_syntax(commands: &[CommandArg], args: &Args) -> Option<String> {
    let texts = commands
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("command {} ({})", i + 1, quoted(&c.text)), &c.text))
        .chain(
            args.hooks
                .iter()
                .map(|(kind, text)| (format!("{} {}", kind.option(), quoted(text)), text)),
        );
    let mut found = texts.filter_map(|(what, text)| habits::shell_syntax_warning(&what, text));
    let first = found.next()?;
    Some(match found.count() {
        0 => first,
        n => format!("{first} (as do {n} more commands or hooks)"),
    })
}
