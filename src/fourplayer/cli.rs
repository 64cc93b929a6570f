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

/// A plain-text diagram of the board, rank 14 at the top: pieces as owner
/// letter + type (`rK`, `bP`, dead `dP`), `.` an empty square, blank the
/// missing corners; then the side to move, points and rights.
pub fn diagram(pos: &Position4) -> String {
    let shape = &pos.v.shape;
    let mut s = String::new();
    for rank in (0..shape.ranks).rev() {
        s.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..shape.files {
            let cell = match shape.square(file as i32, rank as i32) {
                None => "  ".to_string(),
                Some(sq) => match pos.piece_at(sq) {
                    None => " .".to_string(),
                    Some((o, t)) => super::fen4::piece_text(o, t),
                },
            };
            s.push_str(&format!(" {cell}"));
        }
        s.push('\n');
    }
    s.push_str("   ");
    for f in 0..shape.files {
        s.push_str(&format!("  {}", (b'a' + f as u8) as char));
    }
    s.push('\n');
    let checked: Vec<&str> = (0..4)
        .filter(|&p| pos.checked_players() & (1 << p) != 0)
        .map(|p| super::PLAYER_NAMES[p])
        .collect();
    if !checked.is_empty() {
        s.push_str(&format!("in check: {}\n", checked.join(", ")));
    }
    let points = pos.points();
    s.push_str(&format!(
        "{} to move ({}); points r {} b {} y {} g {}; FEN4 {}\n",
        super::PLAYER_NAMES[pos.side()],
        pos.mode().name(),
        points[0],
        points[1],
        points[2],
        points[3],
        pos.to_fen4()
    ));
    s
}
