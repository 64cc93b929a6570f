//! XBoard's `setup` and `piece` lines for a variant, derived from the same
//! data the move generator uses: the board shape, the start position, the
//! Betza strings and the castling rules.
//!
//! - `setup (PIECETOCHAR) WxH+0_fairy FEN`: PIECETOCHAR gives every piece
//!   type of the game a slot of XBoard's piece table for each colour (a pawn
//!   may promote to a piece of either army, so every type exists for both).
//!   XBoard's table has 21 slots before the King, in the order
//!   `PNBRQFEACWMOHIJGDVLSU`. The slots are chosen per colour: a colour's
//!   castling partner (the piece in its rook corner) takes the Rook slot,
//!   because XBoard keeps castling rights in its FENs only for a "Rook" in
//!   the corner; the other types take the slot whose default letter is
//!   their own where they can, else a free fairy slot (the slot also picks
//!   the picture; the `piece` lines give the moves). Slots with a special
//!   meaning to XBoard (the Lance, which promotes like a pawn; the Falcon
//!   and Cobra wild cards; the Commoner) are avoided. So where White's and
//!   Black's armies differ, a type may sit in different slots for the two
//!   colours.
//! - `piece X& BETZA` for a type in the same slot for both colours (`&`:
//!   the line holds for Black too); `piece X BETZA` and `piece x BETZA`
//!   (lower-case: Black's) for a type whose slots differ.
//! - The King's castling is written in XBoard's Betza: `O<n>` for a King
//!   move of n squares towards a castling partner in the corner, `jO<n>`
//!   when the partner stands next to the corner (Omega: the Rook inside the
//!   Champion), `i` for "only unmoved", `s` both ways, `l`/`r` one way. XBoard
//!   turns Black's directions round (Black's left is White's right), so a
//!   King whose two castlings differ (the Clobberers' `KirO2ilO3`) gets one
//!   line per colour when the two colours' castlings are not mirror images.

use crate::variant::board::parse_board;
use crate::variant::spec::{CastleSpec, Role, VariantSpec};
use crate::variant::{BLACK, WHITE};

/// XBoard's default letters for its first 21 piece slots.
const SLOT_LETTERS: &[u8; 21] = b"PNBRQFEACWMOHIJGDVLSU";
/// Slots never given to a piece: Pawn (0, the pawn's own), Commoner (10),
/// Falcon (17), Lance (18), Cobra (19).
const RESERVED: [usize; 5] = [0, 10, 17, 18, 19];
/// The order in which pieces without a slot of their own letter take free
/// slots: fairy pieces first, so that N B R Q keep their pictures.
const FREE_ORDER: [usize; 16] = [7, 8, 5, 6, 9, 11, 12, 13, 14, 15, 16, 20, 1, 2, 3, 4];

/// The `setup` line and the `piece` lines for a variant.
pub fn xboard_lines(spec: &VariantSpec) -> Result<Vec<String>, String> {
    let mut lines = vec![setup_line(spec)?];
    lines.extend(piece_lines(spec)?);
    Ok(lines)
}

/// The slot of every piece type (index of `spec.pieces`; None for the
/// King) in XBoard's table, for one colour.
fn colour_slots(spec: &VariantSpec, color: usize) -> Result<Vec<Option<usize>>, String> {
    let n = spec.pieces.len();
    let mut slot_of: Vec<Option<usize>> = vec![None; n];
    let mut taken = [false; 21];
    let board = parse_board(&spec.start_fen, spec)?;
    let at = |(f, r): (usize, usize)| {
        spec.shape
            .square(f as i32, r as i32)
            .and_then(|sq| board.get(sq).copied().flatten())
    };
    fn give(taken: &mut [bool; 21], slot_of: &mut [Option<usize>], t: usize, slot: usize) {
        taken[slot] = true;
        slot_of[t] = Some(slot);
    }
    for (t, p) in spec.pieces.iter().enumerate() {
        if p.role == Role::Pawn {
            give(&mut taken, &mut slot_of, t, 0);
        }
    }
    // the castling partner: XBoard's Rook
    if let Some(t) = spec
        .castles
        .iter()
        .filter(|c| c.color == color)
        .find_map(|c| {
            at(c.rook_from)
                .filter(|&(cc, _)| cc == color)
                .map(|(_, t)| t)
        })
        && spec.pieces[t].role == Role::Piece
    {
        give(&mut taken, &mut slot_of, t, 3);
    }
    // this colour's own pieces first, then the other army's
    let own = |t: usize| board.iter().flatten().any(|&(c, tt)| c == color && tt == t);
    let mut order: Vec<usize> = (0..n)
        .filter(|&t| spec.pieces[t].role == Role::Piece && slot_of[t].is_none())
        .collect();
    order.sort_by_key(|&t| !own(t));
    let mut rest = Vec::new();
    for &t in &order {
        let l = spec.pieces[t].letter.to_ascii_uppercase();
        match SLOT_LETTERS.iter().position(|&c| c as char == l) {
            Some(i) if !RESERVED.contains(&i) && !taken[i] => give(&mut taken, &mut slot_of, t, i),
            _ => rest.push(t),
        }
    }
    for t in rest {
        let free = FREE_ORDER
            .iter()
            .copied()
            .find(|&i| !taken[i])
            .ok_or_else(|| "too many piece types for XBoard's piece table".to_string())?;
        give(&mut taken, &mut slot_of, t, free);
    }
    Ok(slot_of)
}

