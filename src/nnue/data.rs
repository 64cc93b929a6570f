//! The training data of `chimera datagen`, format version 1 (all numbers
//! little-endian):
//!
//! ```text
//! file header   8 bytes "CHMRDATA", u16 version (1), u16 zero
//! game block    u32 "GAME" (0x454D4147), u32 game number,
//!               u8 n + n bytes: the variant's name,
//!               u8 result for White: 0 loss, 1 draw, 2 win,
//!               u16 count, then count positions:
//!                 u8 side to move (0 White, 1 Black),
//!                 i16 search score in centipawns, side to move's view,
//!                 u16 ply of the game,
//!                 u8 k + k pieces: u8 square, u8 owner * 16 + type
//!               u32 FNV-1a checksum of the block's bytes before it
//! ```
//!
//! Files made in pieces (shards) merge by concatenation: a file header may
//! stand between any two blocks. A block cut short (a run stopped while it
//! wrote) or whose checksum fails ends what `read` takes; `chimera
//! datagen` resumes by truncating there.

use std::io::Write;

use crate::nnue::bytes::Bytes;

pub const MAGIC: &[u8; 8] = b"CHMRDATA";
pub const VERSION: u16 = 1;
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
}

/// One game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub game: u32,
    pub variant: String,
    /// White's result: 0 loss, 1 draw, 2 win
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

impl GameRecord {
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
        }
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        Ok(v)
    }

    pub fn write(&self, w: &mut impl Write) -> Result<(), String> {
        w.write_all(&self.encode()?).map_err(|e| e.to_string())
    }
}

fn block(c: &mut Bytes) -> Option<GameRecord> {
    let start = c.at;
    if c.u32()? != GAME {
        return None;
    }
    let game = c.u32()?;
    let n = c.u8()? as usize;
    let variant = String::from_utf8(c.take(n)?.to_vec()).ok()?;
    let result = c.u8()?;
    let count = c.u16()? as usize;
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
        samples.push(Sample {
            side,
            score,
            ply,
            pieces,
        });
    }
    let sum = fnv1a(c.since(start));
    (c.u32()? == sum && result <= 2).then_some(GameRecord {
        game,
        variant,
        result,
        samples,
    })
}

/// Reads the games of a data file (or of files concatenated). Returns
/// them and the length of the valid prefix; an error for a file that is
/// not Chimera data or of another version.
pub fn read(bytes: &[u8]) -> Result<(Vec<GameRecord>, usize), String> {
    let mut c = Bytes::new(bytes, 0);
    let mut games = Vec::new();
    let mut valid = 0;
    let mut first = true;
    while c.at < bytes.len() {
        if bytes[c.at..].starts_with(MAGIC) {
            c.take(8);
            let Some(version) = c.u16() else { break };
            if version != VERSION {
                return Err(format!(
                    "data format version {version} (this build reads {VERSION})"
                ));
            }
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
        match block(&mut c) {
            Some(g) => {
                games.push(g);
                valid = c.at;
            }
            None => break,
        }
    }
    Ok((games, valid))
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
                },
                Sample {
                    side: 1,
                    score: i16::MIN,
                    ply: 10,
                    pieces: vec![(4, 0, 0), (60, 1, 0)],
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
        let mut v2 = file_header();
        v2[8] = 2;
        assert!(read(&v2).unwrap_err().contains("version 2"));
    }
}
