//! What an adaptive experiment says about its budget when it ends: which
//! budget stopped it and after how long, and, when it ran past
//! `--max-time` by more than a round, by how much and why.
//!
//! The budget is checked between rounds, so an experiment may pass it by
//! the round that was going. Beyond that, three things make it longer: the
//! default `--max-time` waits for the first look (the first round at which
//! a verdict is possible, later with more commands), the warm-ups and
//! setups before the first timed run count against it, and the hooks after
//! the last round run after it is checked.

use std::time::Duration;

use crate::analysis::StopReason;

/// How an adaptive experiment spent its time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spent {
    pub stopped: StopReason,
    /// Complete rounds.
    pub rounds: u64,
    pub commands: u64,
    /// The round of the first look.
    pub first_look: u64,
    pub max_rounds: u64,
    pub max_time: Duration,
    /// `--max-time` was given (a default one waits for the first look).
    pub max_time_given: bool,
    /// From the start to the end, hooks after the last round included.
    pub took: Duration,
    /// From the start to the first timed run (warm-ups and setups).
    pub before: Duration,
    /// From the start to when the stopping rule said stop.
    pub stopped_at: Duration,
}

/// Seconds, to a tenth.
fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// The note for standard error, or `None` for an experiment decided within
/// its budget (its ranking says so, as `bestreport`'s does).
pub fn note(s: &Spent) -> Option<String> {
    let round = match s.rounds {
        0 => Duration::ZERO,
        n => s.stopped_at.saturating_sub(s.before) / u32::try_from(n).unwrap_or(u32::MAX),
    };
    // Past the budget by more than the round that was going when it ended
    // and a little slack.
    let over = s.took.saturating_sub(s.max_time);
    let past = over > round + Duration::from_millis(500);
    let rounds = format!("{} round{}", s.rounds, if s.rounds == 1 { "" } else { "s" });
    if !past {
        let budget = match s.stopped {
            StopReason::Decided => return None,
            StopReason::MaxRuns => format!("--max-runs {}", s.max_rounds),
            StopReason::MaxTime => format!("--max-time {}", seconds(s.max_time)),
        };
        return Some(format!(
            "Budget reached ({budget}) after {rounds} in {}: give a larger one to decide what is still open.\n",
            seconds(s.took)
        ));
    }
    let what = match s.stopped {
        StopReason::Decided => "Decided",
        _ => "Stopped",
    };
    let mut advice = Vec::new();
    if !s.max_time_given {
        advice.push("give --max-time (or -r N) to stop sooner");
    }
    if s.stopped != StopReason::Decided {
        advice.push("a larger budget to decide what is still open");
    }
    let mut advice = advice.join(", or ");
    if let Some(c) = advice.get_mut(..1) {
        c.make_ascii_uppercase();
    }
    Some(format!(
        "{what} after {rounds} in {}, {} past --max-time {}: {}.{}\n",
        seconds(s.took),
        seconds(over),
        seconds(s.max_time),
        why(s, round).join("; "),
        if advice.is_empty() {
            String::new()
        } else {
            format!(" {advice}.")
        }
    ))
}

/// Why an experiment ran past its budget by more than a round.
fn why(s: &Spent, round: Duration) -> Vec<String> {
    let mut why = Vec::new();
    if !s.max_time_given && s.rounds <= s.first_look && s.stopped_at > s.max_time {
        why.push(format!(
            "by default the budget waits for the first look, round {} (the first round a verdict is possible with {} command{}), and a round took {}",
            s.first_look,
            s.commands,
            if s.commands == 1 { "" } else { "s" },
            seconds(round)
        ));
    }
    if s.before > s.max_time / 4 {
        why.push(format!(
            "warm-ups and setups took {} before the first timed run",
            seconds(s.before)
        ));
    }
    let after = s.took.saturating_sub(s.stopped_at);
    if after > Duration::from_millis(500) {
        why.push(format!(
            "the commands run after the last round (--conclude, --cleanup) took {}",
            seconds(after)
        ));
    }
    if why.is_empty() {
        why.push(format!(
            "the budget is checked between rounds, and a round took {}",
            seconds(round)
        ));
    }
    why
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// Four `xz` commands of about 0.8 s: a round of 3.2 s, the first look
    /// at round 8, the default budget of 10 s.
    fn scan() -> Spent {
        Spent {
            stopped: StopReason::MaxTime,
            rounds: 8,
            commands: 4,
            first_look: 8,
            max_rounds: 1000,
            max_time: secs(10.0),
            max_time_given: false,
            took: secs(25.6),
            before: secs(3.2),
            stopped_at: secs(25.6),
        }
    }

    #[test]
    fn a_default_budget_past_its_time_says_by_how_much_and_why() {
        let note = note(&scan()).unwrap();
        assert_eq!(
            note,
            "Stopped after 8 rounds in 25.6 s, 15.6 s past --max-time 10.0 s: by default the budget waits for the first look, round 8 (the first round a verdict is possible with 4 commands), and a round took 2.8 s; warm-ups and setups took 3.2 s before the first timed run. Give --max-time (or -r N) to stop sooner, or a larger budget to decide what is still open.\n"
        );
        let decided = note_of(Spent {
            stopped: StopReason::Decided,
            ..scan()
        });
        assert!(
            decided.starts_with("Decided after 8 rounds in 25.6 s, 15.6 s past"),
            "{decided}"
        );
        assert!(
            decided.ends_with("Give --max-time (or -r N) to stop sooner.\n"),
            "{decided}"
        );
    }

    fn note_of(s: Spent) -> String {
        note(&s).unwrap_or_default()
    }

    #[test]
    fn within_a_round_of_the_budget_it_says_only_which_and_when() {
        let kept = Spent {
            took: secs(10.4),
            stopped_at: secs(10.4),
            before: secs(0.2),
            rounds: 40,
            ..scan()
        };
        assert_eq!(
            note_of(kept),
            "Budget reached (--max-time 10.0 s) after 40 rounds in 10.4 s: give a larger one to decide what is still open.\n"
        );
        let decided = Spent {
            stopped: StopReason::Decided,
            ..kept
        };
        assert_eq!(note(&decided), None);
        let runs = Spent {
            stopped: StopReason::MaxRuns,
            max_rounds: 40,
            ..kept
        };
        assert!(note_of(runs).starts_with("Budget reached (--max-runs 40) after 40 rounds"));
    }

    #[test]
    fn a_given_budget_past_its_time_names_the_warmups_or_the_hooks() {
        let given = Spent {
            max_time_given: true,
            max_time: secs(2.0),
            rounds: 1,
            before: secs(6.0),
            stopped_at: secs(6.5),
            took: secs(6.5),
            ..scan()
        };
        let text = note_of(given);
        assert!(
            text.contains("4.5 s past --max-time 2.0 s: warm-ups and setups took 6.0 s"),
            "{text}"
        );
        assert!(
            !text.contains("by default") && !text.contains("stop sooner"),
            "{text}"
        );
        let hooks = Spent {
            rounds: 3,
            before: secs(0.1),
            stopped_at: secs(2.2),
            took: secs(5.0),
            ..given
        };
        let text = note_of(hooks);
        assert!(text.contains("3.0 s past --max-time 2.0 s: the commands run after the last round (--conclude, --cleanup) took 2.8 s."), "{text}");
    }
}
