//! Fitting the evaluation to game results (Texel's method): positions
//! from Chimera's own games (`chimera selfplay --positions`), each labelled
//! with its game's result, and the weights of `Params` and the pieces'
//! values moved one step at a time while the mean squared error between
//! the results and a sigmoid of the static evaluation falls.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::eval::{EvalTables, evaluate};
use crate::params::Params;
use crate::position::Position;
use crate::setup::{Any, BoardWidth, Family, Width, setup};
use crate::variant::{Role, Variant, WHITE};

/// The evaluation weights fitted by default: the two-player evaluation's
/// weights of `Params` (not the lazy margin, which changes no score).
pub const EVAL_WEIGHTS: &[&str] = &[
    "pst_mobility_mg",
    "pst_mobility_eg",
    "mobility_mg",
    "mobility_eg",
    "pawn_advance_mg",
    "pawn_advance_eg",
    "pawn_center_mg",
    "passed_mg",
    "passed_eg",
    "passed_rank_eg",
    "passed_rank_mg",
    "doubled_mg",
    "doubled_eg",
    "isolated_mg",
    "isolated_eg",
    "king_center_mg",
    "king_center_eg",
    "shelter_mg",
    "king_attack",
    "king_attack_div",
    "tempo",
    "pawnless_scale",
    "pair_mg",
    "pair_eg",
    "open_file_mg",
    "half_open_file_mg",
    "threat_pawn",
    "hanging",
    "threat_lesser_mg",
    "threat_lesser_eg",
    "king_weak_mg",
    "mobility_rel_mg",
    "mobility_rel_eg",
];

/// The positions of one variant and their results (White's score).
struct Group<B: BoardWidth> {
    variant: Arc<Variant<B>>,
    positions: Vec<Position<B>>,
    results: Vec<f64>,
}

struct Groups;

impl Family for Groups {
    type Of<B: BoardWidth> = Group<B>;
}

/// The data set: positions grouped by variant.
pub struct Data {
    groups: Vec<Any<Groups>>,
    /// number of positions
    pub len: usize,
}

fn push<B: BoardWidth>(g: &mut Group<B>, fen: &str, result: f64) -> Result<(), String> {
    let mut pos = Position::from_fen(g.variant.clone(), fen)?;
    pos.shrink_to_fit();
    g.positions.push(pos);
    g.results.push(result);
    Ok(())
}

impl Data {
    /// Reads `variant|FEN|result` lines (result 1, 0.5 or 0 from White's
    /// view); a line that does not read is an error naming it.
    pub fn read(text: &str) -> Result<Data, String> {
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut groups: Vec<Any<Groups>> = Vec::new();
        let mut len = 0;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let err = |e: String| format!("line {}: {e}", n + 1);
            let mut parts = line.split('|');
            let (Some(variant), Some(fen), Some(result), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(err("expected variant|FEN|result".into()));
            };
            let result: f64 = match result.trim() {
                "1" => 1.0,
                "0.5" => 0.5,
                "0" => 0.0,
                r => return Err(err(format!("result '{r}' is not 1, 0.5 or 0"))),
            };
            let gi = match index.get(variant) {
                Some(&i) => i,
                None => {
                    let start = setup(variant, None, &[], &[], Width::Auto).map_err(err)?;
                    groups.push(match start {
                        Any::Small(p) => Any::Small(Group {
                            variant: p.v.clone(),
                            positions: Vec::new(),
                            results: Vec::new(),
                        }),
                        Any::Large(p) => Any::Large(Group {
                            variant: p.v.clone(),
                            positions: Vec::new(),
                            results: Vec::new(),
                        }),
                    });
                    index.insert(variant.to_string(), groups.len() - 1);
                    groups.len() - 1
                }
            };
            match &mut groups[gi] {
                Any::Small(g) => push(g, fen, result),
                Any::Large(g) => push(g, fen, result),
            }
            .map_err(err)?;
            len += 1;
        }
        if len == 0 {
            return Err("no positions".into());
        }
        Ok(Data { groups, len })
    }

    /// The letters of the pieces (not Pawns or Kings) in the data, sorted.
    pub fn piece_letters(&self) -> Vec<char> {
        let mut letters = Vec::new();
        for g in &self.groups {
            crate::with_position!(g, g => {
                for info in &g.variant.pieces {
                    if info.role == Role::Piece && !letters.contains(&info.letter) {
                        letters.push(info.letter);
                    }
                }
            });
        }
        letters.sort_unstable();
        letters
    }

    /// The (middlegame, endgame) value of a piece letter in the data's
    /// variants (the first found).
    pub fn piece_value(&self, letter: char) -> Option<[i32; 2]> {
        for g in &self.groups {
            let t = crate::with_position!(g, g => {
                g.variant
                    .pieces
                    .iter()
                    .position(|i| i.letter == letter)
                    .map(|ty| EvalTables::new(&g.variant, &Params::default()).value[ty])
            });
            if t.is_some() {
                return t;
            }
        }
        None
    }

    /// Mean squared error of the results against the sigmoid of the
    /// static evaluation, with the weights `p` and piece values `values`
    /// (letter to middlegame and endgame centipawns, overriding the
    /// variant's).
    pub fn error(&self, p: &Params, values: &Values, k: f64) -> f64 {
        let sum: f64 = self
            .groups
            .iter()
            .map(|g| crate::with_position!(g, g => group_error(g, p, values, k)))
            .sum();
        sum / self.len as f64
    }
}

