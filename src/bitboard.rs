//! A small bitboard trait over `u64` (boards of up to 64 squares), `u128`
//! (up to 128 squares, e.g. Omega's 104) and `B192` (up to 192 squares, e.g.
//! four-player chess's 160). Squares are numbered over valid squares only,
//! row by row, so indices rise along every ray.

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
    /// The lowest 128 squares as a `u128` (all of them on boards that fit
    /// a `u128`; for tests).
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

/// A 192-bit bitboard: three 64-bit words, square `s` in word `s / 64`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct B192(pub [u64; 3]);

macro_rules! b192_op {
    ($tr:ident, $f:ident, $op:tt, $atr:ident, $af:ident) => {
        impl $tr for B192 {
            type Output = B192;
            #[inline(always)]
            fn $f(self, o: B192) -> B192 {
                B192([self.0[0] $op o.0[0], self.0[1] $op o.0[1], self.0[2] $op o.0[2]])
            }
        }
        impl $atr for B192 {
            #[inline(always)]
            fn $af(&mut self, o: B192) {
                *self = *self $op o;
            }
        }
    };
}

b192_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
b192_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
b192_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for B192 {
    type Output = B192;
    #[inline(always)]
    fn not(self) -> B192 {
        B192([!self.0[0], !self.0[1], !self.0[2]])
    }
}

impl Bitboard for B192 {
    const CAPACITY: usize = 192;
    const ZERO: Self = B192([0; 3]);

    #[inline(always)]
    fn bit(sq: usize) -> Self {
        // in registers, without a store to an indexed word
        let b = 1u64 << (sq & 63);
        let word = sq >> 6;
        let at = |i: usize| b & ((word == i) as u64).wrapping_neg();
        B192([at(0), at(1), at(2)])
    }
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        (self.0[(sq >> 6).min(2)] >> (sq & 63)) & 1 != 0
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }
    #[inline(always)]
    fn lsb(self) -> usize {
        if self.0[0] != 0 {
            self.0[0].trailing_zeros() as usize
        } else if self.0[1] != 0 {
            64 + self.0[1].trailing_zeros() as usize
        } else {
            128 + self.0[2].trailing_zeros() as usize
        }
    }
    #[inline(always)]
    fn msb(self) -> usize {
        if self.0[2] != 0 {
            191 - self.0[2].leading_zeros() as usize
        } else if self.0[1] != 0 {
            127 - self.0[1].leading_zeros() as usize
        } else {
            63 - self.0[0].leading_zeros() as usize
        }
    }
    #[inline(always)]
    fn clear_lsb(self) -> Self {
        let mut w = self.0;
        if w[0] != 0 {
            w[0] &= w[0] - 1;
        } else if w[1] != 0 {
            w[1] &= w[1] - 1;
        } else {
            w[2] &= w[2].wrapping_sub(1);
        }
        B192(w)
    }
    #[inline(always)]
    fn low_bits(n: usize) -> Self {
        let word = |lo: usize| -> u64 {
            match n.saturating_sub(lo) {
                0 => 0,
                k if k >= 64 => !0,
                k => (1 << k) - 1,
            }
        };
        B192([word(0), word(64), word(128)])
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self.0[0] as u128 | (self.0[1] as u128) << 64
    }
}

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
        for sq in 0..B::CAPACITY {
            let one = B::bit(sq);
            assert_eq!(
                (one.count(), one.lsb(), one.msb()),
                (1, sq, sq),
                "square {sq}"
            );
            assert!(one.has(sq) && b.has(sq) == [3, 40, B::CAPACITY - 1].contains(&sq));
            assert!(!one.has((sq + 1) % B::CAPACITY));
        }
    }

    #[test]
    fn ops_u64() {
        check::<u64>();
    }

    #[test]
    fn ops_u128() {
        check::<u128>();
    }

    #[test]
    fn ops_b192() {
        check::<B192>();
        // across the word boundaries
        let b = B192::bit(63) | B192::bit(64) | B192::bit(127) | B192::bit(128) | B192::bit(159);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![63, 64, 127, 128, 159]);
        assert_eq!(b.msb(), 159);
        assert_eq!((b ^ B192::bit(159)).msb(), 128);
        assert_eq!(B192::low_bits(130).count(), 130);
        assert!(B192::low_bits(130).has(129) && !B192::low_bits(130).has(130));
        assert_eq!(!B192::ZERO, B192::low_bits(192));
    }
}
