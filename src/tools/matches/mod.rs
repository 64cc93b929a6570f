//! `chimera match`: engine-vs-engine matches and tournaments for the
//! variants no other tournament manager knows (Omega, CwDA), and chess.
//!
//! Engines are separate processes spoken to over UCI or XBoard; every move
//! is refereed with Chimera's own rules; the command line and the output
//! follow cutechess-cli, so scripts written for it work unchanged.
//!
//! - `args`: the command line (cutechess-cli's flags), `config`: engines.toml
//! - `process`: an engine process with a reader thread; `player`: the UCI
//!   and XBoard conversations, move timing, crash/hang detection
//! - `referee`: the rules (seats, moves, endings), `san`: SAN for any
//!   variant; `four_player`: the four-player referee (Teams and FFA) and
//!   FFA placements, `four_uci`: the four-player UCI dialects (Chimera's,
//!   4pchess's)
//! - `tc`: time controls and clocks; `adjudicate`: draw/resign/move cap
//! - `game`: one game; `tournament`: schedule, workers, results
//! - `report`: cutechess-cli's result lines; `pgn`; `openings`

pub mod adjudicate;
pub mod args;
pub mod config;
pub mod four_player;
pub mod four_uci;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod process;
pub mod referee;
pub mod report;
pub mod tc;
pub mod tournament;

use crate::variant::armies::Army;
use args::Command;

/// Runs `chimera match` with its arguments and the armies defined by the
/// user (`--armies FILE`).
pub fn run(argv: &[String], armies: &[Army]) -> Result<(), String> {
    match args::parse_with(argv, armies)? {
        Command::Help => {
            crate::out::Out::stdout().text(args::HELP);
            Ok(())
        }
        Command::List(path) => {
            crate::out::Out::stdout().text(&args::list_engines(&path)?);
            Ok(())
        }
        Command::MakeOpenings(s) => {
            let lines = openings::make(&s, |kept, tried| {
                log::info!("{}: kept {kept} of {tried}", s.variant);
            })?;
            let out = crate::out::Out::stdout();
            for l in lines {
                out.line(&l);
            }
            Ok(())
        }
        Command::Run(cfg) => {
            process::DEBUG.store(cfg.debug, std::sync::atomic::Ordering::Relaxed);
            tournament::run(&cfg).map(|_| ())
        }
    }
}
