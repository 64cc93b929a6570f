//! Which family of games a variant name belongs to: the one answer to "is
//! this four-player?" for every front end.

use crate::fourplayer::Mode;

/// A variant's family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// chess, Omega, CwDA (`chess`, `omega`, `cwda-<white>-<black>`)
    Two,
    /// four-player chess (`fourplayer-teams`, `fourplayer-ffa`; `teams`
    /// and `ffa` are read too)
    Four(Mode),
}

impl Family {
    /// The family of a variant name (PROTOCOLS.md's names).
    pub fn of(variant: &str) -> Family {
        match Mode::from_name(variant) {
            Some(mode) => Family::Four(mode),
            None => Family::Two,
        }
    }

    /// The four-player mode, if it is four-player chess.
    pub fn four(self) -> Option<Mode> {
        match self {
            Family::Four(mode) => Some(mode),
            Family::Two => None,
        }
    }

    pub fn is_four(self) -> bool {
        self.four().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(Family::of("fourplayer-teams"), Family::Four(Mode::Teams));
        assert_eq!(Family::of("fourplayer-ffa"), Family::Four(Mode::Ffa));
        assert_eq!(Family::of("ffa"), Family::Four(Mode::Ffa));
        assert_eq!(Family::of("chess"), Family::Two);
        assert_eq!(Family::of("cwda-fide-nutty"), Family::Two);
        assert_eq!(Family::of("fourplayer-chaos"), Family::Two);
        assert!(!Family::of("omega").is_four());
    }
}
