//! Games as the front ends hold them, above both families' rules: a
//! two-player `Game` (a variant, its root and the moves played), the
//! four-player `Game4` (in `fourplayer::game`), and `AnyGame`, either of
//! them behind one set of methods, chosen once by the variant's name
//! (`Family::of`).

pub mod any;
pub mod family;
pub mod two;

pub use any::AnyGame;
pub use family::Family;
pub use two::Game;
