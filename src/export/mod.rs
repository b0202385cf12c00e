//! Exports for other programs: one file per format, each a pure writer.
