//! FEN4 (Chess.com's four-player FEN) in and out. Fields separated by `-`:
//! side to move (`R`, `B`, `Y`, `G`); eliminated players, short castling,
//! long castling (four 0/1 each); points (four integers); plies since the
//! last capture or pawn move; an optional `{...}` block (`'enPassant'`:
//! per player `'<landing square>:<pawn square>'`, `'resigned'`: four 0/1
//! or true/false); then the 14 rows from rank 14 down, cells separated by
//! commas: a piece is owner + type (`rK`, `bP`), a dead piece `dP` (input
//! also `drK`), a number a run of empty or missing squares, `x` one missing
//! corner square (input). Every error names the field and token.

use std::sync::Arc;

use super::position::{EMPTY, EpSlot, Position4};
use super::variant::{KING, LETTERS, Layout, NUM_TYPES, PAWN, ROOK, Variant4};
use super::{DEAD, PLAYER_LETTERS, PLAYER_NAMES};
use crate::bitboard::Bitboard;
use crate::board::placement::Placement;
use crate::geometry::Sq;
use crate::variant::board::{Cell, Words, walk_rows};

fn four<T>(field: &str, what: &str, parse: impl Fn(&str) -> Option<T>) -> Result<[T; 4], String> {
    let parts: Vec<&str> = field.split(',').collect();
    if parts.len() != 4 {
        return Err(format!(
            "{what} '{field}': expected four values separated by commas"
        ));
    }
    let mut out = Vec::with_capacity(4);
    for p in parts {
        out.push(parse(p.trim()).ok_or_else(|| format!("{what} '{field}': bad value '{p}'"))?);
    }
    Ok(out
        .try_into()
        .unwrap_or_else(|_| unreachable!("four values")))
}

fn flag(s: &str) -> Option<bool> {
    match s {
        "0" | "false" | "False" => Some(false),
        "1" | "true" | "True" => Some(true),
        _ => None,
    }
}

/// Splits a FEN4 into its six leading fields, the optional `{...}` block
/// and the board.
fn split(fen: &str) -> Result<(Vec<&str>, Option<&str>, &str), String> {
    let mut fields = Vec::new();
    let mut rest = fen.trim();
    for _ in 0..6 {
        let (f, r) = rest
            .split_once('-')
            .ok_or_else(|| format!("FEN4 '{fen}': expected 7 fields separated by '-'"))?;
        fields.push(f);
        rest = r;
    }
    let mut block = None;
    if rest.starts_with('{') {
        let end = rest
            .find('}')
            .ok_or_else(|| "FEN4: the '{' block is not closed".to_string())?;
        block = Some(&rest[1..end]);
        rest = rest[end + 1..]
            .strip_prefix('-')
            .ok_or_else(|| "FEN4: expected '-' after the '{...}' block".to_string())?;
    }
    if rest.contains('-') || rest.contains(' ') {
        return Err(format!("FEN4: unexpected text in the board field '{rest}'"));
    }
    Ok((fields, block, rest))
}

/// A FEN4 row's cells, separated by commas: counts, `x` for a missing
/// corner square, pieces.
fn fen4_cells(row: &str) -> Result<Vec<Cell<'_>>, String> {
    row.split(',')
        .map(|c| {
            let c = c.trim();
            if c.is_empty() {
                Err(format!("empty cell in '{row}'"))
            } else if c.bytes().all(|b| b.is_ascii_digit()) {
                Ok(Cell::Empty(c))
            } else if c == "x" || c == "X" {
                Ok(Cell::Hole(c))
            } else {
                Ok(Cell::Piece(c))
            }
        })
        .collect()
}

