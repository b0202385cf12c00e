//! Planning and running an experiment.
//!
//! A [`Plan`] is the validated description of what to run: commands, hooks,
//! counts and order. The [`runner`] walks it against an
//! [`Executor`](crate::measure::Executor) and hands every timed run, as a
//! [`RunRecord`](crate::data::RunRecord), to a [`RunSink`] the moment it
//! completes, so that nothing measured can be lost when the experiment stops
//! early.

pub mod failure;
pub mod order;
pub mod params;
pub mod plan;
pub mod runner;
pub mod schedule;

pub use failure::Failure;
pub use order::{Order, SplitMix64};
pub use plan::{CommandPlan, Hook, HookKind, Hooks, Plan};
pub use runner::{run, RunSink, Stop};
