//! The command line's four-player parts: positions from `--fen4` (a FEN4 or
//! a layout name) and moves, perft, and a plain-text diagram.

use std::time::Instant;

use super::{Layout, Mode, Position4, perft, setup};

/// The position of `--fen4` (a FEN4, `4PCo` or `4PC`; default `4PCo`)
/// after `moves`.
pub fn position(mode: Mode, fen4: Option<&str>, moves: &[&str]) -> Result<Position4, String> {
    match fen4.map(|f| (f, Layout::from_name(f))) {
        Some((_, Some(layout))) => setup(mode, None, Some(layout), moves),
        Some((f, None)) => setup(mode, Some(f), None, moves),
        None => setup(mode, None, None, moves),
    }
}

/// Runs perft (with `divide`, one line per root move first); returns the
/// leaf count.
pub fn perft(pos: &mut Position4, depth: u32, divide: bool) -> u64 {
    let start = Instant::now();
    let nodes = if divide && depth > 0 {
        let mut total = 0;
        for (m, n) in perft::divide(pos, depth) {
            println!("{m}: {n}");
            total += n;
        }
        total
    } else {
        perft::perft(pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    log::info!(
        "perft {depth}: {nodes} nodes in {secs:.3} s ({:.0} nodes/s)",
        nodes as f64 / secs.max(1e-9)
    );
    nodes
}
