//! The schedule of an experiment: which program runs at each step, produced
//! as the experiment goes rather than laid out in advance, so memory does
//! not grow with the number of runs (`-r 100000000` needs no more than
//! `-r 10`).
//!
//! Sequential order runs blocks of one command's runs, mirrored: the first
//! ⌈n/2⌉ runs of every command in input order, the last command's whole
//! n, then the other ⌊n/2⌋ of the others in reverse order (A B C B A; one
//! command keeps one block). Every block is what Hyperfine makes of a
//! command: `setup`, then per warmup `prepare, warmup, conclude`, then per
//! timed run `prepare, run, conclude`, then `cleanup`. With `interleave`/`random`,
//! every command's setup and warmups come first (in input order), then the
//! rounds, then every cleanup. A random round is the previous round
//! shuffled again by the seeded [`SplitMix64`], so a seed reproduces the
//! order in every version.

use crate::measure::Program;

use super::{Hook, HookKind, Order, Plan, SplitMix64};

/// What one step of the schedule does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Hook(HookKind),
    Warmup,
    Run,
}

/// One step: what, for which command, and which program runs.
#[derive(Clone, Copy, Debug)]
pub struct ScheduledStep {
    pub cmd: usize,
    pub kind: Kind,
    pub program: u32,
}

/// The programs of an experiment and, per command, the index of its command
/// and of each of its hooks.
pub struct Programs {
    pub list: Vec<Program>,
    /// Per command: command, prepare, setup, conclude, cleanup.
    slots: Vec<[Option<u32>; 5]>,
}

impl Programs {
    pub fn of(plan: &Plan) -> Programs {
        let mut list = Vec::new();
        let mut slots = Vec::with_capacity(plan.commands.len());
        let mut add = |argv: &[String], show_output: bool, measured: bool| {
            list.push(Program {
                argv: argv.to_vec(),
                show_output,
                measured,
            });
            Some(list.len() as u32 - 1)
        };
        for c in &plan.commands {
            let h = &c.hooks;
            // Hooks are never timed and their output is always discarded.
            let mut hook =
                |hook: &Option<Hook>| hook.as_ref().and_then(|h| add(&h.argv, false, false));
            let prepare = hook(&h.prepare);
            let setup = hook(&h.setup);
            let conclude = hook(&h.conclude);
            let cleanup = hook(&h.cleanup);
            let command = add(&c.command.argv, plan.show_output, true);
            slots.push([command, prepare, setup, conclude, cleanup]);
        }
        Programs { list, slots }
    }

    pub fn hook(&self, cmd: usize, kind: HookKind) -> Option<u32> {
        let slot = match kind {
            HookKind::Prepare => 1,
            HookKind::Setup => 2,
            HookKind::Conclude => 3,
            HookKind::Cleanup => 4,
        };
        self.slots[cmd][slot]
    }

    pub fn command(&self, cmd: usize) -> u32 {
        self.slots[cmd][0].unwrap_or_default()
    }
}

/// A unit of the experiment before its hooks are added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Setup,
    Warmup,
    Run,
    Cleanup,
}

/// Where the schedule is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// The current command's setup (every order).
    Setup,
    /// The current command's warmups.
    Warmup,
    /// The current block's timed runs (sequential order).
    Runs,
    /// The current block's cleanup (sequential order).
    Cleanup,
    /// Rounds of one run per command (interleave and random).
    Rounds,
    /// Every command's cleanup after the rounds.
    Cleanups,
    Done,
}

/// The steps of a plan, one at a time, in order. Its memory is a few words
/// per command, whatever the number of runs.
pub struct Schedule<'a> {
    plan: &'a Plan,
    programs: &'a Programs,
    part: Part,
    cmd: usize,
    /// Warmups or runs done in the current part; rounds done in `Rounds`.
    done: u64,
    /// Sequential order: the current block (see [`Schedule::block_at`]).
    block: usize,
    /// The current round's order, and the position in it.
    round: Vec<usize>,
    pos: usize,
    rng: SplitMix64,
    /// An adaptive experiment's pause: no round begins after this many
    /// until [`Schedule::resume`] moves it (`None`: every round of the plan).
    limit: Option<u64>,
    /// Steps of the current unit not yet handed out (at most three).
    pending: [Option<ScheduledStep>; 3],
    next_pending: usize,
}

