//! The transposition table: lock-free, shared by all search threads.
//! Each entry is two 64-bit words written without locks; the key word is
//! stored xor-ed with the data word, so a torn write (half of one entry,
//! half of another) fails verification instead of returning a wrong entry.
//! Moves read from it are checked for legality by the caller.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::base::Move;

pub const BOUND_NONE: u8 = 0;
pub const BOUND_UPPER: u8 = 1;
pub const BOUND_LOWER: u8 = 2;
pub const BOUND_EXACT: u8 = 3;

const BUCKET: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: u8,
}

/// One cache line: BUCKET entries of 2 words (key ^ data, data), so a probe
/// touches one line of memory.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

/// Buckets in zeroed memory, aligned to a cache line. The allocator zeroes
/// only memory of the usual alignment without writing it (calloc: fresh
/// pages for large sizes); a cache-line alignment asked of it would be
/// written with zeros byte by byte, seconds for gigabytes. So the memory
/// is asked with the usual alignment and a line to spare, and the buckets
/// start at the first line boundary in it.
struct ZeroedBuckets {
    base: *mut u8,
    layout: std::alloc::Layout,
    buckets: *const Bucket,
    len: usize,
}

// SAFETY: the buckets are atomics, shared as a `&[Bucket]`; the pointers
// are owned by this value alone and freed once, in `drop`.
unsafe impl Send for ZeroedBuckets {}
unsafe impl Sync for ZeroedBuckets {}

impl ZeroedBuckets {
    fn new(len: usize) -> Option<ZeroedBuckets> {
        let line = std::mem::align_of::<Bucket>();
        let bytes = len
            .checked_mul(std::mem::size_of::<Bucket>())?
            .checked_add(line)?;
        let layout = std::alloc::Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: the layout's size is not zero (at least one line).
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        if base.is_null() {
            return None;
        }
        let skip = base.align_offset(line);
        // SAFETY: `skip` < `line`, so `len` buckets from there fit in the
        // allocation; zero bytes are valid Buckets (atomics of 0).
        let buckets = unsafe { base.add(skip) } as *const Bucket;
        Some(ZeroedBuckets {
            base,
            layout,
            buckets,
            len,
        })
    }
}

