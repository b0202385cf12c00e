//! Raw per-run data: the CSV record of truth and the in-memory dataset.
//!
//! BestGuess keeps every timed run. While an experiment runs, each run is
//! written as one row of the raw CSV file the moment it completes
//! ([`RawCsvWriter`]), so a killed experiment still leaves a usable file;
//! `bestreport` reads such files back ([`read_raw_csv`],
//! [`Dataset::read_files`]), including those written by C BestGuess,
//! whose 13-field rows and backslash escapes are understood. Both paths end
//! in a [`Dataset`]: runs grouped into commands by batch, from which
//! analysis takes per-metric columns ([`CommandRuns::metric`]). Every
//! per-run metric is described once, in the [`metric`] catalogue.
//!
//! The file format is fixed in `docs/formats.md` ("The raw CSV"); the column
//! names live in [`columns`]. Reading is lenient about what is unambiguous
//! (line ends, blank lines, C BestGuess's ragged rows, extra columns) and
//! strict about everything else: a [`DataError`] names the file, line and
//! column and says what to do.

pub mod c_tool_rows;
mod chunks;
pub mod column;
pub mod columns;
pub mod csv_read;
pub mod csv_write;
pub mod dataset;
pub mod error;
mod fast_read;
pub mod formats;
pub mod metric;
pub mod record;
mod tokenize;

pub use csv_read::{read_raw_csv, read_raw_csv_into, RowSink, Rows};
pub use csv_write::RawCsvWriter;
pub use dataset::{
    Attribute, CommandRuns, Dataset, DatasetBuilder, SourceFile, SourceMeans, STDIN_NAME,
};
pub use error::{DataError, RowProblem};
pub use formats::InputFormat;
pub use metric::{Catalogue, Metric, MetricDef, Unit, Value, Values};
pub use record::RunRecord;