impl<'a> Schedule<'a> {
    pub fn new(plan: &'a Plan, programs: &'a Programs) -> Schedule<'a> {
        let n = plan.commands.len();
        Schedule {
            plan,
            programs,
            part: if n == 0 { Part::Done } else { Part::Setup },
            cmd: 0,
            done: 0,
            block: 0,
            round: (0..n).collect(),
            pos: n,
            rng: SplitMix64::new(plan.seed),
            limit: plan.adaptive.then_some(1),
            pending: [None; 3],
            next_pending: 3,
        }
    }

    fn rounds(&self) -> bool {
        self.plan.order != Order::Sequential
    }

    /// Sequential order: block `b`'s command and runs, `None` past the
    /// last. Mirrored blocks put every command's runs both early and late,
    /// so a change of the machine's speed at any moment changes some
    /// command's own runs, where the drift check sees it, and a steady
    /// drift affects every command alike.
    fn block_at(&self, b: usize) -> Option<(usize, u64)> {
        let (k, runs) = (self.plan.commands.len(), self.plan.runs);
        let first = runs.div_ceil(2);
        match b {
            _ if b + 1 < k => Some((b, first)),
            _ if b + 1 == k => Some((b, runs)),
            _ if b + 1 < 2 * k && runs > first => Some((2 * k - 2 - b, runs - first)),
            _ => None,
        }
    }

    /// Paused at a round boundary of an adaptive experiment: the rounds
    /// done, to be followed by [`Schedule::resume`] or [`Schedule::finish`].
    pub fn paused(&self) -> Option<u64> {
        let boundary = self.part == Part::Rounds && self.pos == self.plan.commands.len();
        let limit = self.limit?;
        (boundary && self.done >= limit && self.done < self.plan.runs).then_some(self.done)
    }

    /// Go on until `rounds` rounds are done (at most the plan's).
    pub fn resume(&mut self, rounds: u64) {
        self.limit = Some(rounds.min(self.plan.runs));
    }

    /// No more rounds: the cleanups, then the end.
    pub fn finish(&mut self) {
        if self.part == Part::Rounds {
            self.part = Part::Cleanups;
            self.cmd = 0;
        }
    }

    /// The next unit, or None at the end.
    fn next_unit(&mut self) -> Option<(usize, Unit)> {
        let n = self.plan.commands.len();
        loop {
            match self.part {
                Part::Setup => {
                    self.part = Part::Warmup;
                    self.done = 0;
                    return Some((self.cmd, Unit::Setup));
                }
                Part::Warmup => {
                    if self.done < self.plan.warmup {
                        self.done += 1;
                        return Some((self.cmd, Unit::Warmup));
                    }
                    self.done = 0;
                    if !self.rounds() {
                        self.part = Part::Runs;
                    } else if self.cmd + 1 < n {
                        self.cmd += 1;
                        self.part = Part::Setup;
                    } else {
                        self.part = Part::Rounds;
                    }
                }
                Part::Runs => {
                    if self.done < self.block_at(self.block).map_or(0, |b| b.1) {
                        self.done += 1;
                        return Some((self.cmd, Unit::Run));
                    }
                    self.part = Part::Cleanup;
                }
                Part::Cleanup => {
                    let cmd = self.cmd;
                    self.block += 1;
                    self.part = match self.block_at(self.block) {
                        Some((next, _)) => {
                            self.cmd = next;
                            Part::Setup
                        }
                        None => Part::Done,
                    };
                    return Some((cmd, Unit::Cleanup));
                }
                Part::Rounds => {
                    if self.pos == n {
                        if self.done == self.plan.runs {
                            self.part = Part::Cleanups;
                            self.cmd = 0;
                            continue;
                        }
                        if self.limit.is_some_and(|limit| self.done >= limit) {
                            return None;
                        }
                        self.done += 1;
                        if self.plan.order == Order::Random {
                            self.rng.shuffle(&mut self.round);
                        }
                        self.pos = 0;
                    }
                    let cmd = self.round[self.pos];
                    self.pos += 1;
                    return Some((cmd, Unit::Run));
                }
                Part::Cleanups => {
                    if self.cmd < n {
                        self.cmd += 1;
                        return Some((self.cmd - 1, Unit::Cleanup));
                    }
                    self.part = Part::Done;
                }
                Part::Done => return None,
            }
        }
    }

    /// Queue the steps of one unit: its hooks around it.
    fn expand(&mut self, cmd: usize, unit: Unit) {
        let programs = self.programs;
        let hook = |kind: HookKind| {
            programs.hook(cmd, kind).map(|program| ScheduledStep {
                cmd,
                kind: Kind::Hook(kind),
                program,
            })
        };
        let timed = |kind: Kind| ScheduledStep {
            cmd,
            kind,
            program: programs.command(cmd),
        };
        self.pending = match unit {
            Unit::Setup => [hook(HookKind::Setup), None, None],
            Unit::Cleanup => [hook(HookKind::Cleanup), None, None],
            Unit::Warmup => [
                hook(HookKind::Prepare),
                Some(timed(Kind::Warmup)),
                hook(HookKind::Conclude),
            ],
            Unit::Run => [
                hook(HookKind::Prepare),
                Some(timed(Kind::Run)),
                hook(HookKind::Conclude),
            ],
        };
        self.next_pending = 0;
    }
}