/// The entries of the `{...}` block: `'key':value` separated by commas,
/// a value being `(...)`, a quoted text, a number, `true` or `false`.
/// Anything else is refused; other keys (Chess.com
/// writes some that Chimera does not need) are read and left aside; Chimera reads
/// `enPassant` and `resigned`.
fn block_entries(block: &str) -> Result<Vec<(&str, &str)>, String> {
    let bad = |e: &str| format!("FEN4: the '{{...}}' block: {e}");
    let mut entries = Vec::new();
    let mut rest = block.trim();
    while !rest.is_empty() {
        let key_text = rest
            .strip_prefix('\'')
            .ok_or_else(|| bad(&format!("expected 'key': at '{}'", clip(rest))))?;
        let (key, after) = key_text
            .split_once('\'')
            .ok_or_else(|| bad("a key's quote is not closed"))?;
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(bad(&format!("bad key '{}'", clip(key))));
        }
        let after = after
            .trim_start()
            .strip_prefix(':')
            .ok_or_else(|| bad(&format!("expected ':' after '{key}'")))?
            .trim_start();
        let end = match after.chars().next() {
            Some('(') => after
                .find(')')
                .map(|i| i + 1)
                .ok_or_else(|| bad(&format!("the value of '{key}' is not closed")))?,
            Some(q @ ('\'' | '"')) => after[1..]
                .find(q)
                .map(|i| i + 2)
                .ok_or_else(|| bad(&format!("the value of '{key}' is not closed")))?,
            _ => after.find(',').unwrap_or(after.len()),
        };
        let value = after[..end].trim();
        let plain = value.starts_with(['(', '\'', '"'])
            || value == "true"
            || value == "false"
            || (!value.is_empty() && value.parse::<f64>().is_ok());
        if !plain {
            return Err(bad(&format!("bad value '{}' of '{key}'", clip(value))));
        }
        entries.push((key, value));
        rest = after[end..].trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r.trim_start();
            if rest.is_empty() {
                return Err(bad("a comma ends the block"));
            }
        } else if !rest.is_empty() {
            return Err(bad(&format!("expected ',' at '{}'", clip(rest))));
        }
    }
    Ok(entries)
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

impl Position4 {
    /// The start position of a layout.
    pub fn startpos(v: Arc<Variant4>, layout: Layout) -> Position4 {
        Position4::from_fen4(v, layout.fen4()).expect("the start FEN4s are valid")
    }

