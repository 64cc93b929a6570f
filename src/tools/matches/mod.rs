//! `chimera match`: engine-vs-engine matches and tournaments for the
//! variants no other tournament manager knows (Omega, CwDA), and chess.
//!
//! Engines are separate processes spoken to over UCI or XBoard; every move
//! is refereed with Chimera's own rules; the command line and the output
//! follow cutechess-cli, so scripts written for it work unchanged.
//!
//! The engines themselves are driven by `crate::peers` (processes, the UCI
//! and XBoard conversations, the referees, clocks, engines.toml), which the
//! board's seats use too.
//!
//! - `args`: the command line (cutechess-cli's flags)
//! - `adjudicate`: draw/resign/move cap
//! - `game`: one game; `tournament`: schedule, workers, results
//! - `report`: cutechess-cli's result lines; `pgn`; `openings`

pub mod adjudicate;
pub mod args;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod report;
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
            crate::peers::process::DEBUG.store(cfg.debug, std::sync::atomic::Ordering::Relaxed);
            tournament::run(&cfg).map(|_| ())
        }
    }
}
