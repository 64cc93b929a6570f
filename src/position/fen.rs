//! FEN in and out: `*` for holes, multi-digit empty counts, several
//! comma-separated en-passant squares. Every error names what is wrong.

use std::sync::Arc;

use super::{EMPTY, Position};
use crate::bitboard::Bitboard;
use crate::board::placement::Placement;
use crate::geometry::Sq;
use crate::variant::board::{Board, parse_board};
use crate::variant::{BLACK, KING, PAWN, Variant, WHITE};

impl<B: Bitboard> Position<B> {
    /// A position from a board and side to move, without any validation or
    /// castling and en-passant rights (for tests and tools).
    pub fn from_board_unchecked(v: Arc<Variant<B>>, board: &Board, side: usize) -> Self {
        let mut pos = Position::empty(v);
        for (sq, cell) in board.iter().enumerate() {
            if let Some((c, t)) = *cell {
                pos.put(c, t, sq);
            }
        }
        pos.side = side;
        pos.hash = pos.compute_hash();
        pos.update_checkers();
        pos
    }

    /// Reads a FEN. On error the message names the field and the problem.
    pub fn from_fen(v: Arc<Variant<B>>, fen: &str) -> Result<Self, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err("empty FEN".into());
        }
        if fields.len() > 6 {
            return Err(format!("FEN has {} fields, at most 6", fields.len()));
        }
        let board = parse_board(fields[0], &v.spec)?;
        let start = &v.start_board;
        let mut pos = Position::empty(v.clone());
        for (sq, cell) in board.iter().enumerate() {
            if let Some((c, t)) = *cell {
                pos.put(c, t, sq);
            }
        }
        let name = |sq: Sq| v.shape.name(sq);
        // Kings and piece counts.
        for c in [WHITE, BLACK] {
            let side = if c == WHITE { "White" } else { "Black" };
            let kings = pos.pieces(c, KING).count();
            if kings != 1 {
                return Err(if kings == 0 {
                    format!("{side} has no King")
                } else {
                    format!("{side} has {kings} Kings")
                });
            }
            let n = pos.color_bb(c).count() as usize;
            let max = start
                .iter()
                .filter(|x| matches!(x, Some((cc, _)) if *cc == c))
                .count();
            if n > max {
                return Err(format!("{side} has {n} pieces, at most {max}"));
            }
        }
        // Pawns may not stand on either side's promotion rank or beyond.
        let pawns = pos.type_bb(PAWN);
        let bad = pawns & (v.promo_zone[WHITE] | v.promo_zone[BLACK]);
        if bad.any() {
            return Err(format!(
                "pawn on {} (pawns cannot stand on the first or last rank)",
                name(bad.lsb())
            ));
        }
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" => WHITE,
            "b" => BLACK,
            s => return Err(format!("side to move '{s}' is not 'w' or 'b'")),
        };
        // Castling.
        let cf = fields.get(2).copied().unwrap_or("-");
        if cf != "-" {
            for ch in cf.chars() {
                let color = if ch.is_ascii_uppercase() {
                    WHITE
                } else {
                    BLACK
                };
                let up = ch.to_ascii_uppercase();
                let idx = v
                    .castles
                    .iter()
                    .position(|c| c.color == color && c.letter == up)
                    .ok_or_else(|| format!("castling field '{cf}': unknown right '{ch}'"))?;
                if pos.castling & (1 << idx) != 0 {
                    return Err(format!("castling field '{cf}': '{ch}' given twice"));
                }
                let c = &v.castles[idx];
                let king_ok = board[c.king_from] == Some((color, KING));
                let rook_ok =
                    board[c.rook_from].is_some() && board[c.rook_from] == start[c.rook_from];
                if !king_ok || !rook_ok {
                    return Err(format!(
                        "castling field '{cf}': right '{ch}' needs the King on {} and its castling piece on {}",
                        name(c.king_from),
                        name(c.rook_from)
                    ));
                }
                pos.castling |= 1 << idx;
            }
        }
        // En passant.
        let mut epsq = (B::ZERO, 0);
        let epf = fields.get(3).copied().unwrap_or("-");
        if epf != "-" {
            let (skipped, victim) = pos.parse_ep(epf, start)?;
            epsq = (pos.capturable_ep(skipped, pos.side), victim);
        }
        pos.halfmove = match fields.get(4) {
            Some(s) => s
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= 100_000)
                .ok_or_else(|| format!("halfmove clock '{s}' is not a number from 0 to 100000"))?,
            None => 0,
        };
        pos.fullmove = match fields.get(5) {
            Some(s) => s
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=1_000_000).contains(&n))
                .ok_or_else(|| format!("move number '{s}' is not a number from 1 to 1000000"))?,
            None => 1,
        };
        pos.hash = pos.compute_hash();
        pos.update_checkers();
        if epsq.0.any() {
            pos.set_ep(epsq.0, epsq.1);
        }
        let them = pos.side ^ 1;
        let ksq = pos.king_square(them);
        if pos.attackers(ksq, pos.occupied(), pos.side).any() {
            return Err("the side not to move is in check".into());
        }
        Ok(pos)
    }

    /// Reads an en-passant field: one square (the square directly behind
    /// the pawn that moved; the squares it skipped behind that one count
    /// too) or several comma-separated squares. Returns (skipped, victim).
    fn parse_ep(&self, field: &str, start: &[Option<(usize, usize)>]) -> Result<(B, Sq), String> {
        let v = &self.v;
        let mover = self.side ^ 1;
        let fwd: i32 = if mover == WHITE { 1 } else { -1 };
        let mut squares = Vec::new();
        for s in field.split(',') {
            squares.push(
                v.shape
                    .parse_square(s)
                    .map_err(|e| format!("en-passant field '{field}': {e}"))?,
            );
        }
        // The square nearest the pawn (furthest along the mover's forward).
        let nearest = *squares
            .iter()
            .max_by_key(|&&s| v.shape.rank(s) as i32 * fwd)
            .expect("at least one square");
        let bad =
            || format!("en-passant field '{field}' does not lie behind a pawn that just moved");
        let victim = v.shape.offset(nearest, 0, fwd).ok_or_else(bad)?;
        if self.board[victim] == EMPTY || self.piece_at(victim) != Some((mover, PAWN)) {
            return Err(bad());
        }
        let mut skipped = B::ZERO;
        let origin;
        if squares.len() == 1 {
            // Walk back from the nearest square to the pawn's start square.
            let mut s = nearest;
            loop {
                if self.board[s] != EMPTY {
                    return Err(bad());
                }
                skipped |= B::bit(s);
                let Some(prev) = v.shape.offset(s, 0, -fwd) else {
                    return Err(bad());
                };
                if start[prev] == Some((mover, PAWN)) {
                    origin = prev;
                    break;
                }
                s = prev;
                if skipped.count() as usize > v.shape.ranks {
                    return Err(bad());
                }
            }
        } else {
            for &s in &squares {
                if v.shape.file(s) != v.shape.file(victim) || self.board[s] != EMPTY {
                    return Err(bad());
                }
                skipped |= B::bit(s);
            }
            let farthest = *squares
                .iter()
                .min_by_key(|&&s| v.shape.rank(s) as i32 * fwd)
                .expect("at least one square");
            origin = v.shape.offset(farthest, 0, -fwd).ok_or_else(bad)?;
            if skipped != v.tables.lines.between(origin, victim) {
                return Err(bad());
            }
        }
        // The pawn must have been able to make that move from its origin.
        let (reach, _, _) = v.targets(mover, PAWN, origin, B::ZERO);
        if !v.tables.moves[mover][PAWN].initial_squares.has(origin) || !reach.has(victim) {
            return Err(bad());
        }
        Ok((skipped, victim))
    }

    /// Writes the position as FEN.
    pub fn to_fen(&self) -> String {
        let v = &self.v;
        let shape = &v.shape;
        let mut rows = Vec::new();
        for rank in (0..shape.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..shape.files {
                match shape.square(file as i32, rank as i32) {
                    None => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push('*');
                    }
                    Some(sq) => match self.piece_at(sq) {
                        None => empty += 1,
                        Some((c, t)) => {
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            row.push(v.letter(c, t));
                        }
                    },
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let mut castling = String::new();
        for color in [WHITE, BLACK] {
            for letter in ['K', 'Q'] {
                for (i, c) in v.castles.iter().enumerate() {
                    if c.color == color && c.letter == letter && self.castling & (1 << i) != 0 {
                        castling.push(if color == WHITE {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        });
                    }
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = if self.ep.is_empty() {
            "-".to_string()
        } else {
            // Every skipped square from the capturable one farthest from the
            // pawn up to the pawn: one square is then the square directly
            // behind the pawn, as Sjaak II and XBoard write it.
            let victim = self.ep_victim_square();
            let far = if self.side == BLACK {
                self.ep.lsb()
            } else {
                self.ep.msb()
            };
            let squares = self.ep | B::bit(far) | v.tables.lines.between(far, victim);
            squares
                .iter()
                .map(|s| shape.name(s))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{} {} {} {} {} {}",
            rows.join("/"),
            if self.side == WHITE { 'w' } else { 'b' },
            castling,
            ep,
            self.halfmove,
            self.fullmove
        )
    }
}
