//! Four-player chess (Chess.com's game, RULES.md section 3): Teams and
//! Free-For-All on the 14x14 board without its 3x3 corners. The pieces are
//! the two-player games' Betza pieces, compiled by the shared table
//! compiler for four sides; the board is a 192-bit bitboard.

pub mod end;
pub mod eval;
pub mod fen4;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod pgn4;
pub mod position;
pub mod search;
pub mod variant;

pub use position::Position4;
pub use variant::{Layout, Mode, Variant4};

/// The bitboard of the four-player board (160 squares).
pub type Bb = crate::bitboard::B192;

pub const RED: usize = 0;
pub const BLUE: usize = 1;
pub const YELLOW: usize = 2;
pub const GREEN: usize = 3;
/// The owner of dead (grey) pieces in Free-For-All.
pub const DEAD: usize = 4;

/// Player names, in turn order.
pub const PLAYER_NAMES: [&str; 4] = ["Red", "Blue", "Yellow", "Green"];
/// Player letters of FEN4 (side to move upper case, piece prefixes lower).
pub const PLAYER_LETTERS: [char; 4] = ['R', 'B', 'Y', 'G'];

/// Sets up a four-player position: a FEN4, or a layout's start (`4PCo`
/// by default), then moves in any notation `Position4::parse_move` reads.
pub fn setup(
    mode: Mode,
    fen4: Option<&str>,
    layout: Option<Layout>,
    moves: &[&str],
) -> Result<Position4, String> {
    setup_game(mode, fen4, layout, moves).map(|g| g.position().clone())
}

/// The game from a FEN4 (or a layout's start) after `moves`, read as the
/// UCI dialect reads them: moves, and the seat tokens `R` and `T`.
pub fn setup_game(
    mode: Mode,
    fen4: Option<&str>,
    layout: Option<Layout>,
    moves: &[&str],
) -> Result<game::Game4, String> {
    let v = std::sync::Arc::new(Variant4::new(mode));
    let root = match fen4 {
        Some(f) => Position4::from_fen4(v, f).map_err(|e| format!("bad FEN4: {e}"))?,
        None => Position4::startpos(v, layout.unwrap_or(Layout::Classic)),
    };
    let mut game = game::Game4::new(root);
    for (i, m) in moves.iter().enumerate() {
        game.play(m)
            .map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
    }
    Ok(game)
}

/// The team of a player: 0 Red+Yellow, 1 Blue+Green.
#[inline(always)]
pub fn team(p: usize) -> usize {
    p & 1
}
