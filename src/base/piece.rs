//! A piece in a mailbox: one byte, its owner (side, seat, or the dead of
//! four-player chess) in the high four bits and its kind in the low four;
//! `EMPTY` for an empty square.

/// Mailbox code of an empty square.
pub const EMPTY: u8 = 0xFF;

/// The code of a piece of kind `t` (below 16) owned by `owner` (below 15).
#[inline(always)]
pub fn code(owner: usize, t: usize) -> u8 {
    (owner << 4 | t) as u8
}
/// The owner of a piece's code.
#[inline(always)]
pub fn code_owner(c: u8) -> usize {
    (c >> 4) as usize
}
/// The kind of a piece's code.
#[inline(always)]
pub fn code_type(c: u8) -> usize {
    (c & 15) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_never_read_as_empty() {
        for owner in 0..5 {
            for t in 0..16 {
                let c = code(owner, t);
                assert_ne!(c, EMPTY);
                assert_eq!((code_owner(c), code_type(c)), (owner, t));
            }
        }
    }
}
