//! Armies for Chess with Different Armies: the built-in ones of RULES.md and
//! user armies read from an armies file.
//!
//! Armies file format (one army per block, `#` starts a comment):
//!
//! ```text
//! army spearmen "Spearmen"
//! rook    Y  fsRbW   Spear Rook   value=450
//! knight  N  N       Knight
//! bishop  B  B       Bishop
//! queen   A  QN      Amazon       value=1200
//! ```
//!
//! `army <token> [display name]` starts an army; each slot line gives the
//! slot, the piece's letter (upper case; K and P are taken), its Betza
//! string, its name, and optionally `value=<centipawns>` or
//! `value=<middlegame>/<endgame>`.
//!
//! A file may not redefine an army that exists (a built-in one, or one
//! defined before), and a letter means one piece across all armies: both
//! are refused when the file is read, naming its line.

use super::betza;

pub const SLOTS: [&str; 4] = ["rook", "knight", "bishop", "queen"];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Upper-case letter (White); Black's is the lower-case one.
    pub letter: char,
    pub name: String,
    pub betza: String,
    /// Centipawns, if known; otherwise the evaluation estimates it.
    pub value: Option<i32>,
    /// The endgame value, where it differs from `value`.
    pub value_eg: Option<i32>,
}

impl PieceDef {
    pub fn new(letter: char, name: &str, betza: &str, value: Option<i32>) -> PieceDef {
        PieceDef {
            letter,
            name: name.to_string(),
            betza: betza.to_string(),
            value,
            value_eg: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Army {
    /// The token used in variant names (`cwda-<white>-<black>`).
    pub token: String,
    pub name: String,
    /// Rook, knight, bishop and queen slot, in that order.
    pub slots: [PieceDef; 4],
}

/// A piece with middlegame and endgame values.
fn pv(letter: char, name: &str, betza: &str, mg: i32, eg: i32) -> PieceDef {
    PieceDef {
        value_eg: Some(eg),
        ..PieceDef::new(letter, name, betza, Some(mg))
    }
}

fn army(token: &str, name: &str, slots: [PieceDef; 4]) -> Army {
    Army {
        token: token.into(),
        name: name.into(),
        slots,
    }
}

/// The armies of RULES.md. The values (middlegame, endgame) are fitted to
/// the results of Chimera's self-play games with every pairing of the
/// armies (`chimera texel --pieces --pieces-eg`, starting from ChessV's
/// middlegame values, RULES.md's reference), Pawns fixed at 100.
pub fn builtin() -> Vec<Army> {
    let rook = || pv('R', "Rook", "R", 512, 586);
    let knight = || pv('N', "Knight", "N", 327, 355);
    let bishop = || pv('B', "Bishop", "B", 314, 340);
    let short_rook = || pv('S', "Short Rook", "R4", 388, 540);
    let charging_rook = || pv('G', "Charging Rook", "fsRbWbF", 537, 570);
    let fibnif = || pv('I', "Fibnif", "fbNF", 351, 421);
    let bishight = || pv('X', "Bishight", "fBbhN", 370, 418);
    let chancellor = || pv('M', "Chancellor", "RN", 977, 1014);
    let amazon = || pv('Z', "Amazon", "QN", 1435, 1458);
    vec![
        army(
            "fide",
            "Fabulous FIDEs",
            [rook(), knight(), bishop(), pv('Q', "Queen", "Q", 994, 1152)],
        ),
        army(
            "clobberers",
            "Colorbound Clobberers",
            [
                pv('D', "Bede", "BD", 455, 433),
                pv('W', "Waffle", "WA", 331, 382),
                pv('F', "FAD", "FAD", 439, 376),
                pv('C', "Cardinal", "BN", 890, 864),
            ],
        ),
        army(
            "nutty",
            "Nutty Knights",
            [
                charging_rook(),
                fibnif(),
                pv('T', "Charging Knight", "fhNbsWbF", 369, 482),
                pv('L', "Colonel", "fhNfsRK", 993, 756),
            ],
        ),
        army(
            "rookies",
            "Remarkable Rookies",
            [
                short_rook(),
                pv('O', "Woody Rook", "WD", 343, 410),
                pv('H', "Half Duck", "HFD", 517, 593),
                chancellor(),
            ],
        ),
        army(
            "amazon",
            "Amazon Army",
            [short_rook(), knight(), bishop(), amazon()],
        ),
        army(
            "amazoncrab",
            "Amazon Army with Crabs",
            [
                short_rook(),
                pv('U', "Crab", "ffNbsN", 174, 74),
                bishop(),
                amazon(),
            ],
        ),
        army(
            "allstars",
            "All-Around Allstars",
            [charging_rook(), fibnif(), bishight(), chancellor()],
        ),
        army(
            "forward",
            "Forward FIDEs",
            [
                charging_rook(),
                pv('J', "Knishop", "fhNbB", 343, 370),
                bishight(),
                pv('E', "Forequeen", "fsRfBbhNbWbF", 1005, 1179),
            ],
        ),
    ]
}

/// Parses an armies file, to be used beside the built-in armies. Errors
/// name the file's line and the piece.
pub fn parse_file(text: &str, file_name: &str) -> Result<Vec<Army>, String> {
    parse_file_beside(text, file_name, &builtin())
}

/// Parses an armies file, to be used beside the armies `known` (the
/// built-in ones and those of files read before).
pub fn parse_file_beside(text: &str, file_name: &str, known: &[Army]) -> Result<Vec<Army>, String> {
    let mut armies: Vec<Army> = Vec::new();
    let mut cur: Option<Partial> = None;
    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |msg: String| format!("{file_name}:{line_no}: {msg}");
        let mut words = line.split_whitespace();
        let head = words.next().unwrap_or("");
        if head == "army" {
            if let Some(p) = cur.take() {
                armies.push(p.finish(file_name)?);
            }
            let taken = |token: &str| known.iter().chain(&armies).any(|a| a.token == token);
            cur = Some(army_line(words, line_no, taken).map_err(at)?);
            continue;
        }
        let Some(slot) = SLOTS.iter().position(|&s| s == head) else {
            return Err(at(format!(
                "expected 'army' or a slot (rook, knight, bishop, queen), found '{head}'"
            )));
        };
        let Some(partial) = cur.as_mut() else {
            return Err(at(format!("'{head}' line before any 'army' line")));
        };
        let def = piece_line(head, words).map_err(at)?;
        if partial.slots[slot].is_some() {
            return Err(at(format!("army '{}' has two {head} slots", partial.token)));
        }
        let this_army = partial.slots.iter().flatten().map(|o| (&partial.token, o));
        if let Some((army, other)) =
            letter_clash(&def, pieces(known.iter().chain(&armies)).chain(this_army))
        {
            return Err(at(format!(
                "letter '{}' of '{}' ({}) is already '{}' ({}) of army '{army}': one letter, one piece",
                def.letter, def.name, def.betza, other.name, other.betza
            )));
        }
        partial.slots[slot] = Some(def);
    }
    if let Some(p) = cur.take() {
        armies.push(p.finish(file_name)?);
    }
    if armies.is_empty() {
        return Err(format!("{file_name}: no army defined"));
    }
    Ok(armies)
}

/// An army being read: its slots filled as their lines come.
struct Partial {
    token: String,
    name: String,
    line: usize,
    slots: [Option<PieceDef>; 4],
}

impl Partial {
    fn finish(self, file_name: &str) -> Result<Army, String> {
        let mut slots = Vec::new();
        for (i, s) in self.slots.into_iter().enumerate() {
            match s {
                Some(d) => slots.push(d),
                None => {
                    return Err(format!(
                        "{file_name}:{}: army '{}' has no {} slot",
                        self.line, self.token, SLOTS[i]
                    ));
                }
            }
        }
        Ok(Army {
            token: self.token,
            name: self.name,
            slots: slots.try_into().expect("four slots"),
        })
    }
}

/// `army TOKEN ["Name"]`, after the word `army`; `taken` says whether a
/// token is already some army's.
fn army_line<'a>(
    mut words: impl Iterator<Item = &'a str>,
    line: usize,
    taken: impl Fn(&str) -> bool,
) -> Result<Partial, String> {
    let token = words.next().ok_or("'army' needs a name token")?.to_string();
    if builtin().iter().any(|a| a.token == token) {
        return Err(format!(
            "army '{token}' is a built-in army; give yours another token"
        ));
    }
    if taken(&token) {
        return Err(format!("army '{token}' is defined twice"));
    }
    if !token
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    {
        return Err(format!(
            "army token '{token}' must be lower-case letters and digits"
        ));
    }
    let rest: Vec<&str> = words.collect();
    let name = rest.join(" ").trim_matches('"').to_string();
    Ok(Partial {
        name: if name.is_empty() { token.clone() } else { name },
        token,
        line,
        slots: Default::default(),
    })
}

/// `SLOT LETTER BETZA [value=MG[/EG]] [name words]`, after the slot's word
/// `head`.
fn piece_line<'a>(
    head: &str,
    mut words: impl Iterator<Item = &'a str>,
) -> Result<PieceDef, String> {
    let letter_word = words
        .next()
        .ok_or_else(|| format!("{head}: missing piece letter"))?;
    let mut lc = letter_word.chars();
    let letter = match (lc.next(), lc.next()) {
        (Some(c), None) if c.is_ascii_uppercase() && c != 'K' && c != 'P' => c,
        _ => {
            return Err(format!(
                "{head}: piece letter '{letter_word}' must be one upper-case letter other than K and P"
            ));
        }
    };
    let betza_str = words
        .next()
        .ok_or_else(|| format!("{head} '{letter}': missing Betza string"))?;
    let mut name_words = Vec::new();
    let mut value = None;
    let mut value_eg = None;
    for w in words {
        if let Some(v) = w.strip_prefix("value=") {
            let bad = || format!("{head} '{letter}': bad value '{v}'");
            let (mg, eg) = match v.split_once('/') {
                Some((mg, eg)) => (mg, Some(eg)),
                None => (v, None),
            };
            value = Some(mg.parse::<i32>().map_err(|_| bad())?);
            value_eg = eg
                .map(|e| e.parse::<i32>().map_err(|_| bad()))
                .transpose()?;
        } else {
            name_words.push(w);
        }
    }
    let name = if name_words.is_empty() {
        letter.to_string()
    } else {
        name_words.join(" ")
    };
    betza::parse(betza_str)
        .map_err(|e| format!("piece '{name}' ({letter}): bad Betza '{betza_str}': {e}"))?;
    Ok(PieceDef {
        letter,
        name,
        betza: betza_str.to_string(),
        value,
        value_eg,
    })
}

