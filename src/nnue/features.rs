//! Which network input a piece on a square is, for one variant: the piece
//! types of the variant mapped to the network's piece kinds (a kind is the
//! piece's role and Betza moves, so a piece means the same input in every
//! army that has it), and the squares as each side sees them.

use crate::geometry::{Shape, Sq};
use crate::nnue::net::Network;
use crate::variant::MAX_TYPES;
use crate::variant::spec::{PieceSpec, Role};

/// The network's name for a piece kind: its role and its moves.
pub fn kind_key(p: &PieceSpec) -> String {
    let role = match p.role {
        Role::King => "king",
        Role::Pawn => "pawn",
        Role::Piece => "piece",
    };
    format!("{role}:{}", p.betza)
}

/// The inputs of one variant's pieces for one network.
#[derive(Clone, Debug)]
pub struct FeatureMap {
    /// [perspective][owner][type]: the first feature of that piece
    base: [[[u32; MAX_TYPES]; 2]; 2],
    /// per square: the square as Black sees it (ranks mirrored)
    mirror: Vec<u16>,
}

impl FeatureMap {
    /// The map of a variant's pieces on its board; an error names the
    /// pieces the network does not know, or the board it does not fit.
    pub fn new(pieces: &[PieceSpec], shape: &Shape, net: &Network) -> Result<FeatureMap, String> {
        let n = shape.num_squares();
        if n != net.squares {
            return Err(format!(
                "the network is for boards of {} squares, this one has {n}",
                net.squares
            ));
        }
        let mut base = [[[0u32; MAX_TYPES]; 2]; 2];
        let mut unknown = Vec::new();
        for (t, p) in pieces.iter().enumerate().take(MAX_TYPES) {
            let Some(k) = net.kinds.iter().position(|k| *k == kind_key(p)) else {
                unknown.push(format!("{} ({})", p.name, p.betza));
                continue;
            };
            for (persp, per) in base.iter_mut().enumerate() {
                for (owner, o) in per.iter_mut().enumerate() {
                    let theirs = (owner != persp) as usize;
                    o[t] = ((k * 2 + theirs) * n) as u32;
                }
            }
        }
        if !unknown.is_empty() {
            return Err(format!("the network does not know {}", unknown.join(", ")));
        }
        let mirror = (0..n)
            .map(|sq| {
                let (f, r) = shape.coords(sq);
                shape
                    .square(f as i32, (shape.ranks - 1 - r) as i32)
                    .unwrap_or(sq) as u16
            })
            .collect();
        Ok(FeatureMap { base, mirror })
    }

    /// The feature of `owner`'s piece of type `t` on `sq`, seen by
    /// `persp` (0 White, 1 Black).
    #[inline(always)]
    pub fn index(&self, persp: usize, owner: usize, t: usize, sq: Sq) -> usize {
        let s = if persp == 0 {
            sq
        } else {
            self.mirror[sq] as usize
        };
        self.base[persp][owner][t] as usize + s
    }
}
