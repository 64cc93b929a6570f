//! Tools for people and scripts: perft, bench, matches.

pub mod bench;
pub mod perft;
pub mod selfplay;
pub mod stats;
