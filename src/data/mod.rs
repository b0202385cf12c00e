//! Raw per-run data: the CSV record of truth and the in-memory dataset.

pub mod record;

pub use record::RunRecord;
