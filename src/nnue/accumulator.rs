//! The accumulators a position carries while a network evaluates it: one
//! per perspective (each side's; four players: each seat's), the sum of
//! its features' weights, updated as pieces are put on and taken off
//! squares (make and unmake) and computed afresh only when the network is
//! attached.

use std::sync::Arc;

use arrayvec::ArrayVec;

use crate::geometry::Sq;
use crate::nnue::features::FeatureMap;
use crate::nnue::net::{HIDDEN, Network};

/// A network and the map of one variant's pieces to its inputs.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub net: Arc<Network>,
    pub map: Arc<FeatureMap>,
}

/// The accumulators of a position under an evaluator.
#[derive(Clone, Debug)]
pub struct Nnue {
    ev: Evaluator,
    acc: ArrayVec<[i16; HIDDEN], 4>,
}

#[inline(always)]
fn row(net: &Network, feature: usize) -> &[i16; HIDDEN] {
    let start = feature * HIDDEN;
    net.ft_w[start..start + HIDDEN]
        .try_into()
        .expect("a row of HIDDEN weights")
}

impl Nnue {
    /// Accumulators computed from the pieces `(owner, type, square)`.
    pub fn fresh(ev: Evaluator, pieces: impl Iterator<Item = (usize, usize, Sq)>) -> Nnue {
        let pieces: Vec<(usize, usize, Sq)> = pieces.collect();
        let acc = (0..ev.map.perspectives())
            .map(|persp| {
                let features = pieces
                    .iter()
                    .map(|&(owner, t, sq)| ev.map.index(persp, owner, t, sq));
                ev.net.accumulator(features)
            })
            .collect();
        Nnue { acc, ev }
    }

    /// A piece put on `sq`.
    #[inline(always)]
    pub fn add(&mut self, owner: usize, t: usize, sq: Sq) {
        self.update(owner, t, sq, i16::wrapping_add);
    }

    /// A piece taken off `sq`.
    #[inline(always)]
    pub fn sub(&mut self, owner: usize, t: usize, sq: Sq) {
        self.update(owner, t, sq, i16::wrapping_sub);
    }

    /// Every accumulator combined with the piece's rows by `op`.
    #[inline(always)]
    fn update(&mut self, owner: usize, t: usize, sq: Sq, op: fn(i16, i16) -> i16) {
        for (persp, acc) in self.acc.iter_mut().enumerate() {
            let w = row(&self.ev.net, self.ev.map.index(persp, owner, t, sq));
            for (a, &w) in acc.iter_mut().zip(w) {
                *a = op(*a, w);
            }
        }
    }

    /// The evaluation in centipawns for `side` to move (four players:
    /// the seat to move, for its team).
    #[inline]
    pub fn evaluate(&self, side: usize) -> i32 {
        let (us, them) = self.ev.map.views(side);
        self.ev.net.output(&self.acc[us], &self.acc[them])
    }

    /// Whether the output is added to the classical evaluation.
    #[inline(always)]
    pub fn residual(&self) -> bool {
        self.ev.net.residual
    }

    pub fn accumulators(&self) -> &[[i16; HIDDEN]] {
        &self.acc
    }

    pub fn evaluator(&self) -> &Evaluator {
        &self.ev
    }
}
