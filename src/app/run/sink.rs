//! Where each run goes as it ends: the raw CSV (with `-o`, flushed per
//! row), the dataset's columns, the progress display and `--runs auto`'s
//! stopping rule, which the runner asks at each look.

use std::time::Duration;

use super::adaptive::Adaptive;
use crate::analysis::{Checkpoint, RunTimes};
use crate::app::live::Live;
use crate::app::output::{self, RawOutput};
use crate::app::terminal::Progress;
use crate::cli::RunConfig;
use crate::data::{Catalogue, DatasetBuilder, RunRecord};
use crate::experiment::{Clock, RunSink};

/// Stores every run in memory (in the dataset's columns) and, with `-o`,
/// writes it to the raw CSV (flushed per row); shows progress if asked to.
pub(super) struct Sink {
    pub(super) raw: Option<RawOutput>,
    pub(super) runs: DatasetBuilder,
    pub(super) progress: Option<Progress>,
    /// `--runs auto`: decides when to stop.
    pub(super) adaptive: Option<Adaptive>,
}

impl Sink {
    /// Where the runs of `rc`'s experiment go: the raw file, the dataset,
    /// `--runs auto`'s stopping rule (against the `reference` command) and,
    /// if `show_progress`, the display, started at once.
    pub(super) fn new(
        rc: &RunConfig,
        raw: Option<RawOutput>,
        catalogue: Catalogue,
        reference: Option<usize>,
        show_progress: bool,
        clock: &Clock,
    ) -> Sink {
        let adaptive =
            (rc.output.ranking.adaptive).map(|rule| Adaptive::new(rule, rc, reference, clock));
        let progress = show_progress.then(|| {
            let live = (rc.live).then(|| Live::new(&rc.plan, &rc.output.ranking, clock));
            let mut p = Progress::new(&rc.plan, live, clock);
            if let Some(a) = &adaptive {
                p.rounds(a.rounds());
            }
            p.start(&rc.plan);
            p
        });
        Sink {
            raw,
            runs: DatasetBuilder::new(catalogue),
            progress,
            adaptive,
        }
    }
}

impl RunSink for Sink {
    fn record(&mut self, run: RunRecord) -> std::io::Result<()> {
        if let Some(a) = &mut self.adaptive {
            a.first.get_or_insert_with(|| a.clock.now());
            let cmd = usize::try_from(run.batch).unwrap_or(0).wrapping_sub(1);
            a.stopper
                .record(cmd, run.value(a.metric).map(|v| v.as_f64()));
            if let Some(runs) = a.choosing.as_mut().and_then(|c| c.get_mut(cmd)) {
                runs.push(RunTimes::of(&run.metrics));
            }
        }
        if let Some(p) = &mut self.progress {
            if let Some(a) = &self.adaptive {
                p.rounds(a.rounds());
            }
            p.update(&run);
        }
        let written = match &mut self.raw {
            Some(w) => w.write_run(&run),
            None => Ok(()),
        };
        self.runs.push(&run);
        written
    }

    fn warn(&mut self, message: &str) {
        if let Some(p) = &mut self.progress {
            p.clear();
        }
        output::note(&format!("bestguess: warning: {message}\n"));
    }

    fn starting(&mut self, cmd: usize) {
        if let Some(p) = &mut self.progress {
            p.starting(cmd);
        }
    }

    fn checkpoint(&mut self, rounds: u64) -> Option<u64> {
        let a = self.adaptive.as_mut()?;
        a.choose_metric();
        let since = a.first.map_or(Duration::ZERO, |t| a.clock.since(t));
        let round_time = since / u32::try_from(rounds.max(1)).unwrap_or(u32::MAX);
        let asked = a.stopper.checkpoint(a.clock.since(a.started), round_time);
        // The last look, shown at once (also the one that decides), and
        // the next look in the bar.
        if let Some(p) = &mut self.progress {
            p.rounds(a.rounds());
            if let Some((n, found)) = a.stopper.last.as_ref().filter(|(n, _)| *n == rounds) {
                p.look(*n, found);
            }
        }
        match asked {
            Checkpoint::Until(until) => Some(until),
            Checkpoint::Stop(reason) => {
                a.stopped = Some(reason);
                a.stopped_at = Some(a.clock.since(a.started));
                None
            }
        }
    }
}
