//! The classical evaluation of training positions (what a residual
//! network corrects), with the engine's default weights.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::eval::{EvalTables, evaluate};
use crate::fourplayer::eval::{Eval4, evaluate_teams, ffa_utility};
use crate::fourplayer::{Mode, Position4, Variant4};
use crate::nnue::data::{GameRecord, Sample};
use crate::params::Params;
use crate::position::Position;
use crate::setup::BoardWidth;
use crate::variant::{Variant, VariantSpec};

type Tables<B> = HashMap<String, (Arc<Variant<B>>, Arc<EvalTables<B>>)>;

fn tables<B: BoardWidth>(games: &[&GameRecord]) -> Result<Tables<B>, String> {
    let mut out = HashMap::new();
    for g in games {
        if out.contains_key(&g.variant) || Mode::from_name(&g.variant).is_some() {
            continue;
        }
        let spec = VariantSpec::by_name(&g.variant, &[])?;
        if !spec.shape.fits::<B>() {
            continue;
        }
        let v = Arc::new(Variant::<B>::new(spec)?);
        let t = Arc::new(EvalTables::new(&v, &Params::default()));
        out.insert(g.variant.clone(), (v, t));
    }
    Ok(out)
}

fn of_game<B: BoardWidth>(g: &GameRecord, v: &Arc<Variant<B>>, t: &EvalTables<B>) -> Vec<i32> {
    let p = Params::default();
    g.samples
        .iter()
        .map(|s| {
            let pos = Position::from_pieces(v.clone(), s.side as usize, &owned_pieces(s));
            evaluate(&pos, t, &p)
        })
        .collect()
}

/// A sample's pieces as (owner, type, square).
fn owned_pieces(s: &Sample) -> Vec<(usize, usize, usize)> {
    s.pieces
        .iter()
        .map(|&(sq, o, ty)| (o as usize, ty as usize, sq as usize))
        .collect()
}

/// Four-player: the evaluation the search gives each position at its
/// root (Teams: the side to move's team's; Free-For-All: the side to
/// move's utility, its points included, and the tempo bonus).
fn of_four_player_game(g: &GameRecord, v: &Arc<Variant4>) -> Result<Vec<i32>, String> {
    let p = Params::default();
    let mut t = None;
    g.samples
        .iter()
        .map(|s| {
            let points = match (v.mode, s.points) {
                (Mode::Teams, _) => [0; 4],
                (Mode::Ffa, Some(pts)) => pts.map(i32::from),
                (Mode::Ffa, None) => {
                    return Err(format!(
                        "{}: game {} has positions without the players' points",
                        g.variant, g.game
                    ));
                }
            };
            let side = s.side as usize;
            let pos = Position4::from_pieces(v.clone(), side, &owned_pieces(s), points);
            let t = t.get_or_insert_with(|| Eval4::new(&pos));
            Ok(match v.mode {
                Mode::Teams => evaluate_teams(&pos, t, &p),
                Mode::Ffa => ffa_utility(&pos, t, &p, side) + p.tempo,
            })
        })
        .collect()
}

/// The classical evaluation (centipawns, side to move's view) of every
/// position of `games`, in order.
pub fn evaluations(games: &[&GameRecord]) -> Result<Vec<i32>, String> {
    let small = tables::<u64>(games)?;
    let large = tables::<u128>(games)?;
    let four = [Mode::Teams, Mode::Ffa].map(|m| Arc::new(Variant4::new(m)));
    let per_game: Vec<Vec<i32>> = games
        .par_iter()
        .map(|g| {
            if let Some(mode) = Mode::from_name(&g.variant) {
                return of_four_player_game(g, &four[mode as usize]);
            }
            match (small.get(&g.variant), large.get(&g.variant)) {
                (Some((v, t)), _) => Ok(of_game(g, v, t)),
                (None, Some((v, t))) => Ok(of_game(g, v, t)),
                _ => Err(format!("{}: no board width fits", g.variant)),
            }
        })
        .collect::<Result<_, String>>()?;
    Ok(per_game.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourplayer::Layout;
    use crate::fourplayer::search::{Objective, Search4};
    use crate::nnue::NetChoice;
    use crate::rng::SplitMix64;
    use crate::search::tree::SearchPosition;

    /// A residual Free-For-All network corrects what the search evaluates:
    /// the trainer's classical evaluation of a sample (its pieces, side to
    /// move and points) is the search's static evaluation at the root of
    /// the position the sample was taken from.
    #[test]
    fn free_for_all_samples_are_evaluated_as_the_search_evaluates_them() {
        let v = Arc::new(Variant4::new(Mode::Ffa));
        let p = Params::default();
        let classical = NetChoice {
            use_nnue: false,
            file: None,
        };
        let mut rng = SplitMix64(5);
        let mut samples = Vec::new();
        let mut expected = Vec::new();
        for _ in 0..6 {
            let mut pos = Position4::startpos(v.clone(), Layout::Modern);
            for ply in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.index(moves.len())]);
                if ply % 5 != 0 {
                    continue;
                }
                let s = Search4::new(pos.clone(), Objective::Paranoid);
                let t = s.build_tables(&p, &classical);
                expected.push(s.evaluate(&t, &p));
                samples.push(Sample {
                    side: pos.side() as u8,
                    score: 0,
                    ply: ply as u16,
                    pieces: (0..v.n)
                        .filter_map(|sq| {
                            pos.piece_at(sq).map(|(o, t)| (sq as u8, o as u8, t as u8))
                        })
                        .collect(),
                    points: Some(pos.points().map(|x| x as i16)),
                });
            }
        }
        assert!(
            samples.iter().any(|s| s
                .points
                .is_some_and(|p| p.iter().filter(|&&x| x > 0).count() >= 2)),
            "too few points scored: the test lost its point"
        );
        let g = GameRecord {
            game: 1,
            variant: "fourplayer-ffa".into(),
            result: 0,
            samples,
        };
        assert_eq!(evaluations(&[&g]).unwrap(), expected);
        // without its points a Free-For-All position cannot be evaluated
        let mut old = g.clone();
        old.samples[0].points = None;
        assert!(evaluations(&[&old]).unwrap_err().contains("points"));
    }
}
