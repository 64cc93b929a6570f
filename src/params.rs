//! Tunable weights, declared once. Each has a default, a range and a name;
//! the evaluation and search read them from a `Params` value, the
//! protocols expose them as options when the engine runs with
//! `CHIMERA_TUNE=1` (so the tuning script can set them), and the tuner
//! reads the same list (`chimera params`).
//!
//! Glossary for the search constants:
//! - MARGIN: a score distance (centipawns) compared with alpha or beta;
//! - BASE and FACTOR: a value computed as BASE + FACTOR * depth (or a
//!   similar formula), with FACTOR scaled by 1/100 where it is fractional;
//! - DEPTH: the largest remaining depth at which a pruning rule applies.

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
    pst_mobility_mg = 3, 0, 20;
    pst_mobility_eg = 3, 0, 20;
    /// per move of actual mobility above the piece's average
    mobility_mg = 4, 0, 20;
    mobility_eg = 4, 0, 20;
    /// pawn advance per rank
    pawn_advance_mg = 3, 0, 30;
    pawn_advance_eg = 8, 0, 40;
    /// central pawn files
    pawn_center_mg = 8, 0, 40;
    passed_mg = 10, 0, 80;
    passed_eg = 25, 0, 120;
    /// passed pawn bonus grows with the square of its advance (per 8 ranks)
    passed_rank_eg = 80, 0, 300;
    passed_rank_mg = 40, 0, 200;
    doubled_mg = 10, 0, 60;
    doubled_eg = 20, 0, 60;
    isolated_mg = 10, 0, 60;
    isolated_eg = 10, 0, 60;
    /// King: away from the centre in the middlegame, towards it in the endgame
    king_center_mg = 12, 0, 60;
    king_center_eg = 12, 0, 60;
    /// shelter: own pawns in front of the King
    shelter_mg = 12, 0, 60;
    /// king attack: units per attacked zone square, weighted by piece value
    king_attack = 40, 0, 200;
    /// the attack score grows with the square of the units; divisor
    king_attack_div = 64, 8, 512;
    tempo = 12, 0, 40;
    /// pawnless endgames: scale (of 64) when the advantage is small
    pawnless_scale = 16, 0, 64;
    /// bishop-like pair bonus (two colour-bound pieces on both colours)
    pair_mg = 25, 0, 80;
    pair_eg = 50, 0, 120;
    /// mop-up: drive a bare King to the edge and close in with our King
    mopup_edge = 20, 0, 80;
    mopup_near = 8, 0, 40;
    /// rooks (and other orthogonal riders) on open and half-open files
    open_file_mg = 20, 0, 80;
    half_open_file_mg = 10, 0, 60;
    /// threats: per own piece (not a Pawn or the King) attacked by an
    /// enemy Pawn; half of it in the endgame
    threat_pawn = 40, 0, 150;
    /// per own piece (not the King) attacked and undefended; half of it in
    /// the endgame
    hanging = 30, 0, 150;
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
    four_king_zone = 100, 0, 400;
    /// how far mobility, King safety and threats may move a team's score
    /// (lazy evaluation beyond it)
    four_lazy_margin = 700, 200, 3000;

    // ---- search ----
    /// four-player: how many extensions a path from the root may have
    four_ext_budget = 64, 0, 64;
    aspiration_margin = 18, 5, 100;
    /// reverse futility: return the static eval when it beats beta by MARGIN * depth
    rfp_margin = 75, 20, 300;
    rfp_depth = 8, 0, 16;
    /// razoring: drop to quiescence when eval + MARGIN * depth < alpha
    razor_margin = 250, 50, 800;
    razor_depth = 2, 0, 6;
    /// null move: reduction BASE + depth / DIV
    nmp_base = 3, 1, 6;
    nmp_div = 3, 1, 8;
    /// futility pruning of quiet moves: eval + BASE + FACTOR * depth <= alpha
    fp_base = 90, 0, 400;
    fp_factor = 90, 0, 400;
    fp_depth = 8, 0, 16;
    /// late move pruning: skip quiet moves after BASE + depth^2 / 2 tries
    lmp_base = 3, 1, 12;
    lmp_depth = 8, 0, 16;
    /// late move reductions: BASE/100 + ln(depth) ln(moves) / (DIV/100)
    lmr_base = 75, 0, 200;
    lmr_div = 225, 100, 500;
    /// history divisor for reduction adjustments
    lmr_history_div = 8000, 1000, 32000;
    /// SEE pruning thresholds (per depth) for quiet moves and captures
    see_quiet = 60, 0, 300;
    see_noisy = 90, 0, 300;
    see_depth = 8, 0, 16;
    /// quiescence delta pruning margin
    delta_margin = 200, 0, 1000;
    /// internal iterative reduction minimum depth
    iir_depth = 4, 2, 12;
    /// singular extension minimum depth and margin (per depth)
    se_depth = 7, 4, 16;
    se_margin = 2, 1, 8;
}

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
}
