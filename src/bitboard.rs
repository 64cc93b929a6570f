//! A small bitboard trait over `u64` (boards of up to 64 squares) and `u128`
//! (up to 128 squares, e.g. Omega's 104). Squares are numbered over valid
//! squares only, row by row, so indices rise along every ray.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The number of squares this bitboard can hold.
    const CAPACITY: usize;
    /// The length of a per-square table (`SqMap`): the capacity rounded up
    /// to a power of two.
    const MAP_LEN: usize = Self::CAPACITY.next_power_of_two();
    const ZERO: Self;

    fn bit(sq: usize) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// Lowest set square; undefined (returns CAPACITY) when empty.
    fn lsb(self) -> usize;
    /// Highest set square; undefined when empty.
    fn msb(self) -> usize;
    /// The bitboard without its lowest set square.
    fn clear_lsb(self) -> Self;
    /// Squares `0..n` set.
    fn low_bits(n: usize) -> Self;
    fn to_u128(self) -> u128;

    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        (self & Self::bit(sq)).any()
    }
    #[inline(always)]
    fn more_than_one(self) -> bool {
        self.clear_lsb().any()
    }
    #[inline(always)]
    fn pop_lsb(&mut self) -> usize {
        let s = self.lsb();
        *self = self.clear_lsb();
        s
    }
    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// Iterates the set squares of a bitboard, lowest first.
pub struct BitIter<B>(B);

impl<B: Bitboard> Iterator for BitIter<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }
}

macro_rules! impl_bitboard {
    ($t:ty, $bits:expr) => {
        impl Bitboard for $t {
            const CAPACITY: usize = $bits;
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(sq: usize) -> Self {
                1 << sq
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn msb(self) -> usize {
                ($bits - 1) - self.leading_zeros() as usize
            }
            #[inline(always)]
            fn clear_lsb(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn low_bits(n: usize) -> Self {
                if n >= $bits { !0 } else { (1 << n) - 1 }
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}

impl_bitboard!(u64, 64);
impl_bitboard!(u128, 128);

#[cfg(test)]
mod tests {
    use super::*;

    fn check<B: Bitboard>() {
        let b = B::bit(3) | B::bit(B::CAPACITY - 1) | B::bit(40);
        assert_eq!(b.count(), 3);
        assert_eq!(b.lsb(), 3);
        assert_eq!(b.msb(), B::CAPACITY - 1);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 40, B::CAPACITY - 1]);
        assert!(b.more_than_one());
        assert!(!B::bit(5).more_than_one());
        assert_eq!(B::low_bits(4).count(), 4);
        assert_eq!(B::low_bits(B::CAPACITY).count() as usize, B::CAPACITY);
    }

    #[test]
    fn ops_u64() {
        check::<u64>();
    }

    #[test]
    fn ops_u128() {
        check::<u128>();
    }
}
