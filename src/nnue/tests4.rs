//! The four-player network's invariants: a perspective per seat, kept by
//! make, unmake, eliminations and resignations equal to fresh ones; the
//! symmetric start seen alike from every seat; a Teams network trained
//! and quantized agrees with the trainer's float network, and so does a
//! Free-For-All one, which takes Free-For-All only; networks and data of
//! the other family or mode are refused; the built-in networks take the
//! games they were adopted for and no other.

use std::sync::Arc;

use crate::fourplayer::{Layout, Mode, Position4, Variant4};
use crate::nnue::data::{GameRecord, four_player_result};
use crate::nnue::features::{FeatureMap, four_player_kinds};
use crate::nnue::net::Network;
use crate::nnue::net::tests::{random_net, random_net_of};
use crate::nnue::tests::{
    BIAS_CP, MEAN_CP, WORST_CP, agreement, held_out, random_samples, test_config, wide_if_odd,
};
use crate::nnue::{Evaluator, NetChoice, Nnue, train};
use crate::rng::SplitMix64;

fn evaluator4(v: &Variant4, seed: u64) -> Evaluator {
    let kinds = four_player_kinds();
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    let net = Arc::new(wide_if_odd(random_net_of(&kinds, v.n, 5, seed), seed));
    let map = Arc::new(FeatureMap::four_player(v, &net).unwrap());
    let ev = Evaluator::new(net, map);
    assert_eq!(ev.narrow(), seed.is_multiple_of(2), "weights kept as bytes");
    ev
}

fn fresh(p: &Position4, ev: &Evaluator) -> Nnue {
    let pieces = (0..p.v.n).filter_map(|sq| p.piece_at(sq).map(|(o, t)| (o, t, sq)));
    Nnue::fresh(ev.clone(), pieces)
}

fn live_players(p: &Position4) -> usize {
    (0..4).filter(|&s| !p.is_eliminated(s)).count()
}

/// Random games: after every change (a move, its unmaking, and in
/// Free-For-All a player eliminated or resigning, its pieces turning
/// dead) the accumulators equal fresh ones, and so does the evaluation.
fn random_games(mode: Mode, layout: Layout, games: usize, seed: u64) {
    let v = Arc::new(Variant4::new(mode));
    let ev = evaluator4(&v, seed);
    let mut rng = SplitMix64(seed);
    let mut turned_dead = 0;
    for _ in 0..games {
        let mut p = Position4::startpos(v.clone(), layout);
        p.attach_nnue(Some(ev.clone()));
        let mut changes = 0;
        for _ in 0..160 {
            let moves = p.legal_moves();
            let ffa = mode == Mode::Ffa && live_players(&p) > 2;
            if ffa && (moves.is_empty() || rng.index(25) == 0) {
                if rng.index(2) == 0 && !p.has_resigned(p.side()) {
                    p.resign_keep_king();
                } else {
                    p.eliminate(None, 0);
                }
                turned_dead += 1;
            } else if moves.is_empty() {
                break;
            } else {
                p.make(moves[rng.index(moves.len())]);
            }
            changes += 1;
            if rng.index(2) == 0 {
                p.settle_nnue();
            }
            let f = fresh(&p, &ev);
            let n = p.nnue().unwrap();
            assert_eq!(
                n.accumulators(),
                f.accumulators(),
                "{mode:?} after a change"
            );
            assert_eq!(n.accumulators().len(), 4);
            assert_eq!(n.evaluate(p.side()), f.evaluate(p.side()));
            if rng.index(4) == 0 {
                p.unmake();
                assert_eq!(
                    p.nnue().unwrap().accumulators(),
                    fresh(&p, &ev).accumulators(),
                    "{mode:?} after an unmake"
                );
                changes -= 1;
            }
        }
        for _ in 0..changes {
            p.unmake();
        }
        let start = fresh(&Position4::startpos(v.clone(), layout), &ev);
        assert_eq!(p.nnue().unwrap().accumulators(), start.accumulators());
    }
    if mode == Mode::Ffa {
        assert!(
            turned_dead > 0,
            "no pieces turned dead: the test lost its point"
        );
    }
}

#[test]
fn incremental_accumulators_equal_fresh_ones_in_four_player_games() {
    random_games(Mode::Teams, Layout::Modern, 3, 1);
    random_games(Mode::Teams, Layout::Classic, 2, 2);
    random_games(Mode::Ffa, Layout::Modern, 4, 3);
}