impl std::ops::Deref for ZeroedBuckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` initialised, aligned buckets live at `buckets`
        // for as long as self.
        unsafe { std::slice::from_raw_parts(self.buckets, self.len) }
    }
}

impl Drop for ZeroedBuckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed only here.
        unsafe { std::alloc::dealloc(self.base, self.layout) }
    }
}

pub struct TranspositionTable {
    buckets: ZeroedBuckets,
    generation: AtomicU8,
}

/// The static eval of a node whose eval is unknown (in check, or not
/// computed).
pub const NO_EVAL: i32 = -32000;

/// Layout of the data word: move 22 bits, score 16, static eval 14 (within
/// +-8191, NO_EVAL stored as -8192), depth 7, bound 2, generation 3.
const MOVE_MASK: u64 = (1 << Move::BITS) - 1;
const SCORE_SHIFT: u32 = Move::BITS;
const EVAL_SHIFT: u32 = SCORE_SHIFT + 16;
const EVAL_BITS: u32 = 14;
const EVAL_LIMIT: i32 = (1 << (EVAL_BITS - 1)) - 1;
const DEPTH_SHIFT: u32 = EVAL_SHIFT + EVAL_BITS;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 7;
const GEN_SHIFT: u32 = BOUND_SHIFT + 2;
const _: () = assert!(GEN_SHIFT + 3 == 64);

fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: u8, generation: u8) -> u64 {
    let eval = if eval == NO_EVAL {
        -EVAL_LIMIT - 1
    } else {
        eval.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    };
    (mv.0 as u64 & MOVE_MASK)
        | ((score as i16 as u16 as u64) << SCORE_SHIFT)
        | ((eval as u64 & ((1 << EVAL_BITS) - 1)) << EVAL_SHIFT)
        | (((depth.clamp(0, 127)) as u64) << DEPTH_SHIFT)
        | ((bound as u64 & 3) << BOUND_SHIFT)
        | ((generation as u64 & 7) << GEN_SHIFT)
}

fn unpack(d: u64) -> (TtEntry, u8) {
    // sign-extend the 14-bit eval
    let raw = ((d >> EVAL_SHIFT) & ((1 << EVAL_BITS) - 1)) as i32;
    let eval = (raw << (32 - EVAL_BITS)) >> (32 - EVAL_BITS);
    (
        TtEntry {
            mv: Move((d & MOVE_MASK) as u32),
            score: ((d >> SCORE_SHIFT) & 0xFFFF) as u16 as i16 as i32,
            eval: if eval == -EVAL_LIMIT - 1 {
                NO_EVAL
            } else {
                eval
            },
            depth: ((d >> DEPTH_SHIFT) & 127) as i32,
            bound: ((d >> BOUND_SHIFT) & 3) as u8,
        },
        ((d >> GEN_SHIFT) & 7) as u8,
    )
}

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one bucket). Panics if the
    /// memory cannot be had; `try_new` says so instead.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb)
            .unwrap_or_else(|| panic!("no memory for a {mb} MB transposition table"))
    }

    /// A table of `mb` megabytes, or None if the memory cannot be had. The
    /// memory comes zeroed from the allocator (fresh pages of the system,
    /// mapped as they are first touched), so a table of any size is made
    /// at once, without writing it.
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        let entries = (mb.max(1).checked_mul(1024 * 1024)? / 16).max(BUCKET);
        let buckets = ZeroedBuckets::new((entries / BUCKET).max(1))?;
        Some(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// The table's size in megabytes.
    pub fn mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & 7
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64; 2 * BUCKET] {
        &self.buckets[(((key as u128) * (self.buckets.len() as u128)) >> 64) as usize].0
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for i in 0..BUCKET {
            let k = b[2 * i].load(Ordering::Relaxed);
            let d = b[2 * i + 1].load(Ordering::Relaxed);
            if d != 0 && k ^ d == key {
                return Some(unpack(d).0);
            }
        }
        None
    }

    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: u8) {
        let b = self.bucket(key);
        let g = self.current_generation();
        let mut slot = 0;
        let mut worst = i32::MAX;
        for i in 0..BUCKET {
            let k = b[2 * i].load(Ordering::Relaxed);
            let d = b[2 * i + 1].load(Ordering::Relaxed);
            if d == 0 || k ^ d == key {
                slot = i;
                // keep a known move when the new entry has none
                if k ^ d == key && d != 0 && mv.is_null() {
                    let (old, _) = unpack(d);
                    let data = pack(old.mv, score, eval, depth, bound, g);
                    Self::write(b, i, key, data);
                    return;
                }
                break;
            }
            let (e, eg) = unpack(d);
            let age = (g.wrapping_sub(eg) & 7) as i32;
            let worth = e.depth - 8 * age;
            if worth < worst {
                worst = worth;
                slot = i;
            }
        }
        let data = pack(mv, score, eval, depth, bound, g);
        Self::write(b, slot, key, data);
    }

    fn write(b: &[AtomicU64; 2 * BUCKET], slot: usize, key: u64, data: u64) {
        b[2 * slot].store(key ^ data, Ordering::Relaxed);
        b[2 * slot + 1].store(data, Ordering::Relaxed);
    }

    /// Per mille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let g = self.current_generation();
        let n = (self.buckets.len() * BUCKET).min(1000);
        let mut used = 0;
        for i in 0..n {
            let d = self.buckets[i / BUCKET].0[2 * (i % BUCKET) + 1].load(Ordering::Relaxed);
            if d != 0 && unpack(d).1 == g {
                used += 1;
            }
        }
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        // the largest squares and fields of a 22-bit move
        let m = Move::new(255, 254, crate::base::MoveKind::Castle, 15);
        tt.store(0xDEAD_BEEF_1234_5678, m, -123, 45, 7, BOUND_LOWER);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!(e.mv, m);
        assert_eq!(e.score, -123);
        assert_eq!(e.eval, 45);
        assert_eq!(e.depth, 7);
        assert_eq!(e.bound, BOUND_LOWER);
        assert!(tt.probe(0x1234).is_none());
    }

    #[test]
    fn eval_extremes() {
        let tt = TranspositionTable::new(1);
        for (eval, back) in [
            (NO_EVAL, NO_EVAL),
            (-8191, -8191),
            (9000, 8191),
            (-20000, -8191),
        ] {
            tt.store(77, Move::NULL, 30000 - 5, eval, 127, BOUND_EXACT);
            let e = tt.probe(77).unwrap();
            assert_eq!((e.eval, e.score, e.depth), (back, 29995, 127));
        }
    }
}
