//! Tunable weights, declared once. Each has a default, a range and a name;
//! the evaluation and search read them from a `Params` value, the
//! protocols expose them as options when the engine runs with
//! `CHIMERA_TUNE=1` (so the tuning script can set them), and the tuner
//! reads the same list (`chimera params`).
//!
//! The search's fixed constants, which are not tuned, are declared here
//! too, after the weights.
//!
//! Glossary for the search constants:
//! - MARGIN: a score distance (centipawns) compared with alpha or beta;
//! - BASE and FACTOR: a value computed as BASE + FACTOR * depth (or a
//!   similar formula), with FACTOR scaled by 1/100 where it is fractional;
//! - DEPTH: the depth limit of a rule: the largest remaining depth for
//!   the pruning near the leaves (rfp, razor, fp, lmp, see), the smallest
//!   for the null move, reductions and extensions (nmp, lmr, iir, se);
//! - eval: the static eval; for reverse futility, razoring and the null
//!   move sharpened by the TT score where its bound allows;
//! - improving: 1 when the static eval is above the one two plies before.

macro_rules! params {
    ($( $(#[$doc:meta])* $name:ident = $default:expr, $min:expr, $max:expr; )*) => {
        /// The current values of every tunable weight.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[$doc])* pub $name: i32, )*
        }

        impl Default for Params {
            fn default() -> Self {
                Params { $( $name: $default, )* }
            }
        }

        impl Params {
            /// (name, default, min, max) of every weight.
            pub const LIST: &'static [(&'static str, i32, i32, i32)] = &[
                $( (stringify!($name), $default, $min, $max), )*
            ];

            /// Sets a weight by name; errors on an unknown name or a value
            /// out of range.
            pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
                $(
                    if name.eq_ignore_ascii_case(stringify!($name)) {
                        if !($min..=$max).contains(&value) {
                            return Err(format!(
                                "{} must be between {} and {}", stringify!($name), $min, $max
                            ));
                        }
                        self.$name = value;
                        return Ok(());
                    }
                )*
                Err(format!("unknown parameter '{name}'"))
            }

            pub fn get(&self, name: &str) -> Option<i32> {
                $( if name.eq_ignore_ascii_case(stringify!($name)) { return Some(self.$name); } )*
                None
            }
        }
    };
}

