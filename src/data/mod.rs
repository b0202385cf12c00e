//! Raw per-run data: the CSV record of truth and the in-memory dataset.
//!
//! BestGuess keeps every timed run. While an experiment runs, each run is
//! written as one row of the raw CSV file the moment it completes
//! ([`RawCsvWriter`]), so a killed experiment still leaves a usable file.
//! The file format is fixed in `docs/DESIGN.md` ("Raw data CSV"); the column
//! names live in [`columns`].

pub mod columns;
pub mod csv_write;
pub mod record;

pub use csv_write::RawCsvWriter;
pub use record::RunRecord;
