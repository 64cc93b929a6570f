//! The accumulators a position carries while a network evaluates it: one
//! per perspective (each side's; four players: each seat's), the sum of
//! its features' weights.
//!
//! They are kept lazily, on a stack of one frame per move made: `make`
//! opens a frame (`push`) and records the pieces put on and taken off
//! squares in it; `unmake` closes it (`pop`) and does nothing else. A
//! frame's accumulators are computed from its parent's and its changes
//! only when its position is evaluated (`settle`), so a node that is
//! never evaluated (a table cut, a node in check) costs its network
//! nothing, and taking a move back costs nothing at all. The first frame
//! is computed afresh when the network is attached.

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
    /// the feature weights as bytes, where every one fits (the same
    /// values in half the memory: a row is two cache lines, not four)
    narrow: Option<Arc<[i8]>>,
}

impl Evaluator {
    pub fn new(net: Arc<Network>, map: Arc<FeatureMap>) -> Evaluator {
        let narrow = net
            .ft_w
            .iter()
            .map(|&w| i8::try_from(w).ok())
            .collect::<Option<Arc<[i8]>>>();
        Evaluator { net, map, narrow }
    }

    /// Whether the feature weights are kept as bytes.
    pub fn narrow(&self) -> bool {
        self.narrow.is_some()
    }
}

/// A feature weight as the evaluator keeps it: a byte or two.
trait Weight: Copy {
    fn wide(self) -> i16;
}

impl Weight for i8 {
    #[inline(always)]
    fn wide(self) -> i16 {
        self as i16
    }
}

impl Weight for i16 {
    #[inline(always)]
    fn wide(self) -> i16 {
        self
    }
}

/// The accumulators of every perspective.
type Accs = ArrayVec<[i16; HIDDEN], 4>;

/// A piece put on (`add`) or taken off a square.
#[derive(Clone, Copy, Debug)]
struct Change {
    owner: u8,
    t: u8,
    sq: u16,
    add: bool,
}

/// One move's frame: its changes from the frame below and, once computed,
/// its accumulators.
#[derive(Clone, Debug)]
struct Frame {
    acc: Accs,
    computed: bool,
    changes: Vec<Change>,
}

/// The accumulators of a position under an evaluator.
#[derive(Clone, Debug)]
pub struct Nnue {
    ev: Evaluator,
    /// frames `0..=top` are the position's; those above are kept for
    /// their room
    frames: Vec<Frame>,
    top: usize,
}

#[inline(always)]
fn row<W: Weight>(weights: &[W], feature: usize) -> &[W; HIDDEN] {
    let start = feature * HIDDEN;
    weights[start..start + HIDDEN]
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
        let base = Frame {
            acc,
            computed: true,
            changes: Vec::new(),
        };
        Nnue {
            ev,
            frames: vec![base],
            top: 0,
        }
    }

    /// A move begins: its changes go to a new frame.
    #[inline(always)]
    pub fn push(&mut self) {
        self.top += 1;
        if self.top == self.frames.len() {
            let acc = self.frames[0].acc.clone();
            self.frames.push(Frame {
                acc,
                computed: false,
                changes: Vec::with_capacity(8),
            });
        }
        let f = &mut self.frames[self.top];
        f.computed = false;
        f.changes.clear();
    }

    /// The last move is taken back: its frame goes.
    #[inline(always)]
    pub fn pop(&mut self) {
        assert!(
            self.top > 0,
            "an accumulator frame popped that was never pushed"
        );
        self.top -= 1;
    }

    /// Makes the current position the first frame (after a game move, so
    /// that the frames do not pile up over a game).
    pub fn rebase(&mut self) {
        self.settle();
        if self.top > 0 {
            self.frames.swap(0, self.top);
            self.top = 0;
        }
    }

    /// A piece put on `sq`.
    #[inline(always)]
    pub fn add(&mut self, owner: usize, t: usize, sq: Sq) {
        self.change(owner, t, sq, true);
    }

    /// A piece taken off `sq`.
    #[inline(always)]
    pub fn sub(&mut self, owner: usize, t: usize, sq: Sq) {
        self.change(owner, t, sq, false);
    }

    #[inline(always)]
    fn change(&mut self, owner: usize, t: usize, sq: Sq, add: bool) {
        let c = Change {
            owner: owner as u8,
            t: t as u8,
            sq: sq as u16,
            add,
        };
        let f = &mut self.frames[self.top];
        if f.computed {
            // a change outside a move (the first frame): applied at once
            apply(&self.ev, &mut f.acc, c);
        } else {
            f.changes.push(c);
        }
    }

    /// Computes the accumulators of every frame up to the current one
    /// that are not computed yet (each from the one below it).
    #[inline]
    pub fn settle(&mut self) {
        if self.frames[self.top].computed {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: this CPU has AVX2 (asked just now)
            unsafe { self.settle_avx2() };
            return;
        }
        self.settle_below();
    }

    /// `settle_below` compiled for AVX2 (twice as wide as the SSE of the
    /// build's baseline, `x86-64-v2`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn settle_avx2(&mut self) {
        self.settle_below();
    }

    #[inline(always)]
    fn settle_below(&mut self) {
        let mut i = self.top;
        while !self.frames[i - 1].computed {
            i -= 1;
        }
        for i in i..=self.top {
            let (below, above) = self.frames.split_at_mut(i);
            let prev = &below[i - 1].acc;
            let f = &mut above[0];
            step(&self.ev, prev, &mut f.acc, &f.changes);
            f.computed = true;
        }
    }

    /// The current accumulators, computed if they are not yet (without
    /// keeping them).
    pub fn accumulators(&self) -> Accs {
        let mut i = self.top;
        while !self.frames[i].computed {
            i -= 1;
        }
        let mut acc = self.frames[i].acc.clone();
        for f in &self.frames[i + 1..=self.top] {
            for &c in &f.changes {
                apply(&self.ev, &mut acc, c);
            }
        }
        acc
    }

    /// The evaluation in centipawns for `side` to move (four players:
    /// the seat to move, for its team). Fastest after `settle`.
    #[inline]
    pub fn evaluate(&self, side: usize) -> i32 {
        let (us, them) = self.ev.map.views(side);
        let f = &self.frames[self.top];
        if f.computed {
            self.ev.net.output(&f.acc[us], &f.acc[them])
        } else {
            let acc = self.accumulators();
            self.ev.net.output(&acc[us], &acc[them])
        }
    }

    /// Whether the output is added to the classical evaluation.
    #[inline(always)]
    pub fn residual(&self) -> bool {
        self.ev.net.residual
    }

    pub fn evaluator(&self) -> &Evaluator {
        &self.ev
    }
}

