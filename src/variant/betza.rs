//! Betza notation (XBoard dialect) -> move rules.
//!
//! Supported: atoms W F D A N H C Z G (leapers), K (= WF), R B Q (riders),
//! a doubled leaper atom (`NN`) or a range after an atom (`R4`, `W2`, `N0`)
//! for riders; direction modifiers f b l r s v h, with the two-letter forms
//! of oblique atoms (`fs` the wide forward moves, `rf` one narrow move, `fh`
//! the forward half); modality m (move only), c (capture only), e (capture en
//! passant), i (only from the piece's initial squares).
//!
//! Vectors are (dx, dy) from White's point of view: dy > 0 is forward,
//! dx > 0 is to the right (towards the h-file). Black mirrors dy.

/// What a move rule may do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Modes {
    /// move to an empty square
    pub quiet: bool,
    /// capture an enemy piece on the target square
    pub capture: bool,
    /// capture en passant onto a square a pawn skipped
    pub ep: bool,
    /// only from the piece's initial squares
    pub initial: bool,
}

/// A group of moves with one step length and the same range and modes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    pub vectors: Vec<(i32, i32)>,
    /// 1 for a leap, n > 1 for a rider of at most n steps, 0 for unlimited
    pub range: u32,
    pub modes: Modes,
}

impl MoveRule {
    pub fn is_rider(&self) -> bool {
        self.range != 1
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Orth,
    Diag,
    Oblique,
    /// K and Q: orthogonal and diagonal together, where a single direction
    /// letter means one orthogonal direction and a pair one diagonal.
    Compound,
}

fn base_vector(atom: char) -> Option<(i32, i32)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'A' => (2, 2),
        'N' => (2, 1),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All symmetric images of a base vector (x >= y >= 0).
fn symmetric(x: i32, y: i32) -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for &(a, b) in &[(x, y), (y, x)] {
        for sa in [1, -1] {
            for sb in [1, -1] {
                let p = (a * sa, b * sb);
                if !v.contains(&p) {
                    v.push(p);
                }
            }
        }
    }
    v
}

/// One direction token: a letter, or a pair of letters read together.
#[derive(Clone, Copy, Debug)]
enum Token {
    Single(char),
    Pair(char, char),
}

fn is_vert(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'v')
}
fn is_horiz(c: char) -> bool {
    matches!(c, 'l' | 'r' | 's')
}

fn tokenize(dirs: &[char], kind: Kind) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let c = dirs[i];
        if let Some(&d) = dirs.get(i + 1) {
            let pair = d == 'h'
                || (kind != Kind::Orth
                    && ((is_vert(c) && is_horiz(d)) || (is_horiz(c) && is_vert(d))))
                || (kind == Kind::Oblique && c == d && c != 'h');
            if pair {
                out.push(Token::Pair(c, d));
                i += 2;
                continue;
            }
        }
        out.push(Token::Single(c));
        i += 1;
    }
    out
}

fn sign_ok(letter: char, v: i32, pos: char, neg: char) -> bool {
    match letter {
        c if c == pos => v > 0,
        c if c == neg => v < 0,
        _ => v != 0, // 'v' or 's': either sign
    }
}

/// Whether vector (dx, dy) of an atom of this kind is selected by a token.
fn selects(tok: Token, kind: Kind, dx: i32, dy: i32) -> bool {
    let narrow = dy.abs() > dx.abs();
    let wide = dx.abs() > dy.abs();
    let diag = dx.abs() == dy.abs();
    match tok {
        Token::Pair(c, 'h') => match c {
            'f' => dy > 0,
            'b' => dy < 0,
            'l' => dx < 0,
            'r' => dx > 0,
            _ => true,
        },
        Token::Pair(c, d) if c == d => selects(Token::Single(c), kind, dx, dy),
        Token::Pair(c, d) => {
            // A vertical and a horizontal letter.
            let (vl, hl) = if is_vert(c) { (c, d) } else { (d, c) };
            let signs = sign_ok(vl, dy, 'f', 'b') && sign_ok(hl, dx, 'r', 'l');
            match kind {
                Kind::Orth => false,
                Kind::Diag => signs,
                Kind::Compound => diag && signs,
                // vertical letter first: the wide moves; horizontal first: narrow
                Kind::Oblique => signs && if is_vert(c) { wide } else { narrow },
            }
        }
        Token::Single(c) => match kind {
            Kind::Orth | Kind::Compound => {
                if kind == Kind::Compound && diag {
                    return false;
                }
                match c {
                    'f' => dy > 0,
                    'b' => dy < 0,
                    'l' => dx < 0,
                    'r' => dx > 0,
                    's' => dx != 0,
                    'v' => dy != 0,
                    _ => false,
                }
            }
            Kind::Diag => match c {
                'f' => dy > 0,
                'b' => dy < 0,
                'l' => dx < 0,
                'r' => dx > 0,
                _ => true,
            },
            Kind::Oblique => match c {
                'f' => narrow && dy > 0,
                'b' => narrow && dy < 0,
                'l' => wide && dx < 0,
                'r' => wide && dx > 0,
                's' => wide,
                'v' => narrow,
                _ => false,
            },
        },
    }
}