    /// Reads a FEN4. On error the message names the field and the token.
    pub fn from_fen4(v: Arc<Variant4>, fen: &str) -> Result<Position4, String> {
        let (f, block, board) = split(fen)?;
        let mut pos = Position4::empty(v.clone());
        pos.side = match f[0].trim() {
            "R" => 0,
            "B" => 1,
            "Y" => 2,
            "G" => 3,
            s => return Err(format!("side to move '{s}' is not R, B, Y or G")),
        };
        let eliminated = four(f[1], "eliminated players", flag)?;
        let short = four(f[2], "short castling", flag)?;
        let long = four(f[3], "long castling", flag)?;
        pos.points = four(f[4], "points", |s| {
            s.parse::<i32>().ok().filter(|n| n.abs() <= 100_000)
        })?;
        pos.halfmove = f[5]
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 100_000)
            .ok_or_else(|| {
                format!(
                    "plies since a capture or pawn move '{}' is not a number",
                    f[5]
                )
            })?;
        for (p, &e) in eliminated.iter().enumerate() {
            if e {
                pos.eliminated |= 1 << p;
            }
        }
        pos.read_board(board)?;
        if let Some(b) = block {
            pos.read_block(b)?;
        }
        pos.validate()?;
        // castling rights: the King on a home square, its rook in place
        for p in 0..4 {
            for (s, &on) in [short[p], long[p]].iter().enumerate() {
                if !on || pos.is_eliminated(p) {
                    continue;
                }
                if let Some(i) = v.castle_index(p, pos.king_square(p), s == 0) {
                    let c = &v.castles[i];
                    if pos.piece_at(c.rook_from) == Some((p, ROOK))
                        && pos.piece_at(c.king_from) == Some((p, KING))
                    {
                        pos.castling |= 1 << (2 * p + s);
                        pos.castle_idx[2 * p + s] = i as u8;
                    }
                }
            }
        }
        pos.hash = pos.compute_hash();
        pos.update_checkers();
        Ok(pos)
    }

    fn read_board(&mut self, board: &str) -> Result<(), String> {
        let v = self.v.clone();
        let words = Words {
            field: "FEN4 board",
            rows: "rows",
            hole: "a missing corner square",
            not_hole: "which is not a corner square",
        };
        walk_rows(board, &v.shape, &words, fen4_cells, |cell, sq| {
            let (owner, t) = parse_piece(cell).ok_or_else(|| format!("bad piece '{cell}'"))?;
            if self.board[sq] != EMPTY {
                return Err(format!("two pieces on {}", v.shape.name(sq)));
            }
            self.put(owner, t, sq);
            Ok(())
        })
    }

    fn read_block(&mut self, block: &str) -> Result<(), String> {
        let entries = block_entries(block)?;
        let value = |key: &str| -> Result<Option<&str>, String> {
            match entries.iter().find(|(k, _)| *k == key) {
                None => Ok(None),
                Some((_, v)) => v
                    .strip_prefix('(')
                    .and_then(|v| v.strip_suffix(')'))
                    .map(Some)
                    .ok_or_else(|| format!("{key} '{v}': expected (...)")),
            }
        };
        if let Some(ep) = value("enPassant")? {
            let slots: Vec<&str> = ep
                .split(',')
                .map(|s| s.trim().trim_matches('\'').trim_matches('"'))
                .collect();
            if slots.len() != 4 {
                return Err(format!("enPassant '({ep})': expected four slots"));
            }
            for (p, s) in slots.iter().enumerate() {
                if s.is_empty() {
                    continue;
                }
                let (t, vsq) = s
                    .split_once(':')
                    .ok_or_else(|| format!("enPassant slot '{s}': expected <square>:<square>"))?;
                let target = self
                    .v
                    .shape
                    .parse_square(t)
                    .map_err(|e| format!("enPassant slot '{s}': {e}"))?;
                let victim = self
                    .v
                    .shape
                    .parse_square(vsq)
                    .map_err(|e| format!("enPassant slot '{s}': {e}"))?;
                // the pawn of that player, one step beyond the skipped square
                let forward = super::variant::ORIENTATIONS[p].apply((0, 1));
                let behind = self.v.shape.offset(victim, -forward.0, -forward.1);
                if self.piece_at(victim) != Some((p, PAWN)) || behind != Some(target) {
                    return Err(format!(
                        "enPassant slot '{s}': no {} pawn on {vsq} that skipped {t}",
                        PLAYER_NAMES[p]
                    ));
                }
                self.ep[p] = EpSlot {
                    target: target as u8,
                    victim: victim as u8,
                };
            }
        }
        if let Some(r) = value("resigned")? {
            let flags = four(r, "resigned", |s| flag(s.trim_matches('\'')))?;
            for (p, &on) in flags.iter().enumerate() {
                if on {
                    self.resigned |= 1 << p;
                }
            }
        }
        Ok(())
    }

    /// Checks what the rules need: one live King for every player in the
    /// game, none for those out; no pawn on its own promotion squares; no
    /// more than 16 pieces a player.
    fn validate(&self) -> Result<(), String> {
        if self.is_eliminated(self.side) {
            return Err(format!(
                "the side to move, {}, is eliminated",
                PLAYER_NAMES[self.side]
            ));
        }
        if self.eliminated == 0xF {
            return Err("every player is eliminated".into());
        }
        for (p, name) in PLAYER_NAMES.iter().enumerate() {
            let kings = self.pieces(p, KING).count();
            if self.is_eliminated(p) {
                if self.by_color[p].any() {
                    return Err(format!(
                        "{name} is eliminated but has live pieces (write them dead: dP)"
                    ));
                }
                continue;
            }
            if kings != 1 {
                return Err(if kings == 0 {
                    format!("{name} has no King")
                } else {
                    format!("{name} has {kings} Kings")
                });
            }
            let n = self.by_color[p].count();
            if n > 16 {
                return Err(format!("{name} has {n} pieces, at most 16"));
            }
            let bad = self.pieces(p, PAWN) & self.v.promo_zone[p];
            if bad.any() {
                return Err(format!(
                    "{name} pawn on {}, where it would have promoted",
                    self.v.shape.name(bad.lsb())
                ));
            }
        }
        Ok(())
    }

    /// The position as FEN4.
    pub fn to_fen4(&self) -> String {
        let bits = |mask: u8| -> String {
            (0..4)
                .map(|p| if mask & (1 << p) != 0 { "1" } else { "0" })
                .collect::<Vec<_>>()
                .join(",")
        };
        let short = (0..4).fold(0u8, |m, p| m | ((self.castling >> (2 * p)) & 1) << p);
        let long = (0..4).fold(0u8, |m, p| m | ((self.castling >> (2 * p + 1)) & 1) << p);
        let points: Vec<String> = self.points.iter().map(|p| p.to_string()).collect();
        let mut s = format!(
            "{}-{}-{}-{}-{}-{}-",
            PLAYER_LETTERS[self.side],
            bits(self.eliminated),
            bits(short),
            bits(long),
            points.join(","),
            self.halfmove
        );
        let mut block = Vec::new();
        if self.ep.iter().any(|e| e.is_some()) {
            let slots: Vec<String> = self
                .ep
                .iter()
                .map(|e| {
                    if e.is_some() {
                        format!(
                            "'{}:{}'",
                            self.v.shape.name(e.target as Sq),
                            self.v.shape.name(e.victim as Sq)
                        )
                    } else {
                        "''".into()
                    }
                })
                .collect();
            block.push(format!("'enPassant':({})", slots.join(",")));
        }
        if self.resigned != 0 {
            let flags: Vec<&str> = (0..4)
                .map(|p| {
                    if self.has_resigned(p) {
                        "true"
                    } else {
                        "false"
                    }
                })
                .collect();
            block.push(format!("'resigned':({})", flags.join(",")));
        }
        if !block.is_empty() {
            s.push_str(&format!("{{{}}}-", block.join(",")));
        }
        s.push_str(&self.board_text());
        s
    }

    /// The board field of FEN4.
    pub fn board_text(&self) -> String {
        let shape = &self.v.shape;
        let mut rows = Vec::new();
        for rank in (0..shape.ranks).rev() {
            let mut cells: Vec<String> = Vec::new();
            let mut run = 0;
            for file in 0..shape.files {
                let piece = shape
                    .square(file as i32, rank as i32)
                    .and_then(|sq| self.piece_at(sq));
                match piece {
                    None => run += 1,
                    Some((owner, t)) => {
                        if run > 0 {
                            cells.push(run.to_string());
                            run = 0;
                        }
                        cells.push(piece_text(owner, t));
                    }
                }
            }
            if run > 0 {
                cells.push(run.to_string());
            }
            rows.push(cells.join(","));
        }
        rows.join("/")
    }
}

