//! A small deterministic random number generator (SplitMix64) for Zobrist
//! keys, occupancy sampling and self-play openings: fixed seeds, the same
//! numbers on every machine; and a seed from the clock where runs should
//! differ (`clock_seed`).

#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

/// A seed from the clock (nanoseconds since 1970), for choices that should
/// differ from one run to the next.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in 0..n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// An index into something of length `n` (n > 0).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}
