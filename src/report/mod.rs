//! Terminal reports: pure renderers from an `Analysis` into `impl Write`.
