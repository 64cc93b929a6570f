//! Which drawing of `assets/pieces.svg` shows a piece: every piece of the
//! built-in games (chess, Omega, each CwDA army, four-player chess) has
//! its own, found by its letter and its move (Betza); a piece an armies
//! file adds is none of these and is drawn as a lettered shield.

use crate::variant::Role;

/// (letter, Betza, drawing) of each built-in piece that is not a King or
/// a pawn.
const BUILT_IN: [(char, &str, &str); 23] = [
    ('Q', "Q", "p-queen"),
    ('R', "R", "p-rook"),
    ('B', "B", "p-bishop"),
    ('N', "N", "p-knight"),
    // Omega Chess
    ('C', "WAD", "p-champion"),
    ('W', "FC", "p-wizard"),
    // CwDA: Colorbound Clobberers
    ('D', "BD", "p-bede"),
    ('W', "WA", "p-waffle"),
    ('F', "FAD", "p-fad"),
    ('C', "BN", "p-cardinal"),
    // Nutty Knights
    ('G', "fsRbWbF", "p-charging-rook"),
    ('I', "fbNF", "p-fibnif"),
    ('T', "fhNbsWbF", "p-charging-knight"),
    ('L', "fhNfsRK", "p-colonel"),
    // Remarkable Rookies
    ('S', "R4", "p-short-rook"),
    ('O', "WD", "p-woody-rook"),
    ('H', "HFD", "p-half-duck"),
    ('M', "RN", "p-chancellor"),
    // the derived armies
    ('Z', "QN", "p-amazon"),
    ('U', "ffNbsN", "p-crab"),
    ('X', "fBbhN", "p-bishight"),
    ('J', "fhNbB", "p-knishop"),
    ('E', "fsRfBbhNbWbF", "p-forequeen"),
];

/// The drawing of a piece (`letter` upper-case), or `None` for a piece
/// of no built-in game.
pub fn glyph(letter: char, betza: &str, role: Role) -> Option<&'static str> {
    match role {
        Role::King => Some("p-king"),
        Role::Pawn => Some("p-pawn"),
        Role::Piece => BUILT_IN
            .iter()
            .find(|&&(l, b, _)| l == letter && b == betza)
            .map(|&(_, _, g)| g),
    }
}

/// The drawing of a four-player chess piece by its letter (K P N B R Q).
pub fn four_player_glyph(letter: char) -> &'static str {
    match letter {
        'K' => "p-king",
        'P' => "p-pawn",
        l => BUILT_IN[..4]
            .iter()
            .find(|&&(c, _, _)| c == l)
            .map_or("g-piece", |&(_, _, g)| g),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::armies::builtin;
    use crate::variant::spec::VariantSpec;

    const SVG: &str = include_str!("assets/pieces.svg");

    fn defined(id: &str) -> bool {
        SVG.contains(&format!("<symbol id=\"{id}\""))
    }

    #[test]
    fn every_built_in_piece_has_its_own_drawing() {
        // every piece of every built-in army and of Omega, found by its
        // own data, and no two kinds of piece drawn alike
        let mut seen: Vec<(String, &str)> = Vec::new();
        let mut check = |letter: char, name: &str, betza: &str, role: Role| {
            let g = glyph(letter, betza, role)
                .unwrap_or_else(|| panic!("{name} ({letter} {betza}) has no drawing"));
            assert!(defined(g), "{g} is not in pieces.svg");
            if let Some((other, _)) = seen.iter().find(|(n, o)| *o == g && n != name) {
                panic!("{name} and {other} are drawn alike ({g})");
            }
            seen.push((name.to_string(), g));
        };
        for army in builtin() {
            for p in &army.slots {
                check(p.letter, &p.name, &p.betza, Role::Piece);
            }
        }
        let omega = VariantSpec::by_name("omega", &[]).expect("omega");
        for p in &omega.pieces {
            check(p.letter.to_ascii_uppercase(), &p.name, &p.betza, p.role);
        }
        assert!(seen.len() >= 25, "{} kinds", seen.len());
        for l in ['K', 'P', 'N', 'B', 'R', 'Q'] {
            assert!(defined(four_player_glyph(l)));
        }
    }

    #[test]
    fn a_piece_of_an_armies_file_is_a_lettered_shield() {
        assert_eq!(glyph('A', "BN", Role::Piece), None);
        assert_eq!(glyph('C', "BNW", Role::Piece), None);
        assert!(defined("g-piece"));
    }
}