/// PIECETOCHAR: 22 characters for White (21 slots and the King), then the
/// same for Black.
pub fn piece_to_char(spec: &VariantSpec) -> Result<String, String> {
    let mut s = String::new();
    for color in [WHITE, BLACK] {
        let slot_of = colour_slots(spec, color)?;
        let mut row = ['.'; 22];
        row[21] = 'K';
        for (t, slot) in slot_of.iter().enumerate() {
            if let Some(i) = slot {
                row[*i] = spec.pieces[t].letter.to_ascii_uppercase();
            }
        }
        let row: String = row.iter().collect();
        s.push_str(&if color == WHITE {
            row
        } else {
            row.to_ascii_lowercase()
        });
    }
    Ok(s)
}

/// `setup (PIECETOCHAR) WxH+0_fairy FEN`
pub fn setup_line(spec: &VariantSpec) -> Result<String, String> {
    Ok(format!(
        "setup ({}) {}x{}+0_fairy {}",
        piece_to_char(spec)?,
        spec.shape.files,
        spec.shape.ranks,
        spec.start_fen
    ))
}

/// The castling part of a King's Betza string for one colour, in XBoard's
/// dialect (directions as the piece sees them).
pub fn castling_betza(spec: &VariantSpec, color: usize) -> String {
    let shape = &spec.shape;
    // (direction letter as seen by the piece, jumps over, squares moved)
    let mut parts: Vec<(char, usize, usize)> = Vec::new();
    let mut castles: Vec<&CastleSpec> = spec.castles.iter().filter(|c| c.color == color).collect();
    // the h-side castling first: XBoard 4.9 takes the first `O<n>` of a
    // King's description as the stride of a SAN `O-O` (King n squares
    // towards the h-file) and of `O-O-O` (n towards the a-file), so with
    // this order an opponent's `O-O` is read right in every army; an
    // `O-O-O` whose stride differs (the Clobberers' 3) cannot be, there
    castles.sort_by_key(|c| std::cmp::Reverse(c.king_to.0));
    for c in castles {
        let (kf, r) = c.king_from;
        let kt = c.king_to.0;
        let right = kt > kf;
        let n = kt.abs_diff(kf);
        // the last square of the rank in this direction (the corner)
        let corner = if right {
            (0..shape.files).rev().find(|&f| !shape.is_hole(f, r))
        } else {
            (0..shape.files).find(|&f| !shape.is_hole(f, r))
        }
        .unwrap_or(c.rook_from.0);
        let j = corner.abs_diff(c.rook_from.0);
        // XBoard turns Black's moves round: Black's 'l' is towards the h-file
        let letter = match (right, color == WHITE) {
            (true, true) | (false, false) => 'r',
            _ => 'l',
        };
        parts.push((letter, j, n));
    }
    let same = parts.len() == 2 && parts[0].1 == parts[1].1 && parts[0].2 == parts[1].2;
    if same {
        let (_, j, n) = parts[0];
        format!("is{}O{n}", "j".repeat(j))
    } else {
        parts
            .iter()
            .map(|&(d, j, n)| format!("i{d}{}O{n}", "j".repeat(j)))
            .collect()
    }
}

