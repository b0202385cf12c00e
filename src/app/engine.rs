//! What runs the commands, and the clock the experiment goes by: the
//! launcher on the real clock, or — when `BESTGUESS_SCRIPTED` holds a
//! script — the scripted executor on its scripted clock, the maintainers'
//! test switch ([`crate::experiment::scripted`]; ARCHITECTURE.md,
//! "Testing"). Unset, the variable costs one look-up.

use super::{output, AppError};
use crate::data::Catalogue;
use crate::experiment::scripted::{Script, Scripted, VARIABLE};
use crate::experiment::Clock;
use crate::measure::extras::MeasureOptions;
use crate::measure::launcher::Launcher;
use crate::measure::Executor;

pub enum Engine {
    Launcher(Box<Launcher>),
    Scripted(Scripted),
}

impl Engine {
    /// The scripted executor when `BESTGUESS_SCRIPTED` is set (a note says
    /// so; a script that does not read is a usage error), else the
    /// launcher, started now.
    pub fn start() -> Result<Engine, AppError> {
        let Some(text) = std::env::var_os(VARIABLE) else {
            return Ok(Engine::Launcher(Box::new(start_launcher()?)));
        };
        let script = text
            .to_str()
            .ok_or_else(|| "the script is not UTF-8".to_string())
            .and_then(Script::parse)
            .map_err(|e| AppError::usage(format!("{VARIABLE}: {e}")))?;
        output::note(&format!(
            "bestguess: note: {VARIABLE} is set: no command runs; every run's values and \
             durations come from its script, and so does the time.\n"
        ));
        Ok(Engine::Scripted(Scripted::new(script)))
    }

    pub fn clock(&self) -> Clock {
        match self {
            Engine::Launcher(_) => Clock::real(),
            Engine::Scripted(s) => s.clock(),
        }
    }

    /// Counters, pinning, padding and a metrics file, set up in the
    /// launcher (their metrics registered in `catalogue`): notes to show.
    /// A script measures none of them.
    pub fn set_up_metrics(
        &mut self,
        options: &MeasureOptions,
        seed: u64,
        catalogue: &mut Catalogue,
    ) -> Result<Vec<String>, AppError> {
        match self {
            Engine::Launcher(l) => l
                .set_up_metrics(options, seed, catalogue)
                .map_err(AppError::failure),
            Engine::Scripted(_) if options.is_empty() => Ok(Vec::new()),
            Engine::Scripted(_) => Err(AppError::usage(format!(
                "{VARIABLE} runs nothing: --counters, --custom-metrics, --cpus and \
                 --randomize-env need the launcher; unset {VARIABLE}"
            ))),
        }
    }

    /// From here SIGINT, SIGTERM and SIGHUP cancel the experiment (the
    /// launcher ends the run going on); a script takes no time to cancel.
    pub fn cancel_on_termination_signals(&mut self) -> Result<(), AppError> {
        match self {
            Engine::Launcher(l) => l
                .cancel_on_termination_signals()
                .map_err(|e| AppError::failure(format!("cannot install signal handlers: {e}"))),
            Engine::Scripted(_) => Ok(()),
        }
    }

    pub fn executor(&mut self) -> &mut dyn Executor {
        match self {
            Engine::Launcher(l) => l.as_mut(),
            Engine::Scripted(s) => s,
        }
    }
}

pub fn start_launcher() -> Result<Launcher, AppError> {
    Launcher::start().map_err(|e| AppError::failure(format!("{e}")))
}