/// 4PC is the same under a quarter turn (RULES.md): every seat sees the
/// same board, so its four accumulators are equal; 4PCo's Kings break the
/// symmetry.
#[test]
fn every_seat_sees_the_symmetric_start_alike() {
    let v = Arc::new(Variant4::new(Mode::Teams));
    let ev = evaluator4(&v, 7);
    let acc = |layout| fresh(&Position4::startpos(v.clone(), layout), &ev);
    let modern = acc(Layout::Modern);
    let a = modern.accumulators();
    assert!(
        a.iter().all(|x| x == &a[0]),
        "4PC seen differently by the seats"
    );
    assert_eq!(modern.evaluate(0), modern.evaluate(3));
    let classic = acc(Layout::Classic);
    let a = classic.accumulators();
    assert!(
        a.iter().any(|x| x != &a[0]),
        "4PCo seen alike by every seat"
    );
}

/// Four-player games of random moves with made-up scores and results
/// (Free-For-All positions with their points).
fn synthetic_four_player_games(mode: Mode, games: usize, seed: u64) -> Vec<GameRecord> {
    let v = Arc::new(Variant4::new(mode));
    let mut rng = SplitMix64(seed);
    (0..games)
        .map(|g| {
            let mut p = Position4::startpos(v.clone(), Layout::Modern);
            let mut points = Vec::new();
            let mut samples = random_samples(80, &mut rng, |rng| {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    return None;
                }
                p.make(moves[rng.index(moves.len())]);
                let pieces = (0..v.n)
                    .filter_map(|sq| p.piece_at(sq).map(|(o, t)| (sq as u8, o as u8, t as u8)))
                    .collect();
                points.push(p.points().map(|x| x as i16));
                Some((p.side(), pieces))
            });
            let red = rng.index(3) as u8;
            let blue = 2 - red;
            let result = match mode {
                Mode::Teams => [red, blue, red, blue],
                Mode::Ffa => {
                    samples
                        .iter_mut()
                        .zip(points)
                        .for_each(|(s, pts)| s.points = Some(pts));
                    [red, blue, 0, 0]
                }
            };
            GameRecord {
                game: g as u32,
                variant: mode.name().into(),
                result: four_player_result(result),
                samples,
            }
        })
        .collect()
}

fn synthetic_teams_games(games: usize, seed: u64) -> Vec<GameRecord> {
    synthetic_four_player_games(Mode::Teams, games, seed)
}

/// The quantized network of a training, read back from its bytes, agrees
/// with the float network on the held-out games.
fn quantized_network_agrees(games: &[GameRecord], t: &train::Trained) -> Network {
    let held = held_out(games, t);
    let check = train::check_lines(&held, &t.float, &train::Inputs::of(&t.net), 100).unwrap();
    let net = Network::from_bytes(&t.net.to_bytes()).unwrap();
    let (worst, mean, bias) = agreement(&net, &check);
    assert!(
        worst <= WORST_CP && mean <= MEAN_CP && bias.abs() <= BIAS_CP,
        "worst {worst} cp, mean {mean} cp, signed {bias:+.2} cp"
    );
    net
}

#[test]
fn a_trained_teams_network_agrees_with_the_trainers_float_network() {
    let games = synthetic_teams_games(30, 4);
    let t = train::train(&games, &test_config(false), &|_| {}).unwrap();
    assert_eq!((t.net.relations, t.net.squares), (5, 160));
    assert_eq!(t.net.kinds, four_player_kinds());
    quantized_network_agrees(&games, &t);
}

/// A Free-For-All network: trained as a correction of the classical
/// evaluation (whose points the positions carry), named for Free-For-All,
/// it agrees with the trainer's float network and evaluates Free-For-All
/// and not Teams.
#[test]
fn a_trained_free_for_all_network_agrees_and_takes_free_for_all_only() {
    let games = synthetic_four_player_games(Mode::Ffa, 30, 14);
    assert!(
        games
            .iter()
            .flat_map(|g| &g.samples)
            .any(|s| s.points.is_some_and(|p| p.iter().any(|&x| x > 0))),
        "no points scored: the test lost its point"
    );
    let t = train::train(&games, &test_config(false), &|_| {}).unwrap();
    assert_eq!(t.net.families, "fourplayer-ffa,test");
    assert!(t.net.residual);
    let net = quantized_network_agrees(&games, &t);
    let choice = NetChoice {
        use_nnue: true,
        file: Some(("ffa.nnue".into(), Arc::new(net))),
    };
    assert!(choice.evaluator4(&Variant4::new(Mode::Ffa)).is_some());
    let teams = choice.verdict4(&Variant4::new(Mode::Teams));
    assert!(
        teams.ev.is_none() && teams.fell_back && teams.line.contains("Free-For-All"),
        "{}",
        teams.line
    );
}

