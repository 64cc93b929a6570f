//! Moves as text: `e2e4`, `e10e11q`, castling as the King's move (`e1g1`),
//! and on input also `e7e8=Q` and `O-O` / `O-O-O`.

use super::Position;
use crate::base::{Move, MoveError, MoveKind};
use crate::bitboard::Bitboard;
use crate::geometry::parse_coords;

/// Splits `e10e11q` into ("e10", "e11", Some('q')).
fn split_coordinate_move(s: &str) -> Option<(&str, &str, Option<char>)> {
    let b = s.as_bytes();
    let square_end = |start: usize| -> Option<usize> {
        if start >= b.len() || !b[start].is_ascii_lowercase() {
            return None;
        }
        let mut i = start + 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > start + 1).then_some(i)
    };
    let e1 = square_end(0)?;
    let e2 = square_end(e1)?;
    let rest = &s[e2..];
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    let mut it = rest.chars();
    let promo = match (it.next(), it.next()) {
        (None, _) => None,
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
        _ => return None,
    };
    Some((&s[..e1], &s[e1..e2], promo))
}

impl<B: Bitboard> Position<B> {
    /// Engine notation of a move.
    pub fn move_to_string(&self, m: Move) -> String {
        let shape = &self.v.shape;
        let mut s = format!("{}{}", shape.name(m.from()), shape.name(m.to()));
        if let Some(p) = m.promotion() {
            s.push(self.v.pieces[p].letter.to_ascii_lowercase());
        }
        s
    }

    /// Reads a move and checks it is legal in this position.
    pub fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        let t = s.trim();
        let castle_letter = match t {
            "O-O" | "0-0" => Some('K'),
            "O-O-O" | "0-0-0" => Some('Q'),
            _ => None,
        };
        if let Some(letter) = castle_letter {
            return legal
                .iter()
                .copied()
                .find(|m| {
                    m.kind() == MoveKind::Castle && self.v.castles[m.extra()].letter == letter
                })
                .ok_or_else(|| MoveError::Illegal(t.to_string()));
        }
        let (a, b, promo) =
            split_coordinate_move(t).ok_or_else(|| MoveError::Unparsable(t.to_string()))?;
        let shape = &self.v.shape;
        for sq in [a, b] {
            let (f, r) = parse_coords(sq).ok_or_else(|| MoveError::Unparsable(t.to_string()))?;
            if f >= shape.files || r >= shape.ranks {
                return Err(MoveError::Unparsable(t.to_string()));
            }
        }
        let from = shape
            .parse_square(a)
            .map_err(|_| MoveError::Illegal(t.to_string()))?;
        let to = shape
            .parse_square(b)
            .map_err(|_| MoveError::Illegal(t.to_string()))?;
        let promo_type = match promo {
            None => None,
            Some(c) => Some(
                self.v
                    .type_of_letter(c)
                    .ok_or_else(|| MoveError::Illegal(t.to_string()))?,
            ),
        };
        legal
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promo_type)
            .ok_or_else(|| MoveError::Illegal(t.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split() {
        assert_eq!(split_coordinate_move("e2e4"), Some(("e2", "e4", None)));
        assert_eq!(
            split_coordinate_move("e10e11q"),
            Some(("e10", "e11", Some('q')))
        );
        assert_eq!(
            split_coordinate_move("e7e8=Q"),
            Some(("e7", "e8", Some('q')))
        );
        assert_eq!(split_coordinate_move("e2"), None);
        assert_eq!(split_coordinate_move("e2e4qq"), None);
        assert_eq!(split_coordinate_move("E2e4"), None);
    }
}