params! {
    // ---- evaluation (centipawns; _MG middlegame, _EG endgame) ----
    /// piece-square weight per move of empty-board mobility above average
    pst_mobility_mg = 9, 0, 20;
    pst_mobility_eg = 14, 0, 20;
    /// per move of actual mobility above the piece's average
    mobility_mg = 0, 0, 20;
    mobility_eg = 4, 0, 20;
    /// pawn advance per rank
    pawn_advance_mg = 0, 0, 30;
    pawn_advance_eg = 0, 0, 40;
    /// central pawn files
    pawn_center_mg = 8, 0, 40;
    passed_mg = 0, 0, 80;
    passed_eg = 15, 0, 120;
    /// passed pawn bonus grows with the square of its advance (per 8 ranks)
    passed_rank_eg = 260, 0, 300;
    passed_rank_mg = 43, 0, 200;
    doubled_mg = 10, 0, 60;
    doubled_eg = 7, 0, 60;
    isolated_mg = 6, 0, 60;
    isolated_eg = 5, 0, 60;
    /// King: away from the centre in the middlegame, towards it in the endgame
    king_center_mg = 12, 0, 60;
    king_center_eg = 24, 0, 60;
    /// shelter: own pawns in front of the King
    shelter_mg = 4, 0, 60;
    /// king attack: units per attacked zone square, weighted by piece value
    king_attack = 39, 0, 200;
    /// the attack score grows with the square of the units; divisor
    king_attack_div = 64, 8, 512;
    tempo = 13, 0, 40;
    /// pawnless endgames: scale (of 64) when the advantage is small
    pawnless_scale = 15, 0, 64;
    /// bishop-like pair bonus (two colour-bound pieces on both colours)
    pair_mg = 116, 0, 200;
    pair_eg = 155, 0, 250;
    /// mop-up: drive a bare King to the edge and close in with our King
    mopup_edge = 20, 0, 80;
    mopup_near = 8, 0, 40;
    /// rooks (and other orthogonal riders) on open and half-open files
    open_file_mg = 37, 0, 80;
    half_open_file_mg = 22, 0, 60;
    /// threats: per own piece (not a Pawn or the King) attacked by an
    /// enemy Pawn; half of it in the endgame
    threat_pawn = 34, 0, 150;
    /// per own piece (not the King) attacked and undefended; half of it in
    /// the endgame
    hanging = 34, 0, 150;
    /// per own piece attacked by an enemy piece (not a Pawn or the King)
    /// worth more than 50 less (`LESSER_MARGIN` in the evaluation)
    threat_lesser_mg = 36, 0, 150;
    threat_lesser_eg = 34, 0, 150;
    /// per square of the enemy King's zone that a side attacks and the
    /// enemy defends with no Pawn or piece (the King aside)
    king_weak_mg = 10, 0, 60;
    /// mobility relative to the piece's own average: per square, times 8
    /// over the average (a short-range piece's square counts more)
    mobility_rel_mg = 3, 0, 40;
    mobility_rel_eg = 2, 0, 40;
    /// lazy evaluation: material and piece-square terms this far outside
    /// the window are returned without the rest
    lazy_margin = 450, 100, 3000;

    // ---- four-player evaluation (centipawns, a Pawn is 50) ----
    /// per move of a piece, not counting its own two first ranks
    four_mobility = 4, 0, 20;
    /// per developed piece (Knight off its first rank, other pieces with
    /// 5 moves beyond their own two first ranks)
    four_active = 35, 0, 120;
    /// Teams: times the product of the partners' developed pieces
    four_active_pair = 20, 0, 80;
    /// per piece (not the mover's) attacked by a Pawn, or attacked and
    /// undefended
    four_threat = 60, 0, 200;
    /// a Knight within two leaps of an enemy King
    four_knight_king = 60, 0, 200;
    /// King-zone pressure, per 100
    four_king_zone = 150, 0, 400;
    /// how far mobility, King safety and threats may move a team's score
    /// (lazy evaluation beyond it)
    four_lazy_margin = 700, 200, 3000;

    // ---- search ----
    /// four-player Teams: how many extensions a path from the root may
    /// have (Free-For-All: 64)
    four_ext_budget = 3, 0, 64;
    /// four-player Teams quiescence: once a score is found, at most this
    /// many moves that do not check (out of check: captures; in check:
    /// quiet evasions) are searched per node; 0 for no limit
    four_qs_width = 2, 0, 16;
    /// four-player Teams late-move pruning at every depth (non-PV nodes):
    /// after BASE + depth^2 / DIV quiet moves; DIV 0 for the two-player
    /// rule (lmp_base, lmp_depth)
    four_lmp_base = 1, 0, 20;
    four_lmp_div = 5, 0, 20;
    /// four-player Teams: late quiet moves are reduced depth / DIV more
    /// (a reduction that grows with depth, as 4pchess's); 0 for none
    four_lmr_div = 8, 0, 32;
    /// four-player Teams, while the next player is in check: which moves
    /// count as checking for pruning (none of them is pruned as harmless):
    /// 1 = every move, 2 = those whose piece then reaches the checked King
    /// or a square next to it, 0 = only real checks
    four_spare_next_check = 2, 0, 2;
    /// four-player Teams: 1 = a node whose partner is in check still
    /// prunes late and futile quiet moves (only the null move, reverse
    /// futility and razoring are off); 0 = nothing is pruned there
    four_partner_check_prunes = 1, 0, 1;
    // ---- time allocation ----
    /// with a clock and no `movestogo`, a move's soft time limit is the
    /// time left divided by this, plus a share of the increment
    time_moves_to_go = 30, 8, 60;
    /// aspiration windows: from iteration aspiration_depth on, the first
    /// window is the previous score -+ MARGIN (a full window before)
    aspiration_margin = 18, 5, 100;
    aspiration_depth = 5, 1, 20;
    /// after a fail the failing side of the window moves to the score -+
    /// the margin (a fail low also moves beta half-way down to alpha), then
    /// the margin grows by GROWTH/100 of itself plus STEP; a margin above
    /// MAX makes the window the full one
    aspiration_growth = 50, 0, 200;
    aspiration_step = 5, 1, 100;
    aspiration_max = 1000, 100, 5000;
    /// reverse futility, razoring and the null move prune only non-PV
    /// nodes with no King of the side to move's team in check, outside
    /// singular-extension searches.
    ///
    /// reverse futility: at depth <= rfp_depth, return eval when
    /// eval - MARGIN * (depth - improving) >= beta (and eval is no mate)
    rfp_margin = 75, 20, 300;
    rfp_depth = 8, 0, 16;
    /// razoring: at depth <= razor_depth, when eval + MARGIN * depth <
    /// alpha, a quiescence search that stays below alpha ends the node
    razor_margin = 250, 50, 800;
    razor_depth = 2, 0, 6;
    /// null move: from depth nmp_depth, when eval and the static eval
    /// both reach beta, a pass searched with the reduction
    /// BASE + depth / DIV + min((eval - beta) / nmp_eval_div, nmp_eval_max)
    nmp_depth = 2, 1, 8;
    nmp_base = 3, 1, 6;
    nmp_div = 3, 1, 8;
    nmp_eval_div = 200, 50, 1000;
    nmp_eval_max = 3, 0, 6;
    /// futility pruning of quiet moves (in PV nodes too): at
    /// lmr_depth <= fp_depth, where lmr_depth is depth less the move's
    /// table reduction (at least 0), skip the move when
    /// eval + BASE + FACTOR * lmr_depth <= alpha
    fp_base = 90, 0, 400;
    fp_factor = 90, 0, 400;
    fp_depth = 8, 0, 16;
    /// late move pruning: in a non-PV node at depth <= lmp_depth, skip
    /// quiet moves once (BASE + depth^2) / (2 - improving) quiet moves
    /// were searched (no halving when the eval improves)
    lmp_base = 3, 1, 12;
    lmp_depth = 8, 0, 16;
    /// late move reductions: the table holds BASE/100 + ln(depth)
    /// ln(moves) / (DIV/100), truncated, at least 0; from depth lmr_depth
    /// on, for quiet moves and losing captures after the first (the first
    /// two in a PV node)
    lmr_base = 75, 0, 200;
    lmr_div = 225, 100, 500;
    lmr_depth = 3, 1, 8;
    /// the reduction of a quiet move shrinks by its history / DIV
    lmr_history_div = 8000, 1000, 32000;
    /// reduce this much less in a PV node
    lmr_pv = 1, 0, 3;
    /// reduce this much more when the eval is not improving
    lmr_not_improving = 1, 0, 3;
    /// reduce this much more in an expected cut node
    lmr_cut = 1, 0, 3;
    /// reduce this much less for a move ordered as high as the first
    /// killer (the second killer and the countermove are ordered below it)
    lmr_killer = 1, 0, 3;
    /// reduce this much less for a checking move
    lmr_check = 1, 0, 3;
    /// at the root: quiet moves, not checking, after the first
    /// lmr_root_moves are reduced by the table's value less lmr_root
    lmr_root_moves = 3, 1, 10;
    lmr_root = 1, 0, 3;
    /// SEE pruning at depth <= see_depth: a quiet move is skipped when it
    /// loses more than see_quiet * lmr_depth^2 / 2, a capture that the
    /// ordering found losing when it loses more than see_noisy * depth
    see_quiet = 60, 0, 300;
    see_noisy = 90, 0, 300;
    see_depth = 8, 0, 16;
    /// quiescence delta pruning: skip a capture (not a promotion) when
    /// eval + the captured piece's endgame value + MARGIN <= alpha
    delta_margin = 200, 0, 1000;
    /// internal iterative reduction: a PV or expected cut node without a
    /// TT move is searched one ply less from this depth on
    iir_depth = 4, 2, 12;
    /// singular extension: from depth se_depth, with a TT entry at most
    /// se_tt_depth plies shallower (not an upper bound, not a mate), the
    /// TT move is extended by one ply when the other moves, searched to
    /// (depth - 1) / 2, all fail below tt_score - se_margin * depth; if
    /// that bound is >= beta the node returns it (multi-cut)
    se_depth = 7, 4, 16;
    se_margin = 2, 1, 8;
    se_tt_depth = 3, 0, 8;
    /// correction history, where the game keeps non-pawn keys (8x8): the
    /// weights (percent) of the pawns' term and of each colour's non-pawn
    /// term in the correction (nnue_corr_non_pawn_weight below where a
    /// network evaluates); with corr_non_pawn_weight 0, or elsewhere, the
    /// pawns' term alone, whole
    corr_pawn_weight = 70, 0, 200;
    corr_non_pawn_weight = 0, 0, 200;

    // ---- search, where a chess/CwDA network evaluates ----
    /// the eval margins above as the network's searches want them (tuned
    /// by SPSA with cwda-f5 on both sides: scripts/nnue-recipe.sh step 3b,
    /// and rfp, delta and see_quiet again in step 3c);
    /// `Params::for_network` puts them in place of rfp_margin, fp_base, ...
    nnue_rfp_margin = 116, 20, 300;
    nnue_fp_base = 91, 0, 400;
    nnue_fp_factor = 98, 0, 400;
    nnue_razor_margin = 252, 50, 800;
    nnue_delta_margin = 229, 0, 1000;
    nnue_see_quiet = 52, 0, 300;
    nnue_see_noisy = 96, 0, 300;
    /// the tree's shape there, tuned with those margins (step 3c): the
    /// late-move reductions and the null move's eval term
    nnue_lmr_base = 77, 0, 200;
    nnue_lmr_div = 219, 100, 500;
    nnue_lmr_history_div = 7083, 1000, 32000;
    nnue_nmp_eval_div = 142, 50, 1000;
    /// the non-pawn correction's weight there (70/35 won its SPRT against
    /// the pawns alone: +10.0 +- 7.8 Elo over 5902 self-play games,
    /// docs/search-experiments.md; the classical search is unmeasured and
    /// keeps 0)
    nnue_corr_non_pawn_weight = 35, 0, 200;
}

