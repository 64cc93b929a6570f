//! Variant descriptions as plain data: board shape, pieces (Betza strings),
//! start position, castling, promotion and draw rules. `Variant` compiles
//! one of these into tables.

use super::armies::{self, Army, PieceDef};
use super::betza;
use crate::geometry::Shape;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    King,
    Pawn,
    Piece,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub value: Option<i32>,
    /// the endgame value, where it differs
    pub value_eg: Option<i32>,
    pub role: Role,
}

/// One castling move: squares as (file, rank), 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastleSpec {
    pub color: usize,
    pub king_from: (usize, usize),
    pub king_to: (usize, usize),
    pub rook_from: (usize, usize),
    pub rook_to: (usize, usize),
    /// FEN letter for White (K or Q); Black's is lower case.
    pub letter: char,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantSpec {
    /// Name as in PROTOCOLS.md (`chess`, `omega`, `cwda-nutty-fide`).
    pub name: String,
    pub shape: Shape,
    /// Piece types; index 0 is the King, 1 the Pawn.
    pub pieces: Vec<PieceSpec>,
    pub start_fen: String,
    pub castles: Vec<CastleSpec>,
    /// The rank (0-based) on which each colour's pawns promote (and beyond).
    pub promo_rank: [usize; 2],
    /// Letters of the piece types a pawn may promote to.
    pub promo_letters: Vec<char>,
    /// Material (letters, K included, sorted) with which a side cannot mate
    /// a bare King; "K" means K vs K is a draw.
    pub insufficient: Vec<String>,
    /// Material (sorted letters) that can mate a bare King only if it
    /// helps, never by force: the evaluation scales such endings to a draw.
    pub cannot_force_mate: Vec<String>,
    /// The armies of a CwDA game (White, Black).
    pub armies: Option<(String, String)>,
}

pub const KING_BETZA: &str = "K";
pub const PAWN_BETZA: &str = "fmWfceFifmW2";
pub const OMEGA_PAWN_BETZA: &str = "fmWfceFifmW3";

fn king() -> PieceSpec {
    PieceSpec {
        letter: 'K',
        name: "King".into(),
        betza: KING_BETZA.into(),
        value: None,
        value_eg: None,
        role: Role::King,
    }
}

fn pawn(betza: &str) -> PieceSpec {
    PieceSpec {
        letter: 'P',
        name: "Pawn".into(),
        betza: betza.into(),
        value: Some(100),
        value_eg: None,
        role: Role::Pawn,
    }
}

fn piece(d: &PieceDef) -> PieceSpec {
    PieceSpec {
        letter: d.letter,
        name: d.name.clone(),
        betza: d.betza.clone(),
        value: d.value,
        value_eg: d.value_eg,
        role: Role::Piece,
    }
}

/// The names of the variants offered, given the armies known.
pub fn variant_names(armies: &[Army]) -> Vec<String> {
    let mut v = vec!["chess".to_string(), "omega".to_string()];
    for w in armies {
        for b in armies {
            v.push(format!("cwda-{}-{}", w.token, b.token));
        }
    }
    v
}

/// All armies: built-in ones followed by user armies (an armies file may not
/// reuse a built-in army's token, so none is hidden).
pub fn all_armies(user: &[Army]) -> Vec<Army> {
    let mut v = armies::builtin();
    v.extend(user.iter().cloned());
    v
}

impl VariantSpec {
    /// Looks a variant up by name: `chess` (or `normal`), `omega`,
    /// `cwda-<white>-<black>`. `user_armies` extends the built-in armies.
    pub fn by_name(name: &str, user_armies: &[Army]) -> Result<VariantSpec, String> {
        match name {
            "chess" | "normal" | "standard" => {
                let mut s = Self::cwda_tokens("fide", "fide", user_armies)?;
                s.name = "chess".into();
                Ok(s)
            }
            "omega" => Ok(Self::omega()),
            _ => {
                if let Some(rest) = name.strip_prefix("cwda-") {
                    let mut parts = rest.splitn(2, '-');
                    let w = parts.next().unwrap_or("");
                    let b = parts.next().unwrap_or("");
                    if w.is_empty() || b.is_empty() {
                        return Err(format!(
                            "variant '{name}': expected cwda-<white army>-<black army>"
                        ));
                    }
                    Self::cwda_tokens(w, b, user_armies)
                } else if name == "cwda" {
                    Self::cwda_tokens("fide", "fide", user_armies)
                } else {
                    Err(format!("unknown variant '{name}'"))
                }
            }
        }
    }

    fn cwda_tokens(w: &str, b: &str, user: &[Army]) -> Result<VariantSpec, String> {
        let all = all_armies(user);
        let find = |t: &str| {
            all.iter().find(|a| a.token == t).cloned().ok_or_else(|| {
                let names: Vec<&str> = all.iter().map(|a| a.token.as_str()).collect();
                format!("unknown army '{t}' (known: {})", names.join(", "))
            })
        };
        Self::cwda(&find(w)?, &find(b)?)
    }

