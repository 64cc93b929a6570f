//! Tools for people and scripts: perft, bench, self-play, matches,
//! fitting the evaluation.

pub mod bench;
pub mod datagen;
pub mod matches;
pub mod perft;
pub mod selfplay;
pub mod stats;
pub mod texel;