/// One `piece` line per piece type; two (one per colour) for a type whose
/// slots differ, and for the King when the colours castle differently.
pub fn piece_lines(spec: &VariantSpec) -> Result<Vec<String>, String> {
    let white = colour_slots(spec, WHITE)?;
    let black = colour_slots(spec, BLACK)?;
    let mut lines = Vec::new();
    for (t, p) in spec.pieces.iter().enumerate() {
        let up = p.letter.to_ascii_uppercase();
        let low = p.letter.to_ascii_lowercase();
        let (w, b) = if p.role == Role::King {
            (
                format!("{}{}", p.betza, castling_betza(spec, WHITE)),
                format!("{}{}", p.betza, castling_betza(spec, BLACK)),
            )
        } else {
            (p.betza.clone(), p.betza.clone())
        };
        if w == b && white[t] == black[t] {
            lines.push(format!("piece {up}& {w}"));
        } else {
            lines.push(format!("piece {up} {w}"));
            lines.push(format!("piece {low} {b}"));
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> VariantSpec {
        VariantSpec::by_name(name, &[]).unwrap()
    }

    #[test]
    fn omega_lines() {
        let s = spec("omega");
        let lines = xboard_lines(&s).unwrap();
        assert_eq!(
            lines[0],
            format!(
                "setup (PNBRQ...CW...........Kpnbrq...cw...........k) 12x12+0_fairy {}",
                s.start_fen
            )
        );
        assert!(lines.contains(&"piece K& KisjO2".to_string()));
        assert!(lines.contains(&"piece P& fmWfceFifmW3".to_string()));
        assert!(lines.contains(&"piece C& WAD".to_string()));
        assert!(lines.contains(&"piece W& FC".to_string()));
        assert!(lines.contains(&"piece N& N".to_string()));
    }

    /// Every type has its moves for both colours: `X&`, or `X` and `x`.
    fn described(lines: &[String], letter: char, betza: &str) -> bool {
        let up = letter.to_ascii_uppercase();
        let low = letter.to_ascii_lowercase();
        lines.contains(&format!("piece {up}& {betza}"))
            || (lines.contains(&format!("piece {up} {betza}"))
                && lines.contains(&format!("piece {low} {betza}")))
    }

    #[test]
    fn cwda_lines() {
        let s = spec("cwda-nutty-clobberers");
        let lines = xboard_lines(&s).unwrap();
        let ptc = piece_to_char(&s).unwrap();
        assert_eq!(ptc.len(), 44);
        for l in ['G', 'I', 'T', 'L', 'D', 'W', 'F', 'C'] {
            assert_eq!(ptc.matches(l).count(), 1, "{ptc}");
            assert_eq!(ptc.matches(l.to_ascii_lowercase()).count(), 1, "{ptc}");
        }
        // each side's castling partner in XBoard's Rook slot
        assert_eq!(&ptc[3..4], "G");
        assert_eq!(&ptc[25..26], "d");
        assert!(
            lines[0]
                .contains(" 8x8+0_fairy dwfckfwd/pppppppp/8/8/8/8/PPPPPPPP/GITLKTIG w KQkq - 0 1")
        );
        assert!(lines.contains(&"piece K KisO2".to_string()), "{lines:?}");
        assert!(
            lines.contains(&"piece k KilO2irO3".to_string()),
            "{lines:?}"
        );
        assert!(lines.contains(&"piece d BD".to_string()), "{lines:?}");
        assert!(lines.contains(&"piece G fsRbWbF".to_string()), "{lines:?}");
        for (l, b) in [
            ('P', "fmWfceFifmW2"),
            ('G', "fsRbWbF"),
            ('I', "fbNF"),
            ('T', "fhNbsWbF"),
            ('L', "fhNfsRK"),
            ('D', "BD"),
            ('W', "WA"),
            ('F', "FAD"),
            ('C', "BN"),
        ] {
            assert!(described(&lines, l, b), "{l} {b}: {lines:?}");
        }
        let s = spec("cwda-clobberers-rookies");
        let lines = piece_lines(&s).unwrap();
        assert!(
            lines.contains(&"piece K KirO2ilO3".to_string()),
            "{lines:?}"
        );
        assert!(lines.contains(&"piece k KisO2".to_string()), "{lines:?}");
        assert!(described(&lines, 'H', "HFD"));
        assert!(described(&lines, 'S', "R4"));
        let ptc = piece_to_char(&s).unwrap();
        assert_eq!((&ptc[3..4], &ptc[25..26]), ("D", "s"));
        let s = spec("cwda-clobberers-clobberers");
        let lines = piece_lines(&s).unwrap();
        assert!(
            lines.contains(&"piece K KirO2ilO3".to_string()),
            "{lines:?}"
        );
        assert!(
            lines.contains(&"piece k KilO2irO3".to_string()),
            "{lines:?}"
        );
        assert!(lines.contains(&"piece D& BD".to_string()), "{lines:?}");
        let lines = piece_lines(&spec("chess")).unwrap();
        assert!(lines.contains(&"piece K& KisO2".to_string()));
        assert!(lines.contains(&"piece R& R".to_string()));
        assert_eq!(
            piece_to_char(&spec("chess")).unwrap(),
            "PNBRQ................Kpnbrq................k"
        );
    }
}
