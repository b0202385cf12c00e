//! Performance counters (`--counters`): which ones exist, how they are asked
//! for, what a reading means, and why one could not be opened.
//!
//! The launcher opens them (`perf_event_open`, in `launcher.c`) on itself,
//! disabled, inherited and enabled on exec, so each counts exactly the
//! command from its `exec` on, and everything it starts; this module only
//! names them and interprets the numbers the launcher sends back.

use std::fmt;

/// Software counters are kept by the kernel and work everywhere perf events
/// do (virtual machines included); hardware counters need a PMU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Software,
    Hardware,
}

/// One counter BestGuess knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    /// The name used on the command line and in reports (perf's name).
    pub name: &'static str,
    pub source: Source,
    /// `perf_event_attr.type` and `.config`.
    pub perf_type: u32,
    pub perf_config: u64,
    /// The value is nanoseconds (task-clock), not a count.
    pub nanoseconds: bool,
    /// What it counts, for `--help`, `--limits` and the README.
    pub what: &'static str,
}

// linux/perf_event.h
const PERF_TYPE_HARDWARE: u32 = 0;
const PERF_TYPE_SOFTWARE: u32 = 1;

const fn sw(name: &'static str, config: u64, nanoseconds: bool, what: &'static str) -> Counter {
    Counter {
        name,
        source: Source::Software,
        perf_type: PERF_TYPE_SOFTWARE,
        perf_config: config,
        nanoseconds,
        what,
    }
}

const fn hw(name: &'static str, config: u64, what: &'static str) -> Counter {
    Counter {
        name,
        source: Source::Hardware,
        perf_type: PERF_TYPE_HARDWARE,
        perf_config: config,
        nanoseconds: false,
        what,
    }
}

/// Every counter, in the order `all` measures and reports them.
pub static COUNTERS: [Counter; 10] = [
    sw(
        "task-clock",
        1, // PERF_COUNT_SW_TASK_CLOCK
        true,
        "CPU time in ns, charged at every context switch (not sampled at the tick)",
    ),
    sw(
        "page-faults",
        2, // PERF_COUNT_SW_PAGE_FAULTS
        false,
        "page faults, minor and major",
    ),
    sw(
        "context-switches",
        3, // PERF_COUNT_SW_CONTEXT_SWITCHES
        false,
        "context switches, voluntary and involuntary",
    ),
    sw(
        "cpu-migrations",
        4, // PERF_COUNT_SW_CPU_MIGRATIONS
        false,
        "moves from one CPU to another",
    ),
    hw("instructions", 1, "instructions retired"),
    hw("cycles", 0, "CPU cycles"),
    hw("branches", 4, "branch instructions retired"),
    hw("branch-misses", 5, "mispredicted branches"),
    hw("cache-references", 2, "last-level cache accesses"),
    hw("cache-misses", 3, "last-level cache misses"),
];

/// The counter called `name`.
pub fn by_name(name: &str) -> Option<&'static Counter> {
    COUNTERS.iter().find(|c| c.name == name)
}

/// Parse `--counters`: `all`, or a comma-separated list of names (each at
/// most once). The result keeps [`COUNTERS`] order.
pub fn parse_list(text: &str) -> Result<Vec<&'static Counter>, String> {
    if text.trim() == "all" {
        return Ok(COUNTERS.iter().collect());
    }
    let mut chosen = Vec::new();
    for word in text.split(',').map(str::trim) {
        let Some(c) = by_name(word) else {
            let known: Vec<&str> = COUNTERS.iter().map(|c| c.name).collect();
            return Err(if word == "all" {
                format!("--counters '{text}': 'all' stands alone (it is every counter); give --counters all, or a list without it")
            } else if word.is_empty() {
                format!(
                    "--counters '{text}': empty name; give a comma-separated list of {} or 'all'",
                    known.join(", ")
                )
            } else {
                format!(
                    "--counters: unknown counter '{word}'; known: {}, or 'all'",
                    known.join(", ")
                )
            });
        };
        if chosen.contains(&c) {
            return Err(format!("--counters: '{word}' is given twice"));
        }
        chosen.push(c);
    }
    chosen.sort_by_key(|c| COUNTERS.iter().position(|k| k == *c));
    Ok(chosen)
}

/// One counter's reading for one run, as the launcher sends it: the count
/// and how long the counter was enabled and actually running (they differ
/// when the kernel multiplexed more hardware counters than the PMU has).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawReading {
    pub value: u64,
    pub enabled_ns: u64,
    pub running_ns: u64,
}