impl Iterator for Schedule<'_> {
    type Item = ScheduledStep;

    fn next(&mut self) -> Option<ScheduledStep> {
        loop {
            while self.next_pending < self.pending.len() {
                let step = self.pending[self.next_pending].take();
                self.next_pending += 1;
                if step.is_some() {
                    return step;
                }
            }
            let (cmd, unit) = self.next_unit()?;
            self.expand(cmd, unit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Hooks;

    use crate::experiment::plan::{test_hook as hook, test_plan};

    fn plan(commands: &[&str], warmup: u64, runs: u64, order: Order) -> Plan {
        test_plan(commands, warmup, runs, order, 7)
    }

    /// The whole schedule as text: `cmd:kind`, built the obvious eager way.
    fn eager(plan: &Plan) -> Vec<String> {
        let mut out = Vec::new();
        let h = |out: &mut Vec<String>, c: usize, k: HookKind| {
            let hooks = &plan.commands[c].hooks;
            let present = match k {
                HookKind::Prepare => &hooks.prepare,
                HookKind::Setup => &hooks.setup,
                HookKind::Conclude => &hooks.conclude,
                HookKind::Cleanup => &hooks.cleanup,
            };
            if present.is_some() {
                out.push(format!("{c}:{k:?}"));
            }
        };
        let one = |out: &mut Vec<String>, c: usize, what: &str| {
            h(out, c, HookKind::Prepare);
            out.push(format!("{c}:{what}"));
            h(out, c, HookKind::Conclude);
        };
        let n = plan.commands.len();
        let start = |out: &mut Vec<String>, c: usize| {
            h(out, c, HookKind::Setup);
            for _ in 0..plan.warmup {
                one(out, c, "Warmup");
            }
        };
        if plan.order == Order::Sequential {
            let first = plan.runs.div_ceil(2);
            let mut blocks: Vec<(usize, u64)> = (0..n).map(|c| (c, first)).collect();
            if let Some(last) = blocks.last_mut() {
                last.1 = plan.runs;
            }
            if plan.runs > first {
                blocks.extend(
                    (0..n.saturating_sub(1))
                        .rev()
                        .map(|c| (c, plan.runs - first)),
                );
            }
            for (c, runs) in blocks {
                start(&mut out, c);
                for _ in 0..runs {
                    one(&mut out, c, "Run");
                }
                h(&mut out, c, HookKind::Cleanup);
            }
        } else {
            for c in 0..n {
                start(&mut out, c);
            }
            let mut rng = SplitMix64::new(plan.seed);
            let mut round: Vec<usize> = (0..n).collect();
            for _ in 0..plan.runs {
                if plan.order == Order::Random {
                    rng.shuffle(&mut round);
                }
                for &c in &round {
                    one(&mut out, c, "Run");
                }
            }
            for c in 0..n {
                h(&mut out, c, HookKind::Cleanup);
            }
        }
        out
    }

    fn lazy(plan: &Plan) -> Vec<String> {
        let programs = Programs::of(plan);
        Schedule::new(plan, &programs)
            .map(|s| match s.kind {
                Kind::Hook(k) => format!("{}:{k:?}", s.cmd),
                Kind::Warmup => format!("{}:Warmup", s.cmd),
                Kind::Run => format!("{}:Run", s.cmd),
            })
            .collect()
    }

    #[test]
    fn the_lazy_schedule_is_the_eager_one_for_every_order_and_hook_set() {
        for order in [Order::Sequential, Order::Interleave, Order::Random] {
            for (warmup, runs) in [(0, 0), (0, 1), (2, 3), (1, 7)] {
                for n in 0..4 {
                    for hooks in 0..16u32 {
                        let names = ["A", "B", "C"];
                        let mut p = plan(&names[..n.min(3)], warmup, runs, order);
                        for c in &mut p.commands {
                            let on = |bit: u32, t: &str| (hooks >> bit & 1 == 1).then(|| hook(t));
                            c.hooks = Hooks {
                                prepare: on(0, "p"),
                                setup: on(1, "s"),
                                conclude: on(2, "c"),
                                cleanup: on(3, "k"),
                            };
                        }
                        assert_eq!(
                            lazy(&p),
                            eager(&p),
                            "{order:?} w{warmup} r{runs} n{n} h{hooks}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_huge_run_count_costs_no_memory_up_front() {
        let p = plan(&["A", "B"], 1, u64::MAX, Order::Random);
        let programs = Programs::of(&p);
        let first: Vec<ScheduledStep> = Schedule::new(&p, &programs).take(1000).collect();
        assert_eq!(first.len(), 1000);
        assert!(std::mem::size_of::<Schedule<'_>>() < 256);
    }
}
