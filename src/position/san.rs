//! Standard algebraic notation for any variant: the piece's letter (none
//! for a pawn), as much of the origin square as tells it apart from
//! another piece of its type that could go to the same square, `x` for a
//! capture, the destination, `=L` for a promotion, `+` or `#`; castling
//! `O-O` (the h-side) and `O-O-O`. Squares are engine coordinates (Omega's
//! 12x12 frame: `Nc2d4`, `e10e11`). Reading compares with the SAN of every
//! legal move, so whatever this writes, it reads.

use crate::base::{Move, MoveKind};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::variant::PAWN;

fn file_rank(name: &str) -> (&str, &str) {
    let i = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    (&name[..i], &name[i..])
}

/// The SAN of a legal move.
pub fn to_san<B: Bitboard>(p: &Position<B>, m: Move) -> String {
    let mut s = san_body(p, m);
    let mut after = p.clone();
    after.make(m);
    if after.in_check() {
        s.push(if after.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    s
}

fn san_body<B: Bitboard>(p: &Position<B>, m: Move) -> String {
    let shape = &p.v.shape;
    if m.kind() == MoveKind::Castle {
        return if p.v.castles[m.extra()].letter == 'K' {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let Some((_, t)) = p.piece_at(m.from()) else {
        return p.move_to_string(m);
    };
    let from = shape.name(m.from());
    let to = shape.name(m.to());
    let capture = m.kind() == MoveKind::EnPassant || p.piece_at(m.to()).is_some();
    let mut s = String::new();
    if t == PAWN {
        if capture {
            s.push_str(file_rank(&from).0);
            s.push('x');
        }
        s.push_str(&to);
        if let Some(pt) = m.promotion() {
            s.push('=');
            s.push(p.v.pieces[pt].letter.to_ascii_uppercase());
        }
        return s;
    }
    s.push(p.v.pieces[t].letter.to_ascii_uppercase());
    let rivals: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|o| {
            o.to() == m.to()
                && o.from() != m.from()
                && o.kind() != MoveKind::Castle
                && p.piece_at(o.from()).map(|(_, ot)| ot) == Some(t)
        })
        .map(|o| shape.name(o.from()))
        .collect();
    if !rivals.is_empty() {
        let (f, r) = file_rank(&from);
        if rivals.iter().all(|o| file_rank(o).0 != f) {
            s.push_str(f);
        } else if rivals.iter().all(|o| file_rank(o).1 != r) {
            s.push_str(r);
        } else {
            s.push_str(&from);
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&to);
    s
}

/// The SAN without the marks that may be left out when reading: check,
/// annotation, capture and `=`; `0-0` read as `O-O`.
fn bare(s: &str) -> String {
    let t: String = s
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | 'x' | '=' | ':'))
        .collect();
    if !t.is_empty() && t.chars().all(|c| c == '0' || c == '-') {
        t.replace('0', "O")
    } else {
        t
    }
}

/// Reads a move in SAN (`Nf3`, `exd5`, `e8=Q+`, `O-O`, `Cb2c4`).
pub fn parse_san<B: Bitboard>(p: &Position<B>, s: &str) -> Option<Move> {
    let want = bare(s.trim());
    if want.is_empty() {
        return None;
    }
    let legal = p.legal_moves();
    let mut found = legal
        .iter()
        .copied()
        .filter(|&m| bare(&san_body(p, m)) == want);
    match (found.next(), found.next()) {
        (Some(m), None) => Some(m),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{AnyPosition, Width, setup};

    fn san_of(variant: &str, fen: Option<&str>, mv: &str) -> String {
        let pos = setup(variant, fen, &[], &[], Width::Auto).unwrap();
        match pos {
            AnyPosition::Small(p) => to_san(&p, p.parse_move(mv).unwrap()),
            AnyPosition::Large(p) => to_san(&p, p.parse_move(mv).unwrap()),
        }
    }

    fn read(variant: &str, fen: Option<&str>, san: &str) -> Option<String> {
        let pos = setup(variant, fen, &[], &[], Width::Auto).unwrap();
        match pos {
            AnyPosition::Small(p) => parse_san(&p, san).map(|m| p.move_to_string(m)),
            AnyPosition::Large(p) => parse_san(&p, san).map(|m| p.move_to_string(m)),
        }
    }

    #[test]
    fn chess_san() {
        assert_eq!(san_of("chess", None, "g1f3"), "Nf3");
        assert_eq!(san_of("chess", None, "e2e4"), "e4");
        // two knights can reach d2: the file tells them apart
        let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(san_of("chess", Some(fen), "b1d2"), "Nbd2");
        let fen = "4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1";
        assert_eq!(san_of("chess", Some(fen), "b1d2"), "N1d2");
        // capture, promotion, check, mate
        let fen = "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(san_of("chess", Some(fen), "c7d8q"), "cxd8=Q+");
        let fen = "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1";
        assert_eq!(san_of("chess", Some(fen), "a1a8"), "Ra8#");
        assert_eq!(san_of("chess", Some(fen), "e1c1"), "O-O-O");
        assert_eq!(read("chess", Some(fen), "O-O-O").as_deref(), Some("e1c1"));
        assert_eq!(read("chess", Some(fen), "0-0-0").as_deref(), Some("e1c1"));
        assert_eq!(read("chess", None, "Nf3").as_deref(), Some("g1f3"));
        assert_eq!(read("chess", None, "Nd2"), None);
        assert_eq!(read("chess", None, "e4!").as_deref(), Some("e2e4"));
    }

    #[test]
    fn variant_san() {
        // Omega: the Champion and two-digit ranks
        assert_eq!(san_of("omega", None, "b2b4"), "Cb4");
        assert_eq!(read("omega", None, "Cb4").as_deref(), Some("b2b4"));
        assert_eq!(san_of("omega", None, "f3f6"), "f6");
        // CwDA: the Nutty Knights' Fibnif
        assert_eq!(san_of("cwda-nutty-fide", None, "b1c3"), "Ic3");
        assert_eq!(
            read("cwda-nutty-fide", None, "Ic3").as_deref(),
            Some("b1c3")
        );
    }
}