    /// Chess with Different Armies: White's and Black's armies on 8x8.
    pub fn cwda(white: &Army, black: &Army) -> Result<VariantSpec, String> {
        armies::check_letters(&[white.clone(), black.clone()])?;
        let mut pieces = vec![king(), pawn(PAWN_BETZA)];
        for d in white.slots.iter().chain(black.slots.iter()) {
            if !pieces.iter().any(|p| p.letter == d.letter) {
                pieces.push(piece(d));
            }
        }
        let promo_letters: Vec<char> = pieces[2..].iter().map(|p| p.letter).collect();
        let back = |a: &Army| -> String {
            let s = &a.slots;
            [
                s[0].letter,
                s[1].letter,
                s[2].letter,
                s[3].letter,
                'K',
                s[2].letter,
                s[1].letter,
                s[0].letter,
            ]
            .iter()
            .collect()
        };
        let start_fen = format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
            back(black).to_ascii_lowercase(),
            back(white)
        );
        let mut castles = Vec::new();
        for (color, a) in [(0usize, white), (1usize, black)] {
            let r = if color == 0 { 0 } else { 7 };
            castles.push(CastleSpec {
                color,
                king_from: (4, r),
                king_to: (6, r),
                rook_from: (7, r),
                rook_to: (5, r),
                letter: 'K',
            });
            // A colour-bound rook-slot piece castles long to c1 with the
            // King on b1, keeping its colour (RULES.md, Bede rule).
            let bound = betza::colour_bound(&betza::parse(&a.slots[0].betza)?);
            let (kt, rt) = if bound { (1, 2) } else { (2, 3) };
            castles.push(CastleSpec {
                color,
                king_from: (4, r),
                king_to: (kt, r),
                rook_from: (0, r),
                rook_to: (rt, r),
                letter: 'Q',
            });
        }
        // Insufficient material: K, and K + a FIDE Bishop or Knight, if those
        // pieces are in the game.
        let mut insufficient = vec!["K".to_string()];
        for (l, b) in [('B', "B"), ('N', "N")] {
            if pieces.iter().any(|p| p.letter == l && p.betza == b) {
                let mut s: Vec<char> = vec!['K', l];
                s.sort();
                insufficient.push(s.into_iter().collect());
            }
        }
        Ok(VariantSpec {
            name: format!("cwda-{}-{}", white.token, black.token),
            shape: Shape::rect(8, 8),
            pieces,
            start_fen,
            castles,
            promo_rank: [7, 0],
            promo_letters,
            insufficient,
            cannot_force_mate: Vec::new(),
            armies: Some((white.token.clone(), black.token.clone())),
        })
    }

    /// Omega Chess in engine coordinates (12x12 frame with holes).
    pub fn omega() -> VariantSpec {
        let pc = |letter: char, name: &str, betza: &str, value: i32| PieceSpec {
            letter,
            name: name.into(),
            betza: betza.into(),
            value: Some(value),
            value_eg: None,
            role: Role::Piece,
        };
        let pieces = vec![
            king(),
            pawn(OMEGA_PAWN_BETZA),
            pc('Q', "Queen", "Q", 1100),
            pc('R', "Rook", "R", 600),
            pc('B', "Bishop", "B", 400),
            pc('N', "Knight", "N", 275),
            pc('C', "Champion", "WAD", 400),
            pc('W', "Wizard", "FC", 375),
        ];
        let mut castles = Vec::new();
        for (color, r) in [(0usize, 1usize), (1usize, 10usize)] {
            castles.push(CastleSpec {
                color,
                king_from: (6, r),
                king_to: (8, r),
                rook_from: (9, r),
                rook_to: (7, r),
                letter: 'K',
            });
            castles.push(CastleSpec {
                color,
                king_from: (6, r),
                king_to: (4, r),
                rook_from: (2, r),
                rook_to: (5, r),
                letter: 'Q',
            });
        }
        VariantSpec {
            name: "omega".into(),
            shape: Shape::omega(),
            pieces,
            start_fen: "w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/W**********W w KQkq - 0 1".into(),
            castles,
            promo_rank: [10, 1],
            promo_letters: vec!['Q', 'R', 'B', 'N', 'C', 'W'],
            insufficient: vec!["K".into()],
            // RULES.md: K+R cannot force mate (the King hides on a wizard
            // square); K+B and K+N mate only a King that stands on one.
            cannot_force_mate: vec!["KR".into(), "BK".into(), "KN".into()],
            armies: None,
        }
    }

    /// The piece type with this (upper-case) letter.
    pub fn piece_index(&self, letter: char) -> Option<usize> {
        self.pieces.iter().position(|p| p.letter == letter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cwda_start_and_castling() {
        let s = VariantSpec::by_name("cwda-nutty-clobberers", &[]).unwrap();
        assert_eq!(
            s.start_fen,
            "dwfckfwd/pppppppp/8/8/8/8/PPPPPPPP/GITLKTIG w KQkq - 0 1"
        );
        // White (Nutty) castles long normally, Black (Clobberers) to b8.
        let q: Vec<_> = s.castles.iter().filter(|c| c.letter == 'Q').collect();
        assert_eq!(q[0].king_to, (2, 0));
        assert_eq!(q[1].king_to, (1, 7));
        assert_eq!(s.pieces.len(), 10);
        assert_eq!(s.promo_letters.len(), 8);
    }

    #[test]
    fn names() {
        assert!(
            VariantSpec::by_name("cwda-foo-fide", &[])
                .unwrap_err()
                .contains("unknown army")
        );
        assert!(
            VariantSpec::by_name("shogi", &[])
                .unwrap_err()
                .contains("unknown variant")
        );
        assert_eq!(VariantSpec::by_name("normal", &[]).unwrap().name, "chess");
        assert_eq!(variant_names(&armies::builtin()).len(), 2 + 64);
    }
}