impl Params {
    /// These weights with the network's search margins and tree shape
    /// (`nnue_*`) in place of the classical ones.
    pub fn for_network(&self) -> Params {
        Params {
            rfp_margin: self.nnue_rfp_margin,
            fp_base: self.nnue_fp_base,
            fp_factor: self.nnue_fp_factor,
            razor_margin: self.nnue_razor_margin,
            delta_margin: self.nnue_delta_margin,
            see_quiet: self.nnue_see_quiet,
            see_noisy: self.nnue_see_noisy,
            lmr_base: self.nnue_lmr_base,
            lmr_div: self.nnue_lmr_div,
            lmr_history_div: self.nnue_lmr_history_div,
            nmp_eval_div: self.nnue_nmp_eval_div,
            corr_non_pawn_weight: self.nnue_corr_non_pawn_weight,
            ..self.clone()
        }
    }
}

// ---- search: fixed constants (not tuned) ----

/// The main search thread looks at the clock (and the node limit) every
/// this many nodes; a power of two.
pub const CLOCK_CHECK_NODES: u64 = 1024;
const _: () = assert!(CLOCK_CHECK_NODES.is_power_of_two());

/// Iterative deepening stops before a new iteration once this share (per
/// 100) of the soft time limit has passed, by how many iterations in a row
/// the best move stayed the same (0, 1, 2, 3 or more): a stable best move
/// gets less time.
pub const SOFT_SCALE_BY_STABILITY: [u64; 4] = [100, 80, 65, 50];

