//! BestGuess: a command-line benchmarking instrument.
//!
//! The library holds everything; the two executables (`bestguess`, `bestreport`)
//! are thin wrappers. The pipeline is described in `docs/DESIGN.md`:
//! parse and validate options (`cli`), plan and run an experiment
//! (`experiment`) through the launcher (`measure`), record raw data
//! ([`data`]), analyse ([`stats`]) and render (`report`, `export`).
//!
//! `unsafe` is denied everywhere but in `measure::sys`, the one module that
//! talks to the kernel directly (each block there has a `// SAFETY:` note).

#![deny(unsafe_code)]
// These docs are the developers' map of the code, built with
// `cargo doc --document-private-items` (as CI does): a module's docs name
// its private submodules and helpers on purpose.
#![allow(rustdoc::private_intra_doc_links)]

pub mod analysis;
pub mod app;
pub mod cli;
pub mod data;
pub mod experiment;
pub mod export;
pub mod figure;
pub mod gate;
pub mod history;
pub mod measure;
pub mod report;
pub mod stats;
