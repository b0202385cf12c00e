//! The scripted executor: a test switch that runs nothing and answers
//! every run with values a script gives, moving a scripted [`Clock`] on by
//! each run's wall-clock time.
//!
//! With `BESTGUESS_SCRIPTED` set to a script, `bestguess` runs the whole
//! program — schedule, hooks, failures, `--runs auto`'s looks and budget,
//! the progress display, the reports — on this executor instead of the
//! launcher, so tests choose every duration and value, and what depends on
//! time comes out the same on a loaded machine as on an idle one. It is a
//! maintainers' switch, like Hyperfine's `--debug-mode`: not in `--help`,
//! said in a note whenever it is on. See ARCHITECTURE.md, "Testing".
//!
//! A script has one line per program:
//!
//! ```text
//! sleep 0.1 => wall=100ms,104ms user=0.4ms system=0.6ms maxrss=2MiB
//! false     => wall=1ms exit=1
//! *         => wall=2ms
//! ```
//!
//! A line applies to the commands and hooks whose text is the part before
//! `=>` (with a shell, the command text; without one, its words joined by
//! spaces); `*` applies to every program no line before it names. After
//! `=>`, each metric the launcher measures, by its `--metric` name (`wall`,
//! `user`, `system`, `maxrss`, `minflt`, `majflt`, `vcsw`, `icsw`), and
//! `exit` or `signal`, takes one value or a comma-separated list: the n-th
//! run of a program (warmups and hooks count) takes the n-th value, the
//! list repeated as needed. Times take a unit (`s`, `ms`, `us`), sizes are
//! bytes or `KiB`, `MiB`, `GiB`; anything not given is 0 (exit status 0).
//! A run longer than `--timeout` is cut there and recorded as timed out,
//! as the launcher does. Blank lines and lines starting with `#` are
//! skipped.

use std::io;
use std::time::Duration;

use crate::data::{Catalogue, Metric, Unit, Values};
use crate::measure::{Batch, ExecError, Executor, Measurement, Outcome, Program, Termination};

use super::clock::Clock;

/// The environment variable that holds the script.
pub const VARIABLE: &str = "BESTGUESS_SCRIPTED";

/// A parsed script.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    lines: Vec<Line>,
}

/// One line: which programs, and their values.
#[derive(Clone, Debug, PartialEq)]
struct Line {
    program: String,
    fields: Vec<(Field, Vec<i64>)>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Field {
    Metric(Metric),
    Exit,
    Signal,
}

impl Script {
    /// Reads a script; an error names the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<Script, String> {
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parsed = parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            lines.push(parsed);
        }
        if lines.is_empty() {
            return Err("no line names a program (PROGRAM => wall=10ms ...)".into());
        }
        Ok(Script { lines })
    }

    /// The line that applies to `program`.
    fn line_for(&self, program: &Program) -> Option<usize> {
        let joined = program.argv.join(" ");
        let text = program.argv.last().map_or("", String::as_str);
        self.lines
            .iter()
            .position(|l| l.program == "*" || l.program == joined || l.program == text)
    }
}

fn parse_line(line: &str) -> Result<Line, String> {
    let (program, fields) = line
        .rsplit_once("=>")
        .ok_or("no `=>` between the program and its values")?;
    let program = program.trim();
    if program.is_empty() {
        return Err("no program before `=>`".into());
    }
    let fields = fields
        .split_whitespace()
        .map(parse_field)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Line {
        program: program.to_owned(),
        fields,
    })
}

