//! Planning and running an experiment.
//!
//! A [`Plan`] is the validated description of what to run: commands, hooks,
//! counts and order. The [`runner`] walks it against an
//! [`Executor`](crate::measure::Executor) and hands every timed run, as a
//! [`RunRecord`](crate::data::RunRecord), to a [`RunSink`] the moment it
//! completes, so that nothing measured can be lost when the experiment stops
//! early. Time during an experiment is read from a [`Clock`]: the real one,
//! or the scripted one of the [`scripted`] executor, the test switch that
//! runs the real program on durations a script gives.

pub mod clock;
pub mod failure;
pub mod order;
pub mod params;
pub mod plan;
pub mod runner;
pub mod schedule;
pub mod scripted;

pub use clock::Clock;
pub use failure::Failure;
pub use order::{Order, SplitMix64};
pub use plan::{CommandPlan, Hook, HookKind, Hooks, Plan, MAX_RUNS};
pub use runner::{run, RunSink, Stop};
