//! The accumulators a position carries while a network evaluates it: one
//! per side's perspective, the sum of its features' weights, updated as
//! pieces are put on and taken off squares (make and unmake) and computed
//! afresh only when the network is attached.

use std::sync::Arc;

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
    acc: [[i16; HIDDEN]; 2],
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
        let acc = [0, 1].map(|persp| {
            let features = pieces
                .iter()
                .map(|&(owner, t, sq)| ev.map.index(persp, owner, t, sq));
            ev.net.accumulator(features)
        });
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

    /// Both accumulators combined with the piece's rows by `op`.
    #[inline(always)]
    fn update(&mut self, owner: usize, t: usize, sq: Sq, op: fn(i16, i16) -> i16) {
        for persp in 0..2 {
            let w = row(&self.ev.net, self.ev.map.index(persp, owner, t, sq));
            for (a, &w) in self.acc[persp].iter_mut().zip(w) {
                *a = op(*a, w);
            }
        }
    }

    /// The evaluation in centipawns for `side` to move.
    #[inline]
    pub fn evaluate(&self, side: usize) -> i32 {
        self.ev.net.output(&self.acc[side], &self.acc[side ^ 1])
    }

    /// Whether the output is added to the classical evaluation.
    #[inline(always)]
    pub fn residual(&self) -> bool {
        self.ev.net.residual
    }

    pub fn accumulators(&self) -> &[[i16; HIDDEN]; 2] {
        &self.acc
    }

    pub fn evaluator(&self) -> &Evaluator {
        &self.ev
    }
}