#[test]
fn networks_and_data_of_the_other_family_are_refused() {
    // Free-For-All data without the players' points (files before
    // version 3), or trained to replace the classical evaluation
    let mut ffa = synthetic_teams_games(2, 5);
    ffa.iter_mut()
        .for_each(|g| g.variant = "fourplayer-ffa".into());
    let e = train::train(&ffa, &test_config(false), &|_| {})
        .err()
        .expect("Free-For-All data without points trains nothing");
    assert!(e.contains("points"), "{e}");
    let ffa = synthetic_four_player_games(Mode::Ffa, 2, 5);
    let mut replacement = test_config(false);
    replacement.residual = false;
    let e = train::train(&ffa, &replacement, &|_| {})
        .err()
        .expect("a Free-For-All replacement network is refused");
    assert!(e.contains("--residual"), "{e}");
    // Teams and Free-For-All in one network
    let mut both = synthetic_teams_games(2, 6);
    both.extend(
        synthetic_four_player_games(Mode::Ffa, 1, 7)
            .into_iter()
            .map(|mut g| {
                g.game = 50;
                g
            }),
    );
    let e = train::train(&both, &test_config(false), &|_| {})
        .err()
        .expect("Teams and Free-For-All data train nothing together");
    assert!(e.contains("mixes"), "{e}");
    // two- and four-player games in one network
    let mut mixed = synthetic_teams_games(2, 6);
    mixed.push(GameRecord {
        game: 99,
        variant: "chess".into(),
        result: 1,
        samples: Vec::new(),
    });
    let e = train::train(&mixed, &test_config(false), &|_| {})
        .err()
        .expect("mixed data trains nothing");
    assert!(e.contains("mixes"), "{e}");
    // a two-player network of 160 squares does not fit four players, and
    // a four-player network no two-player game
    let teams = Variant4::new(Mode::Teams);
    let two = random_net(&["fourplayer:K"], 160, 1);
    let e = FeatureMap::four_player(&teams, &two).unwrap_err();
    assert!(e.contains("features"), "{e}");
    let four = evaluator4(&teams, 2).net;
    let spec = crate::variant::VariantSpec::by_name("chess", &[]).unwrap();
    assert!(FeatureMap::new(&spec.pieces, &spec.shape, &four).is_err());
    // a four-player network not named for Free-For-All evaluates Teams;
    // Free-For-All stays classical, and says why
    let choice = NetChoice {
        use_nnue: true,
        file: Some(("four.nnue".into(), four)),
    };
    assert!(choice.evaluator4(&teams).is_some());
    let v = choice.verdict4(&Variant4::new(Mode::Ffa));
    assert!(
        v.ev.is_none() && v.fell_back && v.line.contains("Free-For-All"),
        "{}",
        v.line
    );
    assert!(choice.evaluator(&spec.pieces, &spec.shape).is_none());
}

#[test]
fn the_built_in_networks_take_every_family() {
    let choice = NetChoice::default();
    let teams = choice.verdict4(&Variant4::new(Mode::Teams));
    assert!(
        teams.ev.is_some() && teams.line.contains("teams-b") && teams.line.contains("built in"),
        "{}",
        teams.line
    );
    let ffa = choice.verdict4(&Variant4::new(Mode::Ffa));
    assert!(
        ffa.ev.is_some() && ffa.line.contains("ffa-b") && ffa.line.contains("built in"),
        "{}",
        ffa.line
    );
    let omega = crate::variant::VariantSpec::by_name("omega", &[]).unwrap();
    let v = choice.verdict(&omega.pieces, &omega.shape);
    assert!(
        v.ev.is_some() && v.line.contains("omega-a") && v.line.contains("built in"),
        "{}",
        v.line
    );
    // chess and every pairing of the built-in armies: cwda-f5
    for name in [
        "chess",
        "cwda-fide-nutty",
        "cwda-nutty-rookies",
        "cwda-amazon-forward",
    ] {
        let spec = crate::variant::VariantSpec::by_name(name, &[]).unwrap();
        let v = choice.verdict(&spec.pieces, &spec.shape);
        assert!(
            v.ev.is_some() && v.line.contains("cwda-f5") && v.line.contains("built in"),
            "{name}: {}",
            v.line
        );
    }
    let off = NetChoice {
        use_nnue: false,
        file: None,
    };
    assert!(off.evaluator4(&Variant4::new(Mode::Teams)).is_none());
}