/// When the best score falls from one iteration to the next, the share
/// above grows by one per 100 per centipawn of the fall, by at most this.
pub const FALLING_EVAL_MAX_SHARE: i32 = 50;

/// With a clock, a single legal move at the root is played once this
/// depth is complete.
pub const FORCED_MOVE_DEPTH: i32 = 4;

/// Time allocation: the largest `movestogo` believed (without one, the
/// weight `time_moves_to_go` stands in).
pub const MAX_MOVES_TO_GO: u32 = 50;

/// Time allocation, shares as (numerator, denominator): the soft limit is
/// the time left / moves to go plus INC_SHARE of the increment, at most
/// SOFT_CAP of the time left; the hard limit is HARD_PER_SOFT times the
/// soft limit, at most HARD_CAP of the time left (LAST_MOVE_HARD_CAP
/// before the time control), and never below the soft limit.
pub const INC_SHARE: (u64, u64) = (3, 4);
pub const SOFT_CAP: (u64, u64) = (6, 10);
pub const HARD_PER_SOFT: u64 = 4;
pub const HARD_CAP: (u64, u64) = (8, 10);
pub const LAST_MOVE_HARD_CAP: (u64, u64) = (9, 10);

/// The late-move reduction table covers depths and move counts below
/// this; larger ones use its last row and column.
pub const LMR_TABLE_SIZE: usize = 64;