/// Parses a Betza string into move rules. Errors say what and where.
pub fn parse(betza: &str) -> Result<Vec<MoveRule>, String> {
    let chars: Vec<char> = betza.chars().collect();
    if chars.is_empty() {
        return Err("empty Betza string".into());
    }
    let mut rules = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let (dirs, modes) = modifiers(&chars, &mut i)?;
        let Some(&atom) = chars.get(i) else {
            return Err(format!(
                "modifiers at position {} are not followed by an atom",
                start + 1
            ));
        };
        i += 1;
        let (parts, range, kind) = atom_parts(atom, i)?;
        let range = range_suffix(&chars, &mut i, atom, range)?;
        if modes.ep && range != 1 {
            return Err(format!(
                "en-passant capture 'e' needs a leap at position {}",
                start + 1
            ));
        }
        if modes.initial && modes.capture {
            return Err(format!(
                "initial-only captures ('i' without 'm') at position {} are not supported",
                start + 1
            ));
        }
        let tokens = tokenize(&dirs, kind);
        if let Some(Token::Single('h')) = tokens.first() {
            return Err(format!(
                "'h' at position {} must follow a direction",
                start + 1
            ));
        }
        let vectors: Vec<(i32, i32)> = parts
            .iter()
            .flat_map(|&(x, y)| symmetric(x, y))
            .filter(|&(dx, dy)| {
                tokens.is_empty() || tokens.iter().any(|&t| selects(t, kind, dx, dy))
            })
            .collect();
        if vectors.is_empty() {
            return Err(format!(
                "directions '{}' select no move of '{atom}'",
                dirs.iter().collect::<String>()
            ));
        }
        rules.push(MoveRule {
            vectors,
            range,
            modes,
        });
    }
    Ok(rules)
}

/// The lower-case modifiers from `chars[*i]` on: directions and modes
/// (quiet and capture both when no modality is given).
fn modifiers(chars: &[char], i: &mut usize) -> Result<(Vec<char>, Modes), String> {
    let mut dirs = Vec::new();
    let mut modes = Modes::default();
    let mut modality_given = false;
    while *i < chars.len() && chars[*i].is_ascii_lowercase() {
        match chars[*i] {
            'f' | 'b' | 'l' | 'r' | 's' | 'v' | 'h' => dirs.push(chars[*i]),
            'm' => {
                modes.quiet = true;
                modality_given = true;
            }
            'c' => {
                modes.capture = true;
                modality_given = true;
            }
            'e' => {
                modes.ep = true;
                modality_given = true;
            }
            'i' => modes.initial = true,
            other => {
                return Err(format!(
                    "modifier '{other}' at position {} is not supported",
                    *i + 1
                ));
            }
        }
        *i += 1;
    }
    if !modality_given {
        modes.quiet = true;
        modes.capture = true;
    }
    Ok((dirs, modes))
}

/// An atom's base vectors, its range (0: unlimited) and kind.
type Atom = (Vec<(i32, i32)>, u32, Kind);

/// The atom `atom`'s parts; `at` is the position after it, for errors.
fn atom_parts(atom: char, at: usize) -> Result<Atom, String> {
    Ok(match atom {
        'K' => (vec![(1, 0), (1, 1)], 1, Kind::Compound),
        'R' => (vec![(1, 0)], 0, Kind::Orth),
        'B' => (vec![(1, 1)], 0, Kind::Diag),
        'Q' => (vec![(1, 0), (1, 1)], 0, Kind::Compound),
        a => match base_vector(a) {
            Some((x, y)) => {
                let kind = if y == 0 {
                    Kind::Orth
                } else if x == y {
                    Kind::Diag
                } else {
                    Kind::Oblique
                };
                (vec![(x, y)], 1, kind)
            }
            None if a == 'O' => {
                return Err(format!(
                    "castling 'O' at position {at} belongs to the variant, not to a piece"
                ));
            }
            None => return Err(format!("unknown atom '{a}' at position {at}")),
        },
    })
}

