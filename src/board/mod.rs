//! What both families of games share below their positions: the legal
//! move generator over a side and its enemies, and the placement steps of
//! make/unmake.

pub mod legal;
pub mod placement;