fn parse_field(field: &str) -> Result<(Field, Vec<i64>), String> {
    let (key, values) = field
        .split_once('=')
        .ok_or_else(|| format!("`{field}` is not KEY=VALUE"))?;
    let (field, unit) = match key {
        "exit" => (Field::Exit, Unit::Count),
        "signal" => (Field::Signal, Unit::Count),
        _ => {
            let catalogue = Catalogue::new();
            let found = catalogue
                .iter()
                .find(|(_, d)| d.wire.is_some() && d.name == key);
            let (metric, def) = found.ok_or_else(|| {
                format!(
                    "`{key}` is not one of wall, user, system, maxrss, minflt, majflt, vcsw, \
                     icsw, exit, signal"
                )
            })?;
            (Field::Metric(metric), def.unit)
        }
    };
    let values = values
        .split(',')
        .map(|v| parse_value(v, unit).map_err(|e| format!("{key}={v}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    match field {
        Field::Exit if values.iter().any(|v| !(0..=255).contains(v)) => {
            Err("an exit status is 0 to 255".into())
        }
        Field::Signal if values.iter().any(|v| !(1..=64).contains(v)) => {
            Err("a signal is 1 to 64".into())
        }
        _ => Ok((field, values)),
    }
}

/// A value in the metric's own unit: microseconds for times, bytes, counts.
fn parse_value(v: &str, unit: Unit) -> Result<i64, String> {
    let (number, scale) = match unit {
        Unit::Microseconds => {
            let (n, scale) = [("us", 1.0), ("ms", 1e3), ("s", 1e6)]
                .iter()
                .find_map(|(suffix, scale)| v.strip_suffix(suffix).map(|n| (n, *scale)))
                .ok_or("a time takes a unit: s, ms or us")?;
            (n, scale)
        }
        Unit::Bytes => [("KiB", 1024.0), ("MiB", 1048576.0), ("GiB", 1073741824.0)]
            .iter()
            .find_map(|(suffix, scale)| v.strip_suffix(suffix).map(|n| (n, *scale)))
            .unwrap_or((v, 1.0)),
        _ => (v, 1.0),
    };
    let n: f64 = number.parse().map_err(|_| "not a number".to_string())?;
    let value = (n * scale).round();
    if !(0.0..=1e15).contains(&value) {
        return Err("out of range (0 to 10^15)".into());
    }
    Ok(value as i64)
}

/// Runs nothing: each step's outcome comes from the script, and the clock
/// moves on by its wall-clock time.
pub struct Scripted {
    script: Script,
    clock: Clock,
    /// Per program, its line of the script.
    lines: Vec<usize>,
    /// Per program, how many times it ran.
    runs: Vec<usize>,
    cancelled: bool,
}

impl Scripted {
    /// An executor for `script`, on a scripted clock of its own.
    pub fn new(script: Script) -> Scripted {
        Scripted {
            script,
            clock: Clock::scripted(),
            lines: Vec::new(),
            runs: Vec::new(),
            cancelled: false,
        }
    }

    /// The clock its runs move.
    pub fn clock(&self) -> Clock {
        self.clock.clone()
    }

    /// Runs program `p` once: its outcome, after its time has passed.
    fn run(&mut self, p: usize, timeout: Option<Duration>) -> Measurement {
        let n = self.runs[p];
        self.runs[p] += 1;
        let line = &self.script.lines[self.lines[p]];
        let value = |field: Field| {
            line.fields
                .iter()
                .find(|(f, _)| *f == field)
                .map_or(0, |(_, values)| values[n % values.len()])
        };
        let mut metrics = Values::new();
        for (metric, def) in Catalogue::new().iter() {
            if def.wire.is_some() {
                metrics = metrics.with(metric, value(Field::Metric(metric)));
            }
        }
        let mut wall = value(Field::Metric(Metric::WALL));
        let limit = timeout.map(|t| i64::try_from(t.as_micros()).unwrap_or(i64::MAX));
        let timed_out = limit.is_some_and(|limit| wall > limit);
        if let (true, Some(limit)) = (timed_out, limit) {
            wall = limit;
            metrics = metrics.with(Metric::WALL, wall);
        }
        let termination = match value(Field::Signal) {
            _ if timed_out => Termination::Signaled(libc::SIGKILL),
            0 => Termination::Exited(value(Field::Exit) as i32),
            signal => Termination::Signaled(signal as i32),
        };
        let start_unix_us = self.clock.unix_us();
        self.clock.advance(Duration::from_micros(wall as u64));
        Measurement {
            start_unix_us,
            termination,
            timed_out,
            metrics,
            extras: None,
        }
    }
}

impl Executor for Scripted {
    fn define(&mut self, programs: &[Program]) -> Result<(), ExecError> {
        self.lines = programs
            .iter()
            .map(|p| {
                self.script.line_for(p).ok_or_else(|| ExecError::Spawn {
                    program: p.argv.join(" "),
                    source: io::Error::other(format!("no line of {VARIABLE} names it")),
                })
            })
            .collect::<Result<_, _>>()?;
        self.runs = vec![0; programs.len()];
        Ok(())
    }

    fn run_batch(
        &mut self,
        batch: &Batch<'_>,
        each: &mut dyn FnMut(usize, Outcome) -> bool,
    ) -> Result<(), ExecError> {
        for (i, &p) in batch.steps.iter().enumerate() {
            if self.cancelled {
                each(i, Outcome::Cancelled);
                return Ok(());
            }
            let outcome = Outcome::Finished(self.run(p as usize, batch.timeout));
            let ends = outcome.ends_batch(batch.stop_on_failure);
            if !each(i, outcome) {
                self.cancelled = true;
            }
            if ends || self.cancelled {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(argv: &[&str]) -> Program {
        Program {
            argv: argv.iter().map(|s| s.to_string()).collect(),
            show_output: false,
            measured: true,
        }
    }

    fn batch(steps: &[u32]) -> Batch<'_> {
        Batch {
            steps,
            timeout: None,
            stop_on_failure: true,
        }
    }

    /// Every step's outcome, and the clock's time after the batch.
    fn run(exec: &mut Scripted, b: &Batch<'_>) -> Vec<Measurement> {
        let mut out = Vec::new();
        exec.run_batch(b, &mut |_, o| {
            if let Outcome::Finished(m) = o {
                out.push(m);
            }
            true
        })
        .unwrap();
        out
    }

    #[test]
    fn lines_are_read_with_units_and_lists() {
        let s = Script::parse(
            "# a comment\n\nsleep 0.1 => wall=100ms,0.2s user=250us maxrss=2MiB\n* => exit=3",
        )
        .unwrap();
        assert_eq!(s.lines.len(), 2);
        let l = &s.lines[0];
        assert_eq!(l.program, "sleep 0.1");
        assert_eq!(
            l.fields,
            [
                (Field::Metric(Metric::WALL), vec![100_000, 200_000]),
                (Field::Metric(Metric::USER), vec![250]),
                (Field::Metric(Metric::MAXRSS), vec![2 * 1024 * 1024]),
            ]
        );
        assert_eq!(s.lines[1].fields, [(Field::Exit, vec![3])]);
    }

    #[test]
    fn a_bad_line_is_named_with_what_is_wrong() {
        let err = |text: &str| Script::parse(text).unwrap_err();
        assert_eq!(
            err(""),
            "no line names a program (PROGRAM => wall=10ms ...)"
        );
        assert!(err("a\nb wall=1ms").starts_with("line 1: no `=>`"));
        assert!(err("x => wall=100").contains("wall=100: a time takes a unit"));
        assert!(err("x => total=1ms").contains("`total` is not one of wall,"));
        assert!(err("x => exit=256").contains("0 to 255"));
        assert!(err("x => signal=0").contains("1 to 64"));
        assert!(err("x => wall=-1ms").contains("out of range"));
        assert!(err("x => wall").contains("`wall` is not KEY=VALUE"));
        assert!(err(" => wall=1ms").contains("no program"));
    }

    #[test]
    fn runs_take_their_values_in_turn_and_move_the_clock() {
        let script =
            Script::parse("sleep 0.1 => wall=100ms,300ms user=1ms\n* => wall=5ms").unwrap();
        let mut exec = Scripted::new(script);
        let clock = exec.clock();
        let t0 = clock.now();
        // With a shell the text is the last word; without, the words.
        let programs = [program(&["/bin/sh", "-c", "sleep 0.1"]), program(&["true"])];
        exec.define(&programs).unwrap();
        let ms = run(&mut exec, &batch(&[0, 0, 0, 1]));
        let walls: Vec<i64> = ms
            .iter()
            .map(|m| m.metrics.int(Metric::WALL).unwrap())
            .collect();
        assert_eq!(walls, [100_000, 300_000, 100_000, 5_000]);
        assert_eq!(ms[0].metrics.int(Metric::USER), Some(1000));
        assert_eq!(ms[3].metrics.int(Metric::USER), Some(0), "not given: 0");
        assert_eq!(ms[1].start_unix_us - ms[0].start_unix_us, 100_000);
        assert_eq!(clock.since(t0), Duration::from_millis(505));
        assert!(ms.iter().all(|m| m.succeeded()));
    }

    #[test]
    fn a_program_no_line_names_cannot_start() {
        let mut exec = Scripted::new(Script::parse("sleep 1 => wall=1s").unwrap());
        let err = exec.define(&[program(&["sleep", "1"]), program(&["ls"])]);
        let msg = err.unwrap_err().to_string();
        assert_eq!(
            msg,
            "cannot start 'ls': no line of BESTGUESS_SCRIPTED names it"
        );
    }

    #[test]
    fn failures_signals_and_timeouts_are_as_the_launcher_reports_them() {
        let script =
            Script::parse("a => wall=1s exit=0,2\nb => wall=1s signal=11\nc => wall=3s").unwrap();
        let mut exec = Scripted::new(script);
        let clock = exec.clock();
        let t0 = clock.now();
        exec.define(&[program(&["a"]), program(&["b"]), program(&["c"])])
            .unwrap();
        // The second run of `a` fails and ends the batch.
        let ms = run(&mut exec, &batch(&[0, 0, 1]));
        assert_eq!(ms.len(), 2);
        assert_eq!(ms[1].termination, Termination::Exited(2));
        let ms = run(&mut exec, &batch(&[1]));
        assert_eq!(ms[0].termination, Termination::Signaled(11));
        let timed = Batch {
            timeout: Some(Duration::from_millis(1500)),
            ..batch(&[2])
        };
        let ms = run(&mut exec, &timed);
        assert!(ms[0].timed_out);
        assert_eq!(ms[0].termination, Termination::Signaled(libc::SIGKILL));
        assert_eq!(ms[0].metrics.int(Metric::WALL), Some(1_500_000));
        assert_eq!(clock.since(t0), Duration::from_millis(4500));
    }

    #[test]
    fn after_a_cancel_nothing_more_runs() {
        let mut exec = Scripted::new(Script::parse("* => wall=1ms").unwrap());
        exec.define(&[program(&["x"])]).unwrap();
        let mut seen = Vec::new();
        exec.run_batch(&batch(&[0, 0, 0]), &mut |i, o| {
            seen.push((i, matches!(o, Outcome::Finished(_))));
            false
        })
        .unwrap();
        exec.run_batch(&batch(&[0]), &mut |i, o| {
            seen.push((i, matches!(o, Outcome::Finished(_))));
            true
        })
        .unwrap();
        assert_eq!(seen, [(0, true), (0, false)]);
    }
}