/// At a beta cutoff by a quiet move, the history of the quiet moves
/// searched before it is lowered, of the first this many.
pub const CUTOFF_QUIETS: usize = 64;

/// Correction history: entries per side (a power of two, indexed by the
/// pawn key), the fixed-point scale of an entry (1/GRAIN centipawns), the
/// largest correction (centipawns) and the largest weight (per 256) of
/// one search result, which is depth + 1 below it.
pub const CORRECTION_ENTRIES: usize = 16384;
pub const CORRECTION_GRAIN: i32 = 256;
pub const CORRECTION_MAX: i32 = 64;
pub const CORRECTION_MAX_WEIGHT: i32 = 16;

/// Mixed into the TT key of a singular-extension search, with the move
/// it leaves out, so that its result is not taken for the whole node.
pub const EXCLUDED_KEY_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_get() {
        let mut p = Params::default();
        assert!(p.set("tempo", 20).is_ok());
        assert_eq!(p.get("TEMPO"), Some(20));
        assert!(p.set("tempo", 1000).is_err());
        assert!(p.set("nonsense", 1).is_err());
        assert!(Params::LIST.iter().any(|p| p.0 == "rfp_margin"));
    }

    #[test]
    fn the_network_margins_take_the_place_of_their_namesakes_and_nothing_else() {
        let mut p = Params::default();
        let network: Vec<_> = Params::LIST
            .iter()
            .filter(|w| w.0.starts_with("nnue_"))
            .collect();
        assert!(network.len() >= 12);
        // each a value of its own, different from its namesake's
        for (i, &&(name, _, lo, _)) in network.iter().enumerate() {
            p.set(name, lo + i as i32).unwrap();
            let plain = &name["nnue_".len()..];
            assert_ne!(p.get(plain), Some(lo + i as i32), "{plain}");
        }
        let n = p.for_network();
        for &(name, ..) in Params::LIST {
            let expected = match name.strip_prefix("nnue_") {
                Some(_) => p.get(name),
                None if network.iter().any(|w| &w.0["nnue_".len()..] == name) => {
                    p.get(&format!("nnue_{name}"))
                }
                None => p.get(name),
            };
            assert_eq!(n.get(name), expected, "{name}");
        }
    }
}
