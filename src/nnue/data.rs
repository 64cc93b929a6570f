//! The training data of `chimera datagen`, format version 3 (all numbers
//! little-endian; version 1 is version 2 without four-player games, and
//! version 2 is version 3 without the Free-For-All points; both are read
//! too, their Free-For-All positions without points):
//!
//! ```text
//! file header   8 bytes "CHMRDATA", u16 version (3; 1 or 2 in older files), u16 zero
//! game block    u32 "GAME" (0x454D4147), u32 game number,
//!               u8 n + n bytes: the variant's name,
//!               u8 result: two players, White's: 0 loss, 1 draw, 2 win;
//!                 four players, each seat's in two bits (seat s's is
//!                 `(result >> 2s) & 3`, the same 0, 1, 2),
//!               u16 count, then count positions:
//!                 u8 side to move (0 White, 1 Black; four players: the
//!                   seat, 0 Red, 1 Blue, 2 Yellow, 3 Green),
//!                 i16 search score in centipawns, side to move's view
//!                   (four-player Teams: its team's),
//!                 u16 ply of the game,
//!                 u8 k + k pieces: u8 square, u8 owner * 16 + type
//!                   (four players: the owner 0-3 a seat, 4 a dead piece;
//!                   squares and types as `fourplayer` numbers them),
//!                 Free-For-All only (version 3): 4 x i16, each seat's
//!                   points
//!               u32 FNV-1a checksum of the block's bytes before it
//! ```
//!
//! A four-player game is one whose variant is `fourplayer-teams` or
//! `fourplayer-ffa`. Its results: Teams, 2 for the winning team's seats
//! and 0 for the others, 1 for all in a draw; Free-For-All, 2 for the one
//! seat with the most points, 1 for each of several sharing the most, 0
//! for the rest (a game cut at the ply limit: by the points so far).
//!
//! Files made in pieces (shards) merge by concatenation: a file header may
//! stand between any two blocks. A block cut short (a run stopped while it
//! wrote) or whose checksum fails ends what `read` takes; `chimera
//! datagen` resumes by truncating there.

use std::io::Write;

use crate::nnue::bytes::Bytes;

pub const MAGIC: &[u8; 8] = b"CHMRDATA";
pub const VERSION: u16 = 3;
const GAME: u32 = 0x454D_4147;

/// One quiet position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub side: u8,
    /// search score, side to move's view
    pub score: i16,
    pub ply: u16,
    /// (square, owner, type)
    pub pieces: Vec<(u8, u8, u8)>,
    /// Free-For-All: each seat's points (none in files before version 3
    /// and in the other games)
    pub points: Option<[i16; 4]>,
}

/// One game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub game: u32,
    pub variant: String,
    /// White's result: 0 loss, 1 draw, 2 win (four players: two bits a
    /// seat, see `result_of`)
    pub result: u8,
    pub samples: Vec<Sample>,
}

pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

pub fn file_header() -> Vec<u8> {
    let mut v = MAGIC.to_vec();
    v.extend_from_slice(&VERSION.to_le_bytes());
    v.extend_from_slice(&0u16.to_le_bytes());
    v
}

/// Whether a variant name is a four-player game (two bits of result a
/// seat).
pub fn is_four_player(variant: &str) -> bool {
    crate::game::Family::of(variant).is_four()
}

/// Whether a variant's positions carry the players' points (Free-For-All).
pub fn has_points(variant: &str) -> bool {
    crate::game::Family::of(variant).four() == Some(crate::fourplayer::Mode::Ffa)
}

/// The result byte of a four-player game from each seat's result (0, 1, 2).
pub fn four_player_result(seats: [u8; 4]) -> u8 {
    seats
        .iter()
        .enumerate()
        .fold(0, |r, (s, &x)| r | (x.min(2) << (2 * s)))
}

impl GameRecord {
    /// The result for seat `seat` (0 loss, 1 draw, 2 win): White 0 and
    /// Black 1, or the four players' seats.
    pub fn result_of(&self, seat: usize) -> u8 {
        if is_four_player(&self.variant) {
            (self.result >> (2 * (seat % 4))) & 3
        } else if seat == 0 {
            self.result
        } else {
            2u8.saturating_sub(self.result)
        }
    }

    /// Whether the result byte is one the format allows.
    fn result_is_valid(&self) -> bool {
        if is_four_player(&self.variant) {
            (0..4).all(|s| self.result_of(s) <= 2)
        } else {
            self.result <= 2
        }
    }

