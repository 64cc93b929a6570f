//! Chimera: a chess-variant engine for Omega Chess, Chess with Different
//! Armies and chess. The library holds everything; `main.rs` only turns
//! arguments into a subcommand.

pub mod base;
pub mod bitboard;
pub mod board;
pub mod cli;
pub mod eval;
pub mod fourplayer;
pub mod game;
pub mod geometry;
pub mod gui;
pub mod movetext;
pub mod nnue;
pub mod out;
pub mod params;
pub mod peers;
pub mod position;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod setup;
pub mod tools;
pub mod variant;
