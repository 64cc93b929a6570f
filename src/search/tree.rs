//! What the search needs of a game: the two-player `Position` and the
//! four-player search positions implement it, so one alpha-beta searches
//! both. Scores are from the point of view of the side to move's *team*;
//! the search negates a child's score only where the team changes (it
//! always does in two-player chess and in four-player Teams, where turns
//! alternate between the teams; in a paranoid Free-For-All search several
//! opponents move in a row).

use crate::base::GenType;
use crate::base::{Move, MoveList};
use crate::nnue::NetChoice;
use crate::params::Params;

use super::mated_in;

pub trait SearchPosition: Clone + Send + 'static {
    /// Evaluation tables, built once per variant and weights.
    type Tables: Send + Sync + 'static;

    /// The player to move (indexes the history tables).
    fn side(&self) -> usize;
    /// The number of players (sizes the history tables).
    fn sides(&self) -> usize;
    /// Which clock of `Limits` (`time`, `inc`) is the side to move's.
    fn clock(&self) -> usize {
        self.side()
    }
    /// The number of squares (sizes the history tables).
    fn squares(&self) -> usize;
    /// The side to move's team; scores are for this team.
    fn team(&self) -> usize;
    fn hash(&self) -> u64;
    /// A key of the pawns alone (for the correction history); none where
    /// the game keeps no such key (no correction then).
    fn pawn_key(&self) -> Option<u64> {
        None
    }
    /// Keys of each colour's pieces other than pawns (for the correction
    /// history); none where the game keeps no such keys.
    fn non_pawn_keys(&self) -> Option<[u64; 2]> {
        None
    }
    fn in_check(&self) -> bool;
    /// Whether a partner of the side to move (who moves later) is in check:
    /// the side to move's static eval then says little. Two-player: never.
    fn team_in_check(&self) -> bool {
        false
    }
    /// Appends the legal moves of the given type.
    fn generate(&self, kind: GenType, list: &mut MoveList);
    fn legal_moves(&self) -> MoveList {
        let mut l = MoveList::new();
        self.generate(GenType::All, &mut l);
        l
    }
    /// Captures (en passant too) and promotions.
    fn is_noisy(&self, m: Move) -> bool;
    /// Whether a legal move checks an enemy King (castling and en passant
    /// may answer yes without looking).
    fn gives_check(&self, m: Move) -> bool;
    /// Just after `m` was made: whether it checked an enemy King (for the
    /// check extension and reductions). Two-player: the side to move is
    /// in check.
    fn gave_check(&self, _m: Move) -> bool {
        self.in_check()
    }
    /// Whether quiescence searches this capture even though it loses
    /// material or cannot reach alpha. Two-player: never (not measured
    /// there); four-player: a capture that checks an enemy King, as two
    /// enemies often mate with a capture that a partner's piece covers.
    fn spared_in_qsearch(&self, _m: Move) -> bool {
        false
    }
    /// How many moves that do not check a quiescence node searches once
    /// it has a score (captures out of check, quiet evasions in check).
    /// Two-player: no limit.
    fn qsearch_width(&self, _p: &Params) -> usize {
        usize::MAX
    }
    /// How many extensions (check, singular) a path from the root may
    /// have. Two-player: no limit.
    fn extension_budget(&self, _p: &Params) -> u16 {
        u16::MAX
    }
    /// Late-move pruning by its own rule, at every depth: after
    /// `base + depth^2 / div` quiet moves, as `(base, div)`. None: the
    /// two-player rule of the params (`lmp_base`, `lmp_depth`).
    fn late_move_rule(&self, _p: &Params) -> Option<(i32, i32)> {
        None
    }
    /// Takes the search's weights, once, before the search (for the
    /// hooks that have no weights of their own to read them).
    fn set_params(&mut self, _p: &Params) {}
    /// More late-move reduction for a move at `depth` (quiet or not) than
    /// the shared table gives; 0 for none.
    fn lmr_extra(&self, _p: &Params, _depth: i32, _quiet: bool) -> i32 {
        0
    }
    /// Whether a node whose partner (not the side to move) is in check
    /// may still prune late and futile quiet moves. Two-player: no
    /// partner, so it does not matter.
    fn partner_check_prunes(&self, _p: &Params) -> bool {
        false
    }
    /// A small number (below 32) for the piece that makes `m`, its colour
    /// and kind, for the continuation history; 0 where the game has none.
    fn piece_code(&self, _m: Move) -> usize {
        0
    }
    /// The piece type a move promotes to.
    fn promotion(&self, m: Move) -> Option<usize>;
    fn make(&mut self, m: Move);
    fn unmake(&mut self);
    /// Passes the turn (null-move pruning).
    fn make_null(&mut self);
    fn unmake_null(&mut self);
    /// The score of a node where the game is over by the rules without a
    /// mate: a draw (the 50-move rule, a repetition, once being enough
    /// inside the search, insufficient material), or an end by points.
    fn game_over_score(&self) -> Option<i32>;
    /// The score of a node whose side to move has no legal move.
    fn no_moves_score(&self, ply: usize) -> i32 {
        if self.in_check() { mated_in(ply) } else { 0 }
    }
    /// Whether `side` has pieces besides its King and pawns (where a null
    /// move is safe and late-move pruning sound).
    fn has_pieces(&self, side: usize) -> bool;
    /// The move in the protocol's notation.
    fn move_to_string(&self, m: Move) -> String;

    /// The evaluation tables for these weights and network choice.
    fn build_tables(&self, p: &Params, nets: &NetChoice) -> Self::Tables;
    /// Readies the position for the evaluation of `t` (a network's
    /// accumulators); once per search thread.
    fn attach_eval(&mut self, _t: &Self::Tables) {}
    /// Whether the search uses the network's margins
    /// (`Params::for_network`): a network evaluates, and its margins were
    /// tuned for it (after `attach_eval`).
    fn network_margins(&self) -> bool {
        false
    }
    /// Readies the position's evaluation state (a network's lazily kept
    /// accumulators) before `evaluate` or `evaluate_bounded`, which are
    /// right without it but slower.
    #[inline(always)]
    fn settle_eval(&mut self) {}
    /// The variant the tables are built for: tables built for the same
    /// variant value (`Arc::ptr_eq`) and weights are used again.
    fn tables_variant(&self) -> std::sync::Arc<dyn std::any::Any + Send + Sync>;
    /// Static evaluation for the side to move's team.
    fn evaluate(&self, t: &Self::Tables, p: &Params) -> i32;
    /// Static evaluation that may stop early when far outside (alpha,
    /// beta); returns the score and whether it is complete.
    fn evaluate_bounded(&self, t: &Self::Tables, p: &Params, alpha: i32, beta: i32) -> (i32, bool);
    /// Whether the exchange a move starts gains at least `threshold`.
    fn see_ge(&self, t: &Self::Tables, m: Move, threshold: i32) -> bool;
    /// Value (phase 0 middlegame, 1 endgame) of what a move captures.
    fn capture_value(&self, t: &Self::Tables, m: Move, phase: usize) -> i32;
    /// Value of the piece a move promotes to (0 if none).
    fn promotion_value(&self, t: &Self::Tables, m: Move, phase: usize) -> i32;
    /// Middlegame value of the moving piece.
    fn mover_value(&self, t: &Self::Tables, m: Move) -> i32;
    /// The value of the best piece a pawn can promote to.
    fn best_promotion_value(t: &Self::Tables) -> i32;
}

