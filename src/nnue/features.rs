//! Which network input a piece on a square is, for one variant: the piece
//! types of the variant mapped to the network's piece kinds (a kind is the
//! piece's role and Betza moves, so a piece means the same input in every
//! army that has it), the owner's relation to the perspective, and the
//! squares as each perspective sees them. Two players: two perspectives
//! (White, Black), Black's board mirrored by ranks. Four players: a
//! perspective per seat, the board turned so that the seat sits at the
//! bottom.

use crate::fourplayer::DEAD;
use crate::fourplayer::variant::{LETTERS, ORIENTATIONS, Variant4};
use crate::geometry::{Shape, Sq};
use crate::nnue::net::{FEATURE_SET, FEATURE_SET_4, Network};
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

/// The piece kinds of four-player chess, in its type order.
pub fn four_player_kinds() -> Vec<String> {
    LETTERS.iter().map(|l| format!("fourplayer:{l}")).collect()
}

/// The inputs of one variant's pieces for one network.
#[derive(Clone, Debug)]
pub struct FeatureMap {
    perspectives: usize,
    /// owners a piece can have (2, or 4 seats and the dead pieces)
    owners: usize,
    /// [perspective][owner][type]: the first feature of that piece
    base: Vec<u32>,
    /// [perspective][square]: the square as the perspective sees it
    view: Vec<Vec<u16>>,
}

/// The first feature of each piece type's kind in `net`, or the names of
/// the types it does not know.
fn kind_rows(
    names: impl Iterator<Item = (String, String)>,
    net: &Network,
) -> Result<Vec<usize>, String> {
    let mut rows = Vec::new();
    let mut unknown = Vec::new();
    for (key, name) in names {
        match net.kinds.iter().position(|k| *k == key) {
            Some(k) => rows.push(k * net.relations * net.squares),
            None => unknown.push(name),
        }
    }
    if unknown.is_empty() {
        Ok(rows)
    } else {
        Err(format!("the network does not know {}", unknown.join(", ")))
    }
}

/// The network must be made for `set` on boards of `n` squares.
fn fits(net: &Network, set: &str, n: usize) -> Result<(), String> {
    let has = crate::nnue::net::feature_set(net.relations);
    if has != set {
        return Err(format!(
            "the network's features are '{has}', this game needs '{set}'"
        ));
    }
    if n != net.squares {
        return Err(format!(
            "the network is for boards of {} squares, this one has {n}",
            net.squares
        ));
    }
    Ok(())
}

impl FeatureMap {
    /// The map of a two-player variant's pieces on its board; an error
    /// names the pieces the network does not know, or the board it does
    /// not fit.
    pub fn new(pieces: &[PieceSpec], shape: &Shape, net: &Network) -> Result<FeatureMap, String> {
        let n = shape.num_squares();
        fits(net, FEATURE_SET, n)?;
        let names = pieces
            .iter()
            .take(MAX_TYPES)
            .map(|p| (kind_key(p), format!("{} ({})", p.name, p.betza)));
        let rows = kind_rows(names, net)?;
        let mut base = vec![0u32; 2 * 2 * MAX_TYPES];
        for persp in 0..2 {
            for owner in 0..2 {
                let theirs = (owner != persp) as usize;
                for (t, &row) in rows.iter().enumerate() {
                    base[(persp * 2 + owner) * MAX_TYPES + t] = (row + theirs * n) as u32;
                }
            }
        }
        let mirror = (0..n)
            .map(|sq| {
                let (f, r) = shape.coords(sq);
                shape
                    .square(f as i32, (shape.ranks - 1 - r) as i32)
                    .unwrap_or(sq) as u16
            })
            .collect();
        Ok(FeatureMap {
            perspectives: 2,
            owners: 2,
            base,
            view: vec![(0..n as u16).collect(), mirror],
        })
    }

    /// The map of four-player chess for a four-player network.
    pub fn four_player(v: &Variant4, net: &Network) -> Result<FeatureMap, String> {
        let shape = &v.shape;
        let n = shape.num_squares();
        fits(net, FEATURE_SET_4, n)?;
        let names = four_player_kinds().into_iter().map(|k| (k.clone(), k));
        let rows = kind_rows(names, net)?;
        let owners = DEAD + 1;
        let mut base = vec![0u32; 4 * owners * MAX_TYPES];
        for persp in 0..4 {
            for owner in 0..owners {
                let relation = if owner == DEAD {
                    4
                } else {
                    (owner + 4 - persp) % 4
                };
                for (t, &row) in rows.iter().enumerate() {
                    base[(persp * owners + owner) * MAX_TYPES + t] = (row + relation * n) as u32;
                }
            }
        }
        // seat p's frame: a square (x, y) of it is the board square
        // reached by turning its offset from the centre by the seat's
        // orientation (doubled coordinates keep the centre whole)
        let (files, ranks) = (shape.files as i32, shape.ranks as i32);
        let view = ORIENTATIONS
            .iter()
            .map(|o| {
                let mut view = vec![0u16; n];
                for frame in 0..n {
                    let (x, y) = shape.coords(frame);
                    let (u, w) = o.apply((2 * x as i32 - (files - 1), 2 * y as i32 - (ranks - 1)));
                    let board = shape
                        .square((u + files - 1) / 2, (w + ranks - 1) / 2)
                        .expect("the four-player board turns onto itself");
                    view[board] = frame as u16;
                }
                view
            })
            .collect();
        Ok(FeatureMap {
            perspectives: 4,
            owners,
            base,
            view,
        })
    }

    /// How many perspectives (accumulators) the position is seen from.
    pub fn perspectives(&self) -> usize {
        self.perspectives
    }

    /// The two perspectives of the output for `side` to move: its own and
    /// the other side's, or (four players) the next seat's.
    #[inline(always)]
    pub fn views(&self, side: usize) -> (usize, usize) {
        (side, (side + 1) % self.perspectives)
    }

    /// The feature of `owner`'s piece of type `t` on `sq`, seen by
    /// `persp` (0 White, 1 Black; four players: the seat).
    #[inline(always)]
    pub fn index(&self, persp: usize, owner: usize, t: usize, sq: Sq) -> usize {
        self.base[(persp * self.owners + owner) * MAX_TYPES + t] as usize
            + self.view[persp][sq] as usize
    }
}