fn group_error<B: BoardWidth>(g: &Group<B>, p: &Params, values: &Values, k: f64) -> f64 {
    let mut t = EvalTables::new(&g.variant, p);
    for (ty, info) in g.variant.pieces.iter().enumerate() {
        if info.role == Role::Piece
            && let Some(&v) = values.get(&info.letter)
        {
            t.value[ty] = v;
        }
    }
    g.positions
        .par_iter()
        .zip(g.results.par_iter())
        .map(|(pos, &r)| {
            let e = evaluate(pos, &t, p) as f64;
            let white = if pos.side() == WHITE { e } else { -e };
            let s = 1.0 / (1.0 + 10f64.powf(-k * white / 400.0));
            (r - s) * (r - s)
        })
        .sum()
}

/// The scale K of the sigmoid that fits the data best with the given
/// weights (golden-section search on [0.1, 4]).
pub fn fit_k(data: &Data, p: &Params, values: &Values) -> f64 {
    let (mut a, mut b) = (0.1f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (data.error(p, values, c), data.error(p, values, d));
    while b - a > 0.005 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = data.error(p, values, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = data.error(p, values, d);
        }
    }
    (a + b) / 2.0
}

/// Piece values by letter: (middlegame, endgame).
pub type Values = HashMap<char, [i32; 2]>;

/// What is fitted: a weight of `Params`, a piece's value (middlegame and
/// endgame moved together) or its endgame value alone.
#[derive(Clone, Debug, PartialEq)]
pub enum Knob {
    Weight(String),
    Piece(char),
    PieceEg(char),
}

/// The result of a fit.
pub struct Fit {
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
    pub params: Params,
    pub values: Values,
}

