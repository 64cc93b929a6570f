//! Other engines as players: processes spoken to over UCI, XBoard or the
//! four-player UCI dialects, refereed by Chimera's own rules, on clocks.
//! Used by the match runner (`tools::matches`) and by the board's seats
//! (`gui::external`).
//!
//! - `config`: engines.toml; `process`: an engine process with a reader
//!   thread; `player`: the UCI and XBoard conversations, move timing,
//!   crash/hang detection, thinking lines
//! - `referee`: the rules of a two-player game (seats, moves, endings);
//!   `four_player`: the four-player referee (Teams and FFA) and FFA
//!   placements; `four_uci`: the four-player UCI dialects (Chimera's,
//!   4pchess's)
//! - `tc`: time controls and clocks; `reaper`: engines killed when the
//!   program is stopped by a signal

pub mod config;
pub mod four_player;
pub mod four_uci;
pub mod player;
pub mod process;
pub mod reaper;
pub mod referee;
pub mod tc;
