//! Moves packed in 32 bits, the move list, what a generator is asked for
//! and why a move in text is refused: the same for every family.

use arrayvec::ArrayVec;

/// A move: from (8 bits), to (8 bits), kind (2 bits), extra (4 bits: the
/// promotion piece type or the castling index): 22 bits, for boards of up
/// to 256 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    Castle = 3,
}

impl Move {
    pub const NULL: Move = Move(0);
    /// Four-player Free-For-All: the side to move leaves the game (it is
    /// mated, or its walking King cannot move). No piece moves; its
    /// squares (255) are on no board.
    pub const LEAVE: Move = Move(255 | 255 << 8);
    /// The bits a move uses (the transposition table stores these).
    pub const BITS: u32 = 22;

    #[inline(always)]
    pub fn new(from: usize, to: usize, kind: MoveKind, extra: usize) -> Move {
        Move(from as u32 | (to as u32) << 8 | (kind as u32) << 16 | (extra as u32) << 18)
    }
    #[inline(always)]
    pub fn normal(from: usize, to: usize) -> Move {
        Move(from as u32 | (to as u32) << 8)
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 255) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        ((self.0 >> 8) & 255) as usize
    }
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match (self.0 >> 16) & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }
    /// Promotion piece type, or castling index.
    #[inline(always)]
    pub fn extra(self) -> usize {
        ((self.0 >> 18) & 15) as usize
    }
    #[inline(always)]
    pub fn is_null(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    pub fn is_leave(self) -> bool {
        self == Move::LEAVE
    }
    pub fn promotion(self) -> Option<usize> {
        (self.kind() == MoveKind::Promotion).then(|| self.extra())
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({}->{} {:?} {})",
            self.from(),
            self.to(),
            self.kind(),
            self.extra()
        )
    }
}

/// Room for every legal move of any position the FEN reader accepts.
pub const MAX_MOVES: usize = 1024;
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// What to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    /// every legal move
    All,
    /// captures, en-passant captures and promotions
    Noisy,
    /// everything else (quiet moves without promotion, castling)
    Quiet,
}

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// not a move in any notation we read
    Unparsable(String),
    /// a well-formed move that is not legal here
    Illegal(String),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Unparsable(s) => write!(f, "unparsable move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}