/// Local search (Texel's method, with steps that halve when a knob stops
/// gaining): each pass tries every knob one step up and down and keeps
/// what lowers the error; stops after `passes` passes or when no knob at
/// step 1 gains. `progress` gets each pass's error.
pub fn tune(
    data: &Data,
    knobs: &[Knob],
    passes: usize,
    k: Option<f64>,
    progress: &dyn Fn(usize, f64),
) -> Result<Fit, String> {
    let mut p = Params::default();
    let mut values = Values::new();
    let mut steps = Vec::new();
    let mut ranges = Vec::new();
    for knob in knobs {
        match knob {
            Knob::Weight(name) => {
                let &(_, def, lo, hi) = Params::LIST
                    .iter()
                    .find(|(n, ..)| n.eq_ignore_ascii_case(name))
                    .ok_or_else(|| format!("unknown parameter '{name}'"))?;
                steps.push((def.abs() / 5).max(1));
                ranges.push((lo, hi));
            }
            Knob::Piece(letter) | Knob::PieceEg(letter) => {
                let v = data
                    .piece_value(*letter)
                    .ok_or_else(|| format!("no piece '{letter}' in the data"))?;
                values.insert(*letter, v);
                steps.push(20);
                // within half and twice the variant's value
                ranges.push(((v[0] / 2).max(50), v[0] * 2));
            }
        }
    }
    let get = |p: &Params, values: &Values, knob: &Knob| match knob {
        Knob::Weight(n) => p.get(n).unwrap_or(0),
        Knob::Piece(l) => values[l][0],
        Knob::PieceEg(l) => values[l][1],
    };
    let k = k.unwrap_or_else(|| fit_k(data, &p, &values));
    let error_before = data.error(&p, &values, k);
    let mut best = error_before;
    for pass in 0..passes {
        let mut gained = false;
        for (i, knob) in knobs.iter().enumerate() {
            let cur = get(&p, &values, knob);
            let mut improved = false;
            for dir in [1, -1] {
                let v = (cur + dir * steps[i]).clamp(ranges[i].0, ranges[i].1);
                if v == cur {
                    continue;
                }
                let (mut p2, mut values2) = (p.clone(), values.clone());
                match knob {
                    Knob::Weight(n) => p2.set(n, v)?,
                    Knob::Piece(l) => {
                        let e = values2.get_mut(l).expect("a fitted piece");
                        e[1] += v - e[0];
                        e[0] = v;
                    }
                    Knob::PieceEg(l) => {
                        values2.get_mut(l).expect("a fitted piece")[1] = v;
                    }
                }
                let e = data.error(&p2, &values2, k);
                if e < best {
                    best = e;
                    p = p2;
                    values = values2;
                    improved = true;
                    break;
                }
            }
            if improved {
                gained = true;
            } else if steps[i] > 1 {
                steps[i] /= 2;
                gained = true;
            }
        }
        progress(pass + 1, best);
        if !gained {
            break;
        }
    }
    Ok(Fit {
        k,
        error_before,
        error_after: best,
        params: p,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// White a Queen up wins every game: a Queen worth more fits better,
    /// and the fit raises its value.
    #[test]
    fn the_fit_moves_a_value_towards_the_results() {
        let fen = "4k3/8/8/8/8/8/8/3QK3";
        let mut text = String::new();
        for side in ["w", "b"] {
            text.push_str(&format!("chess|{fen} {side} - - 0 1|1\n"));
        }
        let data = Data::read(&text).unwrap();
        assert_eq!(data.len, 2);
        let mut values = Values::new();
        values.insert('Q', [100, 100]);
        let low = data.error(&Params::default(), &values, 1.0);
        values.insert('Q', [900, 900]);
        let high = data.error(&Params::default(), &values, 1.0);
        assert!(high < low, "{high} should be below {low}");
        let [mg, eg] = data.piece_value('Q').unwrap();
        let fit = tune(&data, &[Knob::Piece('Q')], 5, Some(1.0), &|_, _| {}).unwrap();
        assert!(fit.values[&'Q'][0] > mg);
        assert_eq!(fit.values[&'Q'][1] - fit.values[&'Q'][0], eg - mg);
        // in a position with only Kings and a Queen the endgame value counts
        let fit = tune(&data, &[Knob::PieceEg('Q')], 5, Some(1.0), &|_, _| {}).unwrap();
        assert!(fit.values[&'Q'][1] > eg);
        assert_eq!(fit.values[&'Q'][0], mg);
        assert!(fit.error_after < fit.error_before);
    }

    #[test]
    fn bad_lines_are_errors_naming_the_line() {
        assert!(
            Data::read("chess|8/8 w|1\n")
                .map(|_| ())
                .unwrap_err()
                .contains("line 1")
        );
        assert!(
            Data::read("chess|4k3/8/8/8/8/8/8/4K3 w - - 0 1|2\n")
                .map(|_| ())
                .unwrap_err()
                .contains("line 1")
        );
        assert!(Data::read("nochess|x|1\n").is_err());
        assert!(Data::read("").is_err());
    }
}