impl std::fmt::Debug for Position4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position4({})", self.to_fen4())
    }
}

/// `rK`, `bP`, dead `dP`.
pub fn piece_text(owner: usize, t: usize) -> String {
    let o = if owner == DEAD {
        'd'
    } else {
        PLAYER_LETTERS[owner].to_ascii_lowercase()
    };
    format!("{o}{}", LETTERS[t])
}

/// Reads `rK`, `dP`, `drK` -> (owner, type).
pub fn parse_piece(cell: &str) -> Option<(usize, usize)> {
    let mut c: Vec<char> = cell.chars().collect();
    let dead = c.len() == 3 && c[0] == 'd';
    if dead {
        c.remove(0);
    }
    if c.len() != 2 {
        return None;
    }
    let t = LETTERS
        .iter()
        .position(|&l| l == c[1].to_ascii_uppercase())?;
    if t >= NUM_TYPES {
        return None;
    }
    let owner = match c[0] {
        'd' => DEAD,
        'r' => 0,
        'b' => 1,
        'y' => 2,
        'g' => 3,
        _ => return None,
    };
    Some((if dead { DEAD } else { owner }, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourplayer::variant::Mode;

    fn v() -> Arc<Variant4> {
        Arc::new(Variant4::new(Mode::Teams))
    }

    #[test]
    fn start_positions_round_trip() {
        for layout in [Layout::Classic, Layout::Modern] {
            let p = Position4::startpos(v(), layout);
            assert_eq!(p.to_fen4(), layout.fen4());
            assert_eq!(p.castling_rights(), 0xFF);
        }
    }

    #[test]
    fn en_passant_block_and_dead_pieces_round_trip() {
        let fen = "R-0,0,0,0-0,0,0,1-1,0,0,1-0,0,0,0-0-{'enPassant':('','c7:d7','','')}-4,yN,yB,yK,yQ,2,gB,3/3,yR,2,yP,3,yP,3/6,yN,yP,yP,5/bR,bP,yP,1,yP,yP,3,yP,gP,2,gR/bQ,3,bP,4,gN,1,gP,2/1,bP,bN,9,gP,1/bK,bP,8,gP,2,gK/3,bP,8,gP,gQ/bB,bP,10,gP,gB/bN,1,rQ,2,bP,4,gP,2,gN/bR,1,bP,rP,2,rP,rN,rP,1,rP,gP,1,gR/7,rB,2,rR,3/4,rP,rP,1,rP,1,rP,4/3,rR,3,rK,rB,rN,4";
        let p = Position4::from_fen4(v(), fen).unwrap();
        assert_eq!(p.to_fen4(), fen);
        // dead pieces (input with or without the colour), an eliminated
        // player, points, `x` corners
        let fen = "G-0,0,1,0-0,0,0,0-0,0,0,0-3,0,1,20-7-x,x,x,dyR,10/3,dK,10/14/14/14/14/14/14/14/14/14/3,dP,dQ,drK,rK,7/14/x,x,x,5,bK,gK,4";
        let p = Position4::from_fen4(v(), fen).unwrap();
        assert!(p.is_eliminated(2));
        assert_eq!(p.points(), [3, 0, 1, 20]);
        let out = p.to_fen4();
        assert!(out.ends_with("/3,dP,dQ,dK,rK,7/14/8,bK,gK,4"), "{out}");
        assert!(
            out.starts_with("G-0,0,1,0-0,0,0,0-0,0,0,0-3,0,1,20-7-3,dR,10/3,dK,10/"),
            "{out}"
        );
    }

    #[test]
    fn errors_name_the_token() {
        let bad = [
            ("Q-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-14", "side to move 'Q'"),
            (
                "R-0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-14",
                "eliminated players '0,0,0'",
            ),
            ("R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-zz-14", "'zz'"),
        ];
        for (fen, want) in bad {
            let e = Position4::from_fen4(v(), fen).unwrap_err();
            assert!(e.contains(want), "{fen}: {e}");
        }
        let start = Layout::Modern.fen4();
        let e = Position4::from_fen4(v(), &start.replacen("yR", "yZ", 1)).unwrap_err();
        assert!(e.contains("bad piece 'yZ'"), "{e}");
        let e = Position4::from_fen4(v(), &start.replacen("3,yR", "yP,2,yR", 1)).unwrap_err();
        assert!(e.contains("missing corner square (a14)"), "{e}");
    }

    #[test]
    fn the_block_holds_entries_only() {
        let start = Layout::Modern.fen4();
        let (head, board) = start.split_at(start.find("-3,").unwrap());
        let with = |block: &str| format!("{head}-{{{block}}}{board}");
        for good in [
            "",
            "'enPassant':('','','','')",
            "'dim':'14x14', 'noCorners':true, 'lives':(1,1,1,1), 'n':3",
        ] {
            assert!(
                Position4::from_fen4(v(), &with(good)).is_ok(),
                "{}",
                with(good)
            );
        }
        for (junk, want) in [
            ("junk", "expected 'key'"),
            ("'enPassant':('','','','') junk", "expected ','"),
            ("'x':junk", "bad value 'junk'"),
            ("'x'", "expected ':'"),
            ("'x':(1,2", "not closed"),
            ("'a':1,", "a comma ends"),
            ("'a b':1", "bad key"),
        ] {
            let e = Position4::from_fen4(v(), &with(junk)).unwrap_err();
            assert!(e.contains(want), "{junk}: {e}");
        }
    }
}
