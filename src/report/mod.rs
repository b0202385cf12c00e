//! Terminal reports: pure renderers from an `Analysis` into a writer.
//!
//! [`units`] chooses display units and fits numbers to their columns;
//! [`text`] truncates and pads labels by display width.

pub mod text;
pub mod units;
