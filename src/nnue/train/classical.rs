//! The classical evaluation of training positions (what a residual
//! network corrects), with the engine's default weights.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::eval::{EvalTables, evaluate};
use crate::fourplayer::eval::{Eval4, evaluate_teams};
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

/// Four-player Teams: the Teams evaluation of each position.
fn of_teams_game(g: &GameRecord, v: &Arc<Variant4>) -> Vec<i32> {
    let p = Params::default();
    let mut t = None;
    g.samples
        .iter()
        .map(|s| {
            let pos = Position4::from_pieces(v.clone(), s.side as usize, &owned_pieces(s));
            let t = t.get_or_insert_with(|| Eval4::new(&pos));
            evaluate_teams(&pos, t, &p)
        })
        .collect()
}

/// The classical evaluation (centipawns, side to move's view) of every
/// position of `games`, in order.
pub fn evaluations(games: &[&GameRecord]) -> Result<Vec<i32>, String> {
    let small = tables::<u64>(games)?;
    let large = tables::<u128>(games)?;
    let teams = Arc::new(Variant4::new(Mode::Teams));
    let per_game: Vec<Vec<i32>> = games
        .par_iter()
        .map(|g| match (small.get(&g.variant), large.get(&g.variant)) {
            _ if Mode::from_name(&g.variant) == Some(Mode::Teams) => Ok(of_teams_game(g, &teams)),
            (Some((v, t)), _) => Ok(of_game(g, v, t)),
            (None, Some((v, t))) => Ok(of_game(g, v, t)),
            _ => Err(format!("{}: no board width fits", g.variant)),
        })
        .collect::<Result<_, String>>()?;
    Ok(per_game.into_iter().flatten().collect())
}