/// The range after an atom: a doubled leaper is an unlimited rider
/// (NN = nightrider); digits give the range explicitly.
fn range_suffix(chars: &[char], i: &mut usize, atom: char, mut range: u32) -> Result<u32, String> {
    if range == 1 && chars.get(*i) == Some(&atom) && base_vector(atom).is_some() {
        range = 0;
        *i += 1;
    }
    let digits_start = *i;
    while *i < chars.len() && chars[*i].is_ascii_digit() {
        *i += 1;
    }
    if *i > digits_start {
        let n: u32 = chars[digits_start..*i]
            .iter()
            .collect::<String>()
            .parse()
            .map_err(|_| format!("bad range at position {}", digits_start + 1))?;
        if n > 64 {
            return Err(format!(
                "range {n} at position {} is too large",
                digits_start + 1
            ));
        }
        range = n;
    }
    Ok(range)
}

/// Whether every move of the piece keeps it on squares of one colour.
pub fn colour_bound(rules: &[MoveRule]) -> bool {
    rules
        .iter()
        .all(|r| r.vectors.iter().all(|&(dx, dy)| (dx + dy) % 2 == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vecs(s: &str) -> Vec<(i32, i32)> {
        let mut v: Vec<_> = parse(s)
            .unwrap()
            .into_iter()
            .flat_map(|r| r.vectors)
            .collect();
        v.sort();
        v.dedup();
        v
    }

    fn sorted(mut v: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
        v.sort();
        v
    }

    #[test]
    fn knight_directions() {
        assert_eq!(vecs("N").len(), 8);
        assert_eq!(vecs("fN"), sorted(vec![(-1, 2), (1, 2)]));
        assert_eq!(vecs("ffN"), sorted(vec![(-1, 2), (1, 2)]));
        assert_eq!(vecs("fsN"), sorted(vec![(-2, 1), (2, 1)]));
        assert_eq!(vecs("bsN"), sorted(vec![(-2, -1), (2, -1)]));
        assert_eq!(vecs("fhN"), sorted(vec![(-1, 2), (1, 2), (-2, 1), (2, 1)]));
        assert_eq!(vecs("rfN"), vec![(1, 2)]);
        assert_eq!(vecs("frN"), vec![(2, 1)]);
        // Fibnif: narrow forward and backward knight + ferz.
        assert_eq!(
            vecs("fbNF"),
            sorted(vec![
                (-1, 2),
                (1, 2),
                (-1, -2),
                (1, -2),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1)
            ])
        );
    }

    #[test]
    fn orth_and_diag_directions() {
        assert_eq!(vecs("fsR"), sorted(vec![(0, 1), (1, 0), (-1, 0)]));
        assert_eq!(vecs("bWbF"), sorted(vec![(0, -1), (1, -1), (-1, -1)]));
        assert_eq!(vecs("fB"), sorted(vec![(1, 1), (-1, 1)]));
        assert_eq!(vecs("flF"), vec![(-1, 1)]);
        assert_eq!(vecs("bsW"), sorted(vec![(0, -1), (1, 0), (-1, 0)]));
    }

    #[test]
    fn ranges_and_modes() {
        let r = parse("R4").unwrap();
        assert_eq!(r[0].range, 4);
        let r = parse("NN").unwrap();
        assert_eq!(r[0].range, 0);
        let p = parse("fmWfceFifmW2").unwrap();
        assert_eq!(p.len(), 3);
        assert!(p[0].modes.quiet && !p[0].modes.capture);
        assert!(p[1].modes.capture && p[1].modes.ep && !p[1].modes.quiet);
        assert!(p[2].modes.initial && p[2].range == 2);
        assert_eq!(p[2].vectors, vec![(0, 1)]);
    }

    #[test]
    fn errors() {
        assert!(parse("X").unwrap_err().contains("unknown atom"));
        assert!(parse("fm").unwrap_err().contains("not followed"));
        assert!(parse("pR").unwrap_err().contains("not supported"));
        assert!(parse("").is_err());
        assert!(parse("KO2").unwrap_err().contains("castling"));
        assert!(parse("icN").unwrap_err().contains("initial-only"));
        assert!(parse("iN").unwrap_err().contains("initial-only"));
        assert!(parse("ceR").unwrap_err().contains("en-passant"));
    }

    #[test]
    fn colour_binding() {
        assert!(colour_bound(&parse("BD").unwrap()));
        assert!(colour_bound(&parse("FAD").unwrap()));
        assert!(!colour_bound(&parse("WA").unwrap()));
        assert!(!colour_bound(&parse("fsRbWbF").unwrap()));
    }
}
