//! The network and its file format, version 1 (little-endian):
//!
//! ```text
//! 8 bytes "CHMRNNUE", u16 version (1), u16 hidden size H,
//! u16 squares S, u16 QA, u16 QB, u16 output scale, u16 flags (bit 0:
//! residual, the output is added to the classical evaluation; bit 1:
//! squared clipped activation),
//! text feature set, text families, u16 K + K texts: the piece kinds
//!   (a text: u8 length + UTF-8 bytes; a kind: `role:betza`),
//! i16 feature weights [K * 2 * S][H], i16 feature biases [H],
//! i16 output weights [2 * H], i32 output bias,
//! u32 FNV-1a checksum of everything before it
//! ```
//!
//! Two players (feature set `kind-theirs-square/mirrored-ranks`): feature
//! `(kind * 2 + theirs) * S + square` of a perspective is a piece of that
//! kind, the perspective's own (0) or the other side's (1), on the square
//! as that side sees it (Black's board mirrored by ranks). Four players
//! (`kind-relation-square/rotated-seats`): feature
//! `(kind * 5 + relation) * S + square` of a seat's perspective, the
//! relation of the piece's owner to that seat (0 its own, 1 the next seat's in turn order, 2 its
//! partner's, 3 the previous seat's, 4 a dead piece) and the square as that
//! seat sees it (the board turned so that the seat's side is at the
//! bottom). The accumulator of a perspective is the biases plus the
//! weights of its features; the output is `(clip(acc_us) . w[..H] +
//! clip(acc_them) . w[H..] + bias) * scale / (QA * QB)` centipawns, `us`
//! the side to move and `them` the other side (four players: the next
//! seat to move), `clip` to `[0, QA]`;
//! with bit 1 of the flags `clip(x)` is `clip(x)^2 / QA` (the float
//! network's `clamp(x, 0, 1)^2`).

use crate::nnue::bytes::Bytes;
use crate::nnue::data::fnv1a;

/// The hidden layer's size per perspective (the only one this build runs).
pub const HIDDEN: usize = 128;
pub const QA: i32 = 255;
pub const QB: i32 = 256;
/// Output scale: the float net's output times this is centipawns.
pub const SCALE: i32 = 400;
pub const MAGIC: &[u8; 8] = b"CHMRNNUE";
pub const VERSION: u16 = 1;
/// The largest output in centipawns, far from the search's mate scores.
pub const OUTPUT_LIMIT: i64 = 10_000;
pub const FEATURE_SET: &str = "kind-theirs-square/mirrored-ranks";
/// The four-player feature set: five relations of a piece's owner to a seat.
pub const FEATURE_SET_4: &str = "kind-relation-square/rotated-seats";

/// The feature set of a network whose pieces stand in `relations`
/// relations to a perspective (2 or 5).
pub fn feature_set(relations: usize) -> &'static str {
    if relations == 5 {
        FEATURE_SET_4
    } else {
        FEATURE_SET
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub squares: usize,
    /// how a piece's owner stands to a perspective: 2 (own, theirs) or,
    /// for four players, 5 (own, next, partner, previous, dead)
    pub relations: usize,
    /// `role:betza` of each piece kind the network knows
    pub kinds: Vec<String>,
    /// the games it was trained on, as the file says (e.g. `chess,cwda`)
    pub families: String,
    /// the output corrects the classical evaluation (is added to it)
    /// rather than replacing it
    pub residual: bool,
    /// the activation is the clipped accumulator squared (SCReLU), not
    /// the clipped accumulator
    pub screlu: bool,
    /// [feature][HIDDEN]
    pub ft_w: Vec<i16>,
    pub ft_b: Vec<i16>,
    /// [2 * HIDDEN]: the side to move's half first
    pub out_w: Vec<i16>,
    pub out_b: i32,
}

fn text(v: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    v.push(b.len().min(255) as u8);
    v.extend_from_slice(&b[..b.len().min(255)]);
}