/// The pieces of `armies`, each with its army's token.
fn pieces<'a>(
    armies: impl Iterator<Item = &'a Army>,
) -> impl Iterator<Item = (&'a String, &'a PieceDef)> {
    armies.flat_map(|a| a.slots.iter().map(move |d| (&a.token, d)))
}

/// A piece among `pieces` (army token, piece) with the letter of `d` but
/// other moves.
fn letter_clash<'a>(
    d: &PieceDef,
    mut pieces: impl Iterator<Item = (&'a String, &'a PieceDef)>,
) -> Option<(&'a String, &'a PieceDef)> {
    pieces.find(|(_, o)| o.letter == d.letter && o.betza != d.betza)
}

/// Checks that armies agree on letters: one letter, one piece.
pub fn check_letters(armies: &[Army]) -> Result<(), String> {
    for (i, a) in armies.iter().enumerate() {
        for d in &a.slots {
            if let Some((_, o)) = letter_clash(d, pieces(armies[..=i].iter())) {
                return Err(format!(
                    "letter '{}' means both '{}' ({}) and '{}' ({}) in army '{}'",
                    d.letter, o.name, o.betza, d.name, d.betza, a.token
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_armies_parse_and_agree() {
        let a = builtin();
        assert_eq!(a.len(), 8);
        for army in &a {
            for d in &army.slots {
                betza::parse(&d.betza).unwrap();
            }
        }
        check_letters(&a).unwrap();
    }

    #[test]
    fn file_parses() {
        let text = "# my armies\narmy spearmen \"Spearmen\"\nrook Y fsRbW Spear Rook value=450\nknight N N Knight\nbishop B B Bishop\nqueen A QN Amazon value=1200\n";
        let a = parse_file(text, "a.txt").unwrap();
        assert_eq!(a[0].token, "spearmen");
        assert_eq!(a[0].name, "Spearmen");
        assert_eq!(a[0].slots[0].value, Some(450));
        assert_eq!(a[0].slots[0].value_eg, None);
        assert_eq!(a[0].slots[3].name, "Amazon");
        // a middlegame and an endgame value
        let text =
            "army y\nrook Y fsRbW Spear Rook value=450/520\nknight N N\nbishop B B\nqueen A QN\n";
        let a = parse_file(text, "a.txt").unwrap();
        assert_eq!(a[0].slots[0].value, Some(450));
        assert_eq!(a[0].slots[0].value_eg, Some(520));
        for bad in [
            "value=450/",
            "value=/520",
            "value=4x0/520",
            "value=450/520/1",
        ] {
            let text = format!(
                "army y\nrook Y fsRbW Spear Rook {bad}\nknight N N\nbishop B B\nqueen A QN\n"
            );
            let e = parse_file(&text, "a.txt").unwrap_err();
            assert!(
                e.contains("a.txt:2") && e.contains("bad value"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn file_errors_name_line_and_piece() {
        let text = "army x\nrook Y fsRbX Spear Rook\n";
        let e = parse_file(text, "a.txt").unwrap_err();
        assert!(e.starts_with("a.txt:2:"), "{e}");
        assert!(e.contains("Spear Rook") && e.contains("'X'"), "{e}");
        let e = parse_file("army x\nrook Y R\n", "a.txt").unwrap_err();
        assert!(e.contains("no knight slot"), "{e}");
        let e = parse_file("rook Y R\n", "a.txt").unwrap_err();
        assert!(e.contains("a.txt:1:"), "{e}");
        let e = parse_file("army x\nrook K R\n", "a.txt").unwrap_err();
        assert!(e.contains("letter"), "{e}");
    }

    #[test]
    fn file_may_not_redefine_an_army_or_a_letter() {
        let army = |token: &str, queen: &str| {
            format!("army {token}\nrook R R\nknight N N\nbishop B B\nqueen {queen}\n")
        };
        let e = parse_file(&army("fide", "Q Q"), "a.txt").unwrap_err();
        assert!(e.starts_with("a.txt:1:") && e.contains("built-in"), "{e}");
        let twice = army("x", "Q Q") + &army("x", "Q Q");
        let e = parse_file(&twice, "a.txt").unwrap_err();
        assert!(e.starts_with("a.txt:6:") && e.contains("twice"), "{e}");
        // Q is the FIDE Queen
        let e = parse_file(&army("x", "Q R"), "a.txt").unwrap_err();
        assert!(e.starts_with("a.txt:5:") && e.contains("'Q'"), "{e}");
        // A is this file's first army's piece
        let e = parse_file(&(army("x", "A QN") + &army("y", "A R")), "a.txt").unwrap_err();
        assert!(e.starts_with("a.txt:10:") && e.contains("army 'x'"), "{e}");
        // within one army
        let e = parse_file("army x\nrook A R\nknight A N\n", "a.txt").unwrap_err();
        assert!(e.starts_with("a.txt:3:"), "{e}");
        // an army of an earlier file
        let first = parse_file(&army("x", "A QN"), "a.txt").unwrap();
        let known: Vec<Army> = builtin().into_iter().chain(first).collect();
        let e = parse_file_beside(&army("x", "Z QN"), "b.txt", &known).unwrap_err();
        assert!(e.starts_with("b.txt:1:"), "{e}");
        let e = parse_file_beside(&army("y", "A R"), "b.txt", &known).unwrap_err();
        assert!(e.starts_with("b.txt:5:"), "{e}");
        // the same piece under its letter is fine
        assert!(parse_file(&army("x", "Z QN"), "a.txt").is_ok());
    }
}