mod two_player {
    use super::SearchPosition;
    use crate::base::GenType;
    use crate::base::{Move, MoveKind, MoveList};
    use crate::bitboard::Bitboard;
    use crate::eval::{EvalTables, evaluate, evaluate_bounded};
    use crate::nnue::NetChoice;
    use crate::params::Params;
    use crate::position::Position;
    use crate::search::see::see_ge;
    use crate::variant::{MAX_TYPES, PAWN};

    impl<B: Bitboard> SearchPosition for Position<B> {
        type Tables = EvalTables<B>;

        #[inline(always)]
        fn side(&self) -> usize {
            Position::side(self)
        }
        fn sides(&self) -> usize {
            2
        }
        fn squares(&self) -> usize {
            self.v.n
        }
        #[inline(always)]
        fn team(&self) -> usize {
            Position::side(self)
        }
        #[inline(always)]
        fn hash(&self) -> u64 {
            Position::hash(self)
        }
        #[inline]
        fn piece_code(&self, m: Move) -> usize {
            self.piece_at(m.from())
                .map_or(0, |(c, t)| c * MAX_TYPES + t)
        }
        #[inline]
        fn pawn_key(&self) -> Option<u64> {
            let mix = |b: u128, k: u64| {
                let x = (b as u64 ^ ((b >> 64) as u64).rotate_left(29)).wrapping_mul(k);
                x ^ (x >> 31)
            };
            Some(
                mix(self.pieces(0, PAWN).to_u128(), 0x9E37_79B9_7F4A_7C15)
                    ^ mix(self.pieces(1, PAWN).to_u128(), 0xC2B2_AE3D_27D4_EB4F),
            )
        }
        /// The 8x8 games only (chess and CwDA, where it was measured).
        #[inline]
        fn non_pawn_keys(&self) -> Option<[u64; 2]> {
            (self.v.n <= 64).then(|| Position::non_pawn_keys(self))
        }
        #[inline(always)]
        fn in_check(&self) -> bool {
            Position::in_check(self)
        }
        #[inline(always)]
        fn generate(&self, kind: GenType, list: &mut MoveList) {
            Position::generate(self, kind, list)
        }
        #[inline(always)]
        fn is_noisy(&self, m: Move) -> bool {
            Position::is_noisy(self, m)
        }
        #[inline(always)]
        fn promotion(&self, m: Move) -> Option<usize> {
            m.promotion()
        }
        #[inline]
        fn gives_check(&self, m: Move) -> bool {
            Position::gives_check(self, m)
        }
        #[inline(always)]
        fn make(&mut self, m: Move) {
            Position::make(self, m)
        }
        #[inline(always)]
        fn unmake(&mut self) {
            Position::unmake(self)
        }
        #[inline(always)]
        fn make_null(&mut self) {
            Position::make_null(self)
        }
        #[inline(always)]
        fn unmake_null(&mut self) {
            Position::unmake_null(self)
        }
        #[inline]
        fn game_over_score(&self) -> Option<i32> {
            let draw = self.halfmove_clock() >= 100
                || self.repetitions() >= 1
                || self.insufficient_material();
            draw.then_some(0)
        }
        #[inline]
        fn has_pieces(&self, side: usize) -> bool {
            (self.color_bb(side) & !self.type_bb(PAWN)).count() > 1
        }
        fn move_to_string(&self, m: Move) -> String {
            Position::move_to_string(self, m)
        }
        fn build_tables(&self, p: &Params, nets: &NetChoice) -> EvalTables<B> {
            let mut t = EvalTables::new(&self.v, p);
            t.nnue = nets.evaluator(&self.v.spec.pieces, &self.v.shape);
            t
        }
        fn attach_eval(&mut self, t: &EvalTables<B>) {
            self.attach_nnue(t.nnue.clone());
        }
        /// On 8x8 boards (chess and CwDA), where the margins were tuned;
        /// Omega's network plays with the classical ones it was adopted
        /// with.
        fn network_margins(&self) -> bool {
            self.nnue().is_some() && self.v.n == 64
        }
        #[inline(always)]
        fn settle_eval(&mut self) {
            self.settle_nnue();
        }
        fn tables_variant(&self) -> std::sync::Arc<dyn std::any::Any + Send + Sync> {
            self.v.clone()
        }
        #[inline]
        fn evaluate(&self, t: &EvalTables<B>, p: &Params) -> i32 {
            match self.nnue() {
                Some(n) if n.residual() => evaluate(self, t, p) + n.evaluate(self.side()),
                Some(n) => n.evaluate(self.side()),
                None => evaluate(self, t, p),
            }
        }
        #[inline]
        fn evaluate_bounded(
            &self,
            t: &EvalTables<B>,
            p: &Params,
            alpha: i32,
            beta: i32,
        ) -> (i32, bool) {
            match self.nnue() {
                Some(n) if n.residual() => {
                    // the classical part stops early against the window
                    // less the network's correction
                    let r = n.evaluate(self.side());
                    let (e, complete) = evaluate_bounded(self, t, p, alpha - r, beta - r);
                    (e + r, complete)
                }
                Some(n) => (n.evaluate(self.side()), true),
                None => evaluate_bounded(self, t, p, alpha, beta),
            }
        }
        #[inline]
        fn see_ge(&self, t: &EvalTables<B>, m: Move, threshold: i32) -> bool {
            see_ge(self, t, m, threshold)
        }
        #[inline]
        fn capture_value(&self, t: &EvalTables<B>, m: Move, phase: usize) -> i32 {
            match m.kind() {
                MoveKind::EnPassant => t.value[PAWN][phase],
                _ => self
                    .piece_at(m.to())
                    .map(|(_, ty)| t.value[ty][phase])
                    .unwrap_or(0),
            }
        }
        #[inline]
        fn promotion_value(&self, t: &EvalTables<B>, m: Move, phase: usize) -> i32 {
            m.promotion().map(|p| t.value[p][phase]).unwrap_or(0)
        }
        #[inline]
        fn mover_value(&self, t: &EvalTables<B>, m: Move) -> i32 {
            self.piece_at(m.from())
                .map(|(_, ty)| t.value[ty][0])
                .unwrap_or(0)
        }
        fn best_promotion_value(t: &EvalTables<B>) -> i32 {
            t.best_promotion_value
        }
    }
}