    /// The block's bytes, checksum included.
    pub fn encode(&self) -> Result<Vec<u8>, String> {
        let name = self.variant.as_bytes();
        if name.len() > 255 || self.samples.len() > u16::MAX as usize {
            return Err("game record too large".into());
        }
        let mut v = Vec::with_capacity(16 + self.samples.len() * 72);
        v.extend_from_slice(&GAME.to_le_bytes());
        v.extend_from_slice(&self.game.to_le_bytes());
        v.push(name.len() as u8);
        v.extend_from_slice(name);
        v.push(self.result);
        v.extend_from_slice(&(self.samples.len() as u16).to_le_bytes());
        let points = has_points(&self.variant);
        for s in &self.samples {
            if s.pieces.len() > 255 {
                return Err("too many pieces".into());
            }
            v.push(s.side);
            v.extend_from_slice(&s.score.to_le_bytes());
            v.extend_from_slice(&s.ply.to_le_bytes());
            v.push(s.pieces.len() as u8);
            for &(sq, owner, t) in &s.pieces {
                v.push(sq);
                v.push(owner * 16 + t);
            }
            if points {
                let p = s.points.ok_or("a Free-For-All position without points")?;
                p.iter().for_each(|x| v.extend_from_slice(&x.to_le_bytes()));
            }
        }
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        Ok(v)
    }

    pub fn write(&self, w: &mut impl Write) -> Result<(), String> {
        w.write_all(&self.encode()?).map_err(|e| e.to_string())
    }
}

/// One game block of a file of format `version`.
fn block(c: &mut Bytes, version: u16) -> Option<GameRecord> {
    let start = c.at;
    if c.u32()? != GAME {
        return None;
    }
    let game = c.u32()?;
    let n = c.u8()? as usize;
    let variant = String::from_utf8(c.take(n)?.to_vec()).ok()?;
    let result = c.u8()?;
    let count = c.u16()? as usize;
    let points = version >= 3 && has_points(&variant);
    let mut samples = Vec::with_capacity(count);
    for _ in 0..count {
        let side = c.u8()?;
        let score = c.u16()? as i16;
        let ply = c.u16()?;
        let k = c.u8()? as usize;
        let mut pieces = Vec::with_capacity(k);
        for _ in 0..k {
            let sq = c.u8()?;
            let code = c.u8()?;
            pieces.push((sq, code / 16, code % 16));
        }
        let points = if points {
            let p = c.i16s(4)?;
            Some([p[0], p[1], p[2], p[3]])
        } else {
            None
        };
        samples.push(Sample {
            side,
            score,
            ply,
            pieces,
            points,
        });
    }
    let sum = fnv1a(c.since(start));
    let g = GameRecord {
        game,
        variant,
        result,
        samples,
    };
    (c.u32()? == sum && g.result_is_valid()).then_some(g)
}

/// Reads the games of a data file (or of files concatenated). Returns
/// them and the length of the valid prefix; an error for a file that is
/// not Chimera data or of another version.
pub fn read(bytes: &[u8]) -> Result<(Vec<GameRecord>, usize), String> {
    read_versioned(bytes).map(|(games, valid, _)| (games, valid))
}