/// A frame's accumulators from its parent's and its changes.
#[inline(always)]
fn step(ev: &Evaluator, prev: &Accs, out: &mut Accs, changes: &[Change]) {
    match &ev.narrow {
        Some(w) => step_with(ev, w, prev, out, changes),
        None => step_with(ev, &ev.net.ft_w, prev, out, changes),
    }
}

/// `step` over the weights `w`: in one pass over each accumulator for
/// the common moves (a piece moved, with or without a capture), change by
/// change otherwise.
#[inline(always)]
fn step_with<W: Weight>(ev: &Evaluator, w: &[W], prev: &Accs, out: &mut Accs, changes: &[Change]) {
    let mut adds = ArrayVec::<Change, 2>::new();
    let mut subs = ArrayVec::<Change, 2>::new();
    let mut simple = true;
    for &c in changes {
        let room = if c.add {
            adds.try_push(c)
        } else {
            subs.try_push(c)
        };
        simple &= room.is_ok();
    }
    if !simple || adds.len() != 1 || subs.is_empty() {
        // castling, a pass: one change at a time
        out.clone_from(prev);
        for &c in changes {
            apply_with(ev, w, out, c);
        }
        return;
    }
    // every frame has as many accumulators as the first (made from it)
    for (persp, (acc, prev)) in out.iter_mut().zip(prev).enumerate() {
        let index = |c: Change| {
            ev.map
                .index(persp, c.owner as usize, c.t as usize, c.sq as Sq)
        };
        let a = row(w, index(adds[0]));
        let s0 = row(w, index(subs[0]));
        if let Some(&s1) = subs.get(1) {
            let s1 = row(w, index(s1));
            for i in 0..HIDDEN {
                acc[i] = prev[i]
                    .wrapping_add(a[i].wide())
                    .wrapping_sub(s0[i].wide())
                    .wrapping_sub(s1[i].wide());
            }
        } else {
            for i in 0..HIDDEN {
                acc[i] = prev[i].wrapping_add(a[i].wide()).wrapping_sub(s0[i].wide());
            }
        }
    }
}

/// A change applied to every perspective's accumulator.
#[inline(always)]
fn apply(ev: &Evaluator, acc: &mut Accs, c: Change) {
    match &ev.narrow {
        Some(w) => apply_with(ev, w, acc, c),
        None => apply_with(ev, &ev.net.ft_w, acc, c),
    }
}

#[inline(always)]
fn apply_with<W: Weight>(ev: &Evaluator, w: &[W], acc: &mut Accs, c: Change) {
    for (persp, acc) in acc.iter_mut().enumerate() {
        let w = row(
            w,
            ev.map
                .index(persp, c.owner as usize, c.t as usize, c.sq as Sq),
        );
        // two loops, not one with the operation chosen inside, so that
        // each is vectorised
        if c.add {
            for (a, &w) in acc.iter_mut().zip(w) {
                *a = a.wrapping_add(w.wide());
            }
        } else {
            for (a, &w) in acc.iter_mut().zip(w) {
                *a = a.wrapping_sub(w.wide());
            }
        }
    }
}