/// A counter's value for one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The count, or the estimate `count × enabled / running` if scaled.
    pub value: u64,
    /// The counter ran only part of the time (multiplexed) and `value` is
    /// an estimate scaled up from that part.
    pub scaled: bool,
}

impl RawReading {
    /// What this reading says, or `None` if the counter never ran during
    /// the run (nothing was measured: absent, not zero).
    pub fn reading(&self) -> Option<Reading> {
        if self.enabled_ns == 0 || self.running_ns == 0 {
            return None;
        }
        if self.running_ns >= self.enabled_ns {
            return Some(Reading {
                value: self.value,
                scaled: false,
            });
        }
        let scaled =
            u128::from(self.value) * u128::from(self.enabled_ns) / u128::from(self.running_ns);
        Some(Reading {
            value: u64::try_from(scaled).unwrap_or(u64::MAX),
            scaled: true,
        })
    }
}

/// Why a counter could not be opened, in one line: the counter, the reason,
/// and what would make it work. `paranoid` is
/// `/proc/sys/kernel/perf_event_paranoid`, if readable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenFailure {
    pub counter: &'static Counter,
    pub errno: i32,
    pub paranoid: Option<i32>,
}

impl fmt::Display for OpenFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} not measured: {}", self.counter.name, self.reason())
    }
}

impl OpenFailure {
    /// Why, and what would enable it (without the counter's name).
    pub fn reason(&self) -> String {
        if let Some(why) = super::platform::counters_unavailable() {
            return why.to_owned();
        }
        let hardware = self.counter.source == Source::Hardware;
        let why = match self.errno {
            libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV if hardware => {
                "no hardware performance counters here (no PMU, usual in virtual machines); \
                 run on bare metal or give the VM a virtual PMU (e.g. QEMU/KVM -cpu host)"
                    .to_string()
            }
            libc::ENOENT | libc::EOPNOTSUPP | libc::ENODEV | libc::EINVAL => {
                "the kernel does not support this event".to_string()
            }
            libc::EACCES | libc::EPERM => {
                let level = self
                    .paranoid
                    .map_or_else(|| "unknown".to_string(), |p| p.to_string());
                format!(
                    "permission denied (kernel.perf_event_paranoid is {level}); counting the \
                     command's kernel and user work needs `sysctl kernel.perf_event_paranoid=1` \
                     or lower, or CAP_PERFMON"
                )
            }
            libc::ENOSYS => "this kernel has no perf events (CONFIG_PERF_EVENTS)".to_string(),
            libc::EMFILE | libc::ENFILE => "too many open files (raise `ulimit -n`)".to_string(),
            libc::EBUSY => "the PMU is in use by another program".to_string(),
            e => std::io::Error::from_raw_os_error(e).to_string(),
        };
        why
    }
}