const CUT: &str = "the network file is cut short";

/// A text of the header.
fn read_text(r: &mut Bytes) -> Result<String, String> {
    r.text()
        .ok_or(CUT)?
        .map_err(|_| "a text is not UTF-8".into())
}

impl Network {
    pub fn features(&self) -> usize {
        self.kinds.len() * self.relations * self.squares
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = MAGIC.to_vec();
        for x in [
            VERSION,
            HIDDEN as u16,
            self.squares as u16,
            QA as u16,
            QB as u16,
            SCALE as u16,
            self.residual as u16 | (self.screlu as u16) << 1,
        ] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        text(&mut v, feature_set(self.relations));
        text(&mut v, &self.families);
        v.extend_from_slice(&(self.kinds.len() as u16).to_le_bytes());
        for k in &self.kinds {
            text(&mut v, k);
        }
        for w in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w) {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(&self.out_b.to_le_bytes());
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// Reads a network file; errors say what does not fit this build.
    pub fn from_bytes(b: &[u8]) -> Result<Network, String> {
        if b.len() < 12 || &b[..8] != MAGIC {
            return Err("not a Chimera network file (no CHMRNNUE header)".into());
        }
        let (body, sum) = b.split_at(b.len() - 4);
        if fnv1a(body) != u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]) {
            return Err("the network file's checksum does not match (damaged file)".into());
        }
        let mut r = Bytes::new(body, 8);
        let version = r.u16().ok_or(CUT)?;
        if version != VERSION {
            return Err(format!(
                "network format version {version} (this build reads {VERSION})"
            ));
        }
        let mut u16 = || r.u16().ok_or(CUT);
        let (hidden, squares) = (u16()? as usize, u16()? as usize);
        let (qa, qb, scale) = (u16()? as i32, u16()? as i32, u16()? as i32);
        let flags = u16()?;
        if flags > 3 {
            return Err(format!("unknown network flags {flags:#x}"));
        }
        if hidden != HIDDEN || qa != QA || qb != QB || scale != SCALE {
            return Err(format!(
                "network of hidden size {hidden}, QA {qa}, QB {qb}, scale {scale}; \
                 this build runs {HIDDEN}, {QA}, {QB}, {SCALE}"
            ));
        }
        let set = read_text(&mut r)?;
        let relations = match set.as_str() {
            FEATURE_SET => 2,
            FEATURE_SET_4 => 5,
            _ => {
                return Err(format!(
                    "feature set '{set}' (this build knows '{FEATURE_SET}' and '{FEATURE_SET_4}')"
                ));
            }
        };
        let families = read_text(&mut r)?;
        let k = r.u16().ok_or(CUT)? as usize;
        let kinds = (0..k)
            .map(|_| read_text(&mut r))
            .collect::<Result<Vec<_>, _>>()?;
        let features = k * relations * squares;
        let ft_w = r.i16s(features * HIDDEN).ok_or(CUT)?;
        let ft_b = r.i16s(HIDDEN).ok_or(CUT)?;
        let out_w = r.i16s(2 * HIDDEN).ok_or(CUT)?;
        let out_b = r.i32().ok_or(CUT)?;
        if r.at != body.len() {
            return Err("the network file has bytes after its weights".into());
        }
        Ok(Network {
            squares,
            relations,
            kinds,
            families,
            residual: flags & 1 != 0,
            screlu: flags & 2 != 0,
            ft_w,
            ft_b,
            out_w,
            out_b,
        })
    }

    /// The accumulator of a set of features (the biases plus their rows).
    pub fn accumulator(&self, features: impl Iterator<Item = usize>) -> [i16; HIDDEN] {
        let mut acc: [i16; HIDDEN] = self.ft_b[..].try_into().expect("HIDDEN biases");
        for f in features {
            let row = &self.ft_w[f * HIDDEN..(f + 1) * HIDDEN];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    }

    /// The output in centipawns for the side to move's accumulator `us`
    /// and the other's `them`, within +-`OUTPUT_LIMIT` (a network file,
    /// trained or not, never makes a mate score or an overflow).
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2 (asked just now)
            return unsafe { self.output_avx2(us, them) };
        }
        self.output_body(us, them)
    }

    /// `output_body` compiled for AVX2 (the build's baseline is
    /// `x86-64-v2`, SSE only).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        self.output_body(us, them)
    }

    #[inline(always)]
    fn output_body(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let half = |acc: &[i16; HIDDEN], w: &[i16]| -> i32 {
            let mut sum = 0i32;
            for (a, w) in acc.iter().zip(w) {
                sum = sum.wrapping_add((*a as i32).clamp(0, QA) * *w as i32);
            }
            sum
        };
        // clip(a)^2 * w fits an i32 (255^2 * 32767 < 2^31), their sum
        // does not
        let squared = |acc: &[i16; HIDDEN], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(a, w)| {
                    let c = (*a as i32).clamp(0, QA);
                    (c * c * *w as i32) as i64
                })
                .sum()
        };
        let layer = if self.screlu {
            (squared(us, &self.out_w[..HIDDEN]) + squared(them, &self.out_w[HIDDEN..])) / QA as i64
        } else {
            half(us, &self.out_w[..HIDDEN]) as i64 + half(them, &self.out_w[HIDDEN..]) as i64
        };
        let sum = layer + self.out_b as i64;
        (sum * SCALE as i64 / (QA * QB) as i64).clamp(-OUTPUT_LIMIT, OUTPUT_LIMIT) as i32
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small network with weights from a seed.
    pub fn random_net(kinds: &[&str], squares: usize, seed: u64) -> Network {
        random_net_of(kinds, squares, 2, seed)
    }

    /// A small network for pieces in `relations` relations to a
    /// perspective, with weights from a seed.
    pub fn random_net_of(kinds: &[&str], squares: usize, relations: usize, seed: u64) -> Network {
        let mut rng = crate::rng::SplitMix64(seed);
        let mut w = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
        let features = kinds.len() * relations * squares;
        Network {
            squares,
            relations,
            kinds: kinds.iter().map(|k| k.to_string()).collect(),
            families: "test".into(),
            residual: seed.is_multiple_of(2),
            screlu: seed % 4 < 2,
            ft_w: (0..features * HIDDEN).map(|_| w(60) as i16).collect(),
            ft_b: (0..HIDDEN).map(|_| w(100) as i16).collect(),
            out_w: (0..2 * HIDDEN).map(|_| w(64) as i16).collect(),
            out_b: w(5000) as i32,
        }
    }

    #[test]
    fn the_largest_weights_give_a_bounded_output() {
        let mut net = random_net(&["king:K", "pawn:fmWfcF"], 64, 1);
        net.out_w.iter_mut().for_each(|w| *w = i16::MAX);
        net.out_b = i32::MAX;
        let full = [i16::MAX; HIDDEN];
        assert_eq!(net.output(&full, &full), OUTPUT_LIMIT as i32);
        net.out_w.iter_mut().for_each(|w| *w = i16::MIN);
        net.out_b = i32::MIN;
        assert_eq!(net.output(&full, &full), -OUTPUT_LIMIT as i32);
    }

    #[test]
    fn the_network_format_round_trips_and_rejects_damage() {
        let net = random_net(&["king:K", "pawn:fmWfcF", "piece:R"], 64, 7);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let mut damaged = bytes.clone();
        damaged[100] ^= 4;
        assert!(
            Network::from_bytes(&damaged)
                .unwrap_err()
                .contains("checksum")
        );
        assert!(Network::from_bytes(&bytes[..bytes.len() - 9]).is_err());
        assert!(Network::from_bytes(b"CHMRDATA....").is_err());
        let four = random_net_of(&["fourplayer:K", "fourplayer:P"], 160, 5, 3);
        let bytes = four.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), four);
        assert_eq!(four.features(), 2 * 5 * 160);
    }
}
