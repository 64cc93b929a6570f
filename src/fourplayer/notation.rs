//! Four-player moves as text. The protocol writes `h2-h3`, `e10-e11=Q`
//! and castling as the King's move (`h1-j1`), as 4pchess does; it reads
//! those, plain coordinates (`h2h3`, `e10e11q`), `O-O` / `O-O-O`, and the
//! long algebraic notation of PGN4 (`Bh2xNl6`, `Qg1-h2+`, `e10-e11=Q#`).
//! PGN4 output is long algebraic with the captured piece named.

use super::Position4;
use super::variant::{KING, LETTERS, PAWN};
use crate::base::MoveError;
use crate::base::{Move, MoveKind};
use crate::bitboard::Bitboard;
use crate::geometry::parse_coords;

/// A move's squares and promotion as read from text.
struct Parsed {
    from: usize,
    to: usize,
    promo: Option<usize>,
}

impl Position4 {
    /// Protocol notation: `h2-h3`, `e10-e11=Q`, castling `h1-j1`.
    pub fn move_to_string(&self, m: Move) -> String {
        let shape = &self.v.shape;
        let mut s = format!("{}-{}", shape.name(m.from()), shape.name(m.to()));
        if let Some(p) = Position4::promotion_of(m) {
            s.push('=');
            s.push(LETTERS[p]);
        }
        s
    }

    /// Reads a move in any notation above and checks it is legal here.
    /// Where an en-passant capture that also takes a piece on the landing
    /// square shares its squares with the plain capture, the en-passant
    /// one (which takes both) is meant, as in 4pchess.
    pub fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let t = s.trim().trim_end_matches(['+', '#', '!', '?']);
        let legal = self.legal_moves();
        let castle = match t {
            "O-O" | "0-0" => Some('K'),
            "O-O-O" | "0-0-0" => Some('Q'),
            _ => None,
        };
        if let Some(letter) = castle {
            return legal
                .iter()
                .copied()
                .find(|m| {
                    m.kind() == MoveKind::Castle && self.v.castles[m.extra()].letter == letter
                })
                .ok_or_else(|| MoveError::Illegal(s.trim().to_string()));
        }
        let p = self
            .read_squares(t)
            .ok_or_else(|| MoveError::Unparsable(s.trim().to_string()))?;
        let matches = |m: &&Move| {
            m.from() == p.from && m.to() == p.to && Position4::promotion_of(**m) == p.promo
        };
        legal
            .iter()
            .filter(matches)
            .max_by_key(|m| m.kind() == MoveKind::EnPassant)
            .copied()
            .ok_or_else(|| MoveError::Illegal(s.trim().to_string()))
    }

    /// `Bh2xNl6`, `h2-h3`, `h2h3`, `e10-e11=Q`, `e10e11q` -> squares.
    fn read_squares(&self, t: &str) -> Option<Parsed> {
        let b = t.as_bytes();
        let mut i = 0;
        // a piece letter before the origin square
        if b.len() > 1 && b[0].is_ascii_uppercase() && b[1].is_ascii_lowercase() {
            i = 1;
        }
        let square = |i: &mut usize| -> Option<usize> {
            let start = *i;
            if *i >= b.len() || !b[*i].is_ascii_lowercase() {
                return None;
            }
            *i += 1;
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
            let (f, r) = parse_coords(&t[start..*i])?;
            self.v.shape.square(f as i32, r as i32)
        };
        let from = square(&mut i)?;
        match b.get(i) {
            Some(b'-') => i += 1,
            Some(b'x') => {
                i += 1;
                // the captured piece's letter
                if i + 1 < b.len() && b[i].is_ascii_uppercase() && b[i + 1].is_ascii_lowercase() {
                    i += 1;
                }
            }
            _ => {}
        }
        let to = square(&mut i)?;
        let rest = &t[i..];
        let rest = rest.strip_prefix('=').unwrap_or(rest);
        let promo = match rest.len() {
            0 => None,
            1 => {
                let c = rest.chars().next()?.to_ascii_uppercase();
                let ty = LETTERS.iter().position(|&l| l == c)?;
                if ty == KING || ty == PAWN {
                    return None;
                }
                Some(ty)
            }
            _ => return None,
        };
        Some(Parsed { from, to, promo })
    }

    /// PGN4 long algebraic notation of a legal move: `Bh2xNl6`, `h2-h3`,
    /// `e10-e11=Q`, `O-O`, with `+` per player checked (`++`, `+++`) or
    /// `#` when the next player is mated.
    pub fn move_to_pgn4(&mut self, m: Move) -> String {
        let shape = self.v.shape.clone();
        let us = self.side();
        let mut s = String::new();
        if m.kind() == MoveKind::Castle {
            s.push_str(if self.v.castles[m.extra()].letter == 'K' {
                "O-O"
            } else {
                "O-O-O"
            });
        } else {
            let (_, t) = self.piece_at(m.from()).expect("a piece moves");
            if t != PAWN {
                s.push(LETTERS[t]);
            }
            s.push_str(&shape.name(m.from()));
            let captured = self
                .piece_at(m.to())
                .map(|(_, ct)| ct)
                .or((m.kind() == MoveKind::EnPassant).then_some(PAWN));
            match captured {
                Some(ct) => {
                    s.push('x');
                    if ct != PAWN {
                        s.push(LETTERS[ct]);
                    }
                }
                None => s.push('-'),
            }
            s.push_str(&shape.name(m.to()));
            if let Some(p) = Position4::promotion_of(m) {
                s.push('=');
                s.push(LETTERS[p]);
            }
        }
        self.make(m);
        let occ = self.occupied();
        let checked = (0..4)
            .filter(|&q| {
                q != us
                    && self.enemies(us) & (1 << q) != 0
                    && !self.is_eliminated(q)
                    && self.attackers(self.king_square(q), occ, 1 << us).any()
            })
            .count();
        let mated = self.in_check() && !self.has_legal_move();
        self.unmake();
        if mated {
            s.push('#');
        } else {
            s.push_str(&"+".repeat(checked));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourplayer::{Layout, Mode, Variant4};
    use std::sync::Arc;

    #[test]
    fn read_and_write() {
        let v = Arc::new(Variant4::new(Mode::Teams));
        let mut p = Position4::startpos(v, Layout::Modern);
        for s in ["h2-h3", "h2h3", "h2-h3+"] {
            let m = p.parse_move(s).unwrap();
            assert_eq!(p.move_to_string(m), "h2-h3");
        }
        assert!(matches!(p.parse_move("h2-h5"), Err(MoveError::Illegal(_))));
        assert!(matches!(p.parse_move("zz"), Err(MoveError::Unparsable(_))));
        assert!(
            matches!(p.parse_move("a1-a2"), Err(MoveError::Unparsable(_))),
            "a1 is a corner"
        );
        assert!(matches!(p.parse_move("O-O"), Err(MoveError::Illegal(_))));
        let m = p.parse_move("Nj1-i3").unwrap();
        assert_eq!(p.move_to_pgn4(m), "Nj1-i3");
        p.make(m);
        let m = p.parse_move("b7-d7").unwrap();
        assert_eq!(p.move_to_pgn4(m), "b7-d7");
    }
}