/// `read`, and the format version of the last file header read (the one
/// that blocks appended after the valid prefix would be read by).
pub fn read_versioned(bytes: &[u8]) -> Result<(Vec<GameRecord>, usize, u16), String> {
    let mut c = Bytes::new(bytes, 0);
    let mut games = Vec::new();
    let mut valid = 0;
    let mut first = true;
    let mut version = VERSION;
    while c.at < bytes.len() {
        if bytes[c.at..].starts_with(MAGIC) {
            c.take(8);
            let Some(v) = c.u16() else { break };
            if !(1..=VERSION).contains(&v) {
                return Err(format!(
                    "data format version {v} (this build reads 1 to {VERSION})"
                ));
            }
            version = v;
            if c.u16().is_none() {
                break;
            }
        } else if first {
            return Err("not a Chimera data file (no CHMRDATA header)".into());
        }
        first = false;
        valid = c.at;
        if c.at == bytes.len() {
            break;
        }
        if bytes[c.at..].starts_with(MAGIC) {
            continue;
        }
        match block(&mut c, version) {
            Some(g) => {
                games.push(g);
                valid = c.at;
            }
            None => break,
        }
    }
    Ok((games, valid, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_game(game: u32) -> GameRecord {
        GameRecord {
            game,
            variant: "cwda-nutty-rookies".into(),
            result: 2,
            samples: vec![
                Sample {
                    side: 0,
                    score: -37,
                    ply: 9,
                    pieces: vec![(4, 0, 0), (60, 1, 0), (12, 0, 1), (63, 1, 15)],
                    points: None,
                },
                Sample {
                    side: 1,
                    score: i16::MIN,
                    ply: 10,
                    pieces: vec![(4, 0, 0), (60, 1, 0)],
                    points: None,
                },
            ],
        }
    }

    #[test]
    fn games_round_trip_through_the_format() {
        let mut bytes = file_header();
        bytes.extend(sample_game(3).encode().unwrap());
        bytes.extend(sample_game(7).encode().unwrap());
        // a second file appended (shards merged by concatenation)
        bytes.extend(file_header());
        bytes.extend(sample_game(8).encode().unwrap());
        let (games, valid) = read(&bytes).unwrap();
        assert_eq!(valid, bytes.len());
        assert_eq!(games, vec![sample_game(3), sample_game(7), sample_game(8)]);
    }

    #[test]
    fn a_cut_or_damaged_block_ends_the_valid_prefix() {
        let mut bytes = file_header();
        bytes.extend(sample_game(1).encode().unwrap());
        let good = bytes.len();
        let second = sample_game(2).encode().unwrap();
        bytes.extend(&second[..second.len() - 3]);
        let (games, valid) = read(&bytes).unwrap();
        assert_eq!((games.len(), valid), (1, good));
        // a flipped byte fails the checksum
        let mut damaged = file_header();
        let mut block = sample_game(1).encode().unwrap();
        block[20] ^= 1;
        damaged.extend(block);
        assert_eq!(read(&damaged).unwrap().0.len(), 0);
        assert!(read(b"something else").is_err());
        let mut v4 = file_header();
        v4[8] = 4;
        assert!(read(&v4).unwrap_err().contains("version 4"));
        // version 1 (two-player games only) is read as it was written
        let mut v1 = file_header();
        v1[8] = 1;
        v1.extend(sample_game(4).encode().unwrap());
        assert_eq!(read(&v1).unwrap().0, vec![sample_game(4)]);
    }

    #[test]
    fn four_player_results_hold_a_seat_each() {
        let mut g = sample_game(5);
        g.variant = "fourplayer-ffa".into();
        g.result = four_player_result([2, 0, 1, 0]);
        g.samples[0].side = 3;
        g.samples[0].pieces.push((159, 4, 5));
        // Free-For-All positions carry each seat's points
        assert!(
            g.encode().is_err(),
            "a Free-For-All position needs its points"
        );
        g.samples[0].points = Some([12, 0, 35, -1]);
        g.samples[1].points = Some([0, 20, 1, 7]);
        let mut bytes = file_header();
        bytes.extend(g.encode().unwrap());
        let (games, _) = read(&bytes).unwrap();
        assert_eq!(games, vec![g.clone()]);
        let seats: Vec<u8> = (0..4).map(|s| games[0].result_of(s)).collect();
        assert_eq!(seats, [2, 0, 1, 0]);
        // a version 2 file's Free-For-All positions have no points: the
        // block is read as its version wrote it
        let mut v2 = file_header();
        v2[8] = 2;
        let mut old = g.clone();
        old.variant = "fourplayer-teams".into();
        let mut block = old.encode().unwrap();
        let name = b"fourplayer-teams";
        let at = block.windows(name.len()).position(|w| w == name).unwrap();
        block.splice(at..at + name.len(), *b"fourplayer-ffa");
        block[at - 1] = 14;
        let n = block.len();
        block.truncate(n - 4);
        let sum = fnv1a(&block);
        block.extend_from_slice(&sum.to_le_bytes());
        v2.extend(block);
        let read_v2 = read(&v2).unwrap().0;
        assert_eq!(read_v2.len(), 1);
        assert_eq!(read_v2[0].variant, "fourplayer-ffa");
        assert!(read_v2[0].samples.iter().all(|s| s.points.is_none()));
        assert_eq!(read_v2[0].samples[0].pieces, g.samples[0].pieces);
        // a two-player game: Black's result is the complement of White's
        let two = sample_game(6);
        assert_eq!((two.result_of(0), two.result_of(1)), (2, 0));
        // a seat's two bits at 3 is no result: the block is refused
        g.result = 0b11_0000;
        let mut bad = file_header();
        bad.extend(g.encode().unwrap());
        assert!(read(&bad).unwrap().0.is_empty());
        // and a two-player game's result above 2 as before
        let mut t = sample_game(7);
        t.result = 6;
        let mut bad = file_header();
        bad.extend(t.encode().unwrap());
        assert!(read(&bad).unwrap().0.is_empty());
    }
}