/// The `--limits` lines about CPU time accounting and counters. `errors`
/// holds, for every counter of [`COUNTERS`], the errno of opening it (0:
/// it works here).
pub fn limits_text(errors: &[i32], paranoid: Option<i32>, accounting: Option<&str>) -> String {
    let mut s = String::from("  CPU time: ");
    s.push_str(match accounting {
        Some("tick") => {
            "this kernel splits user/system time by timer-tick samples\n  \
             (CONFIG_TICK_CPU_ACCOUNTING): a short run's split is rough, total CPU time is precise.\n"
        }
        Some(_) => "this kernel measures user/system time at kernel entry and exit (precise split).\n",
        None => {
            "kernel configuration not readable; with tick-based accounting (most distributions)\n  \
             a short run's user/system split is rough, total CPU time is precise.\n"
        }
    });
    let works: Vec<&str> = COUNTERS
        .iter()
        .zip(errors)
        .filter(|(_, &e)| e == 0)
        .map(|(c, _)| c.name)
        .collect();
    s.push_str(&format!(
        "  Counters (--counters) that work here: {}.\n",
        if works.is_empty() {
            "none".to_string()
        } else {
            works.join(", ")
        }
    ));
    // Failures grouped by reason: one line for all six hardware counters.
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (c, &errno) in COUNTERS.iter().zip(errors).filter(|(_, &e)| e != 0) {
        let why = OpenFailure {
            counter: c,
            errno,
            paranoid,
        }
        .reason();
        match groups.iter_mut().find(|(w, _)| *w == why) {
            Some((_, names)) => names.push(c.name),
            None => groups.push((why, vec![c.name])),
        }
    }
    for (why, names) in groups {
        s.push_str(&format!("  Not available: {}: {why}.\n", names.join(", ")));
    }
    if let Some(p) = paranoid {
        s.push_str(&format!("  kernel.perf_event_paranoid = {p}.\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_in_catalogue_order_and_all_means_all() {
        let names = |s: &str| {
            parse_list(s)
                .unwrap()
                .iter()
                .map(|c| c.name)
                .collect::<Vec<_>>()
        };
        assert_eq!(names("cycles, task-clock"), ["task-clock", "cycles"]);
        assert_eq!(names("all").len(), 10);
        assert!(parse_list("task-clock,nope")
            .unwrap_err()
            .contains("unknown counter 'nope'"));
        assert!(parse_list("all,task-clock")
            .unwrap_err()
            .contains("'all' stands alone"));
        assert!(parse_list("cycles,cycles").unwrap_err().contains("twice"));
        assert!(parse_list("").unwrap_err().contains("empty name"));
    }

    #[test]
    fn readings_scale_when_multiplexed_and_are_absent_when_never_running() {
        let full = RawReading {
            value: 1000,
            enabled_ns: 50,
            running_ns: 50,
        };
        assert_eq!(
            full.reading(),
            Some(Reading {
                value: 1000,
                scaled: false
            })
        );
        let quarter = RawReading {
            value: 1000,
            enabled_ns: 400,
            running_ns: 100,
        };
        assert_eq!(
            quarter.reading(),
            Some(Reading {
                value: 4000,
                scaled: true
            })
        );
        let never = RawReading {
            value: 0,
            enabled_ns: 400,
            running_ns: 0,
        };
        assert_eq!(never.reading(), None);
        assert_eq!(RawReading::default().reading(), None);
        let huge = RawReading {
            value: u64::MAX,
            enabled_ns: u64::MAX,
            running_ns: 1,
        };
        assert_eq!(huge.reading().unwrap().value, u64::MAX);
    }

    // Linux measurement path only: the reasons are perf_event_open's.
    #[cfg(bestguess_linux)]
    #[test]
    fn limits_group_counters_by_reason() {
        let mut errors = [0; 10];
        errors[4..].fill(libc::ENOENT);
        let text = limits_text(&errors, Some(2), Some("tick"));
        assert!(
            text.contains("work here: task-clock, page-faults, context-switches, cpu-migrations.")
        );
        assert!(text.contains("Not available: instructions, cycles, branches, branch-misses, cache-references, cache-misses: no hardware performance"));
        assert!(text.contains("CONFIG_TICK_CPU_ACCOUNTING"));
        assert!(text.contains("perf_event_paranoid = 2"));
        assert!(limits_text(&[libc::EACCES; 10], None, None).contains("work here: none."));
    }

    /// The portable build names itself as the reason, once for all.
    #[cfg(not(bestguess_linux))]
    #[test]
    fn the_portable_build_is_the_reason_for_every_counter() {
        let cycles = by_name("cycles").unwrap();
        let failure = OpenFailure {
            counter: cycles,
            errno: libc::EOPNOTSUPP,
            paranoid: None,
        };
        assert_eq!(
            failure.to_string(),
            "cycles not measured: the portable build has no performance counters (they need \
             Linux's perf events)"
        );
        let text = limits_text(&[libc::EOPNOTSUPP; 10], None, None);
        assert!(text.contains("work here: none."), "{text}");
        assert_eq!(text.matches("Not available:").count(), 1, "{text}");
    }

    // Linux measurement path only: the reasons are perf_event_open's.
    #[cfg(bestguess_linux)]
    #[test]
    fn open_failures_say_what_would_enable_the_counter() {
        let cycles = by_name("cycles").unwrap();
        let no_pmu = OpenFailure {
            counter: cycles,
            errno: libc::ENOENT,
            paranoid: Some(2),
        }
        .to_string();
        assert!(no_pmu.starts_with("cycles not measured: no hardware performance counters"));
        let denied = OpenFailure {
            counter: by_name("task-clock").unwrap(),
            errno: libc::EACCES,
            paranoid: Some(3),
        }
        .to_string();
        assert!(denied.contains("perf_event_paranoid is 3"), "{denied}");
        assert!(denied.contains("CAP_PERFMON"));
        assert!(!denied.contains('\n') && !no_pmu.contains('\n'));
    }
}
