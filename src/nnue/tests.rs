//! The network's invariants: accumulators kept by make and unmake equal
//! fresh ones in every two-player family, and the quantized network
//! agrees with the trainer's float network (four players: `tests4`).

use std::sync::Arc;

use crate::bitboard::Bitboard;
use crate::fourplayer::{Mode, Variant4};
use crate::nnue::data::{GameRecord, Sample};
use crate::nnue::features::{FeatureMap, kind_key};
use crate::nnue::net::HIDDEN;
use crate::nnue::net::tests::random_net;
use crate::nnue::{Evaluator, Nnue, net::Network, train};
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::variant::{Variant, VariantSpec};

fn variant<B: Bitboard>(name: &str) -> Arc<Variant<B>> {
    Arc::new(Variant::new(VariantSpec::by_name(name, &[]).unwrap()).unwrap())
}

fn evaluator<B: Bitboard>(v: &Variant<B>, seed: u64) -> Evaluator {
    let kinds: Vec<String> = v.spec.pieces.iter().map(kind_key).collect();
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    let net = Arc::new(wide_if_odd(random_net(&kinds, v.n, seed), seed));
    let map = Arc::new(FeatureMap::new(&v.spec.pieces, &v.shape, &net).unwrap());
    let ev = Evaluator::new(net, map);
    assert_eq!(ev.narrow(), seed.is_multiple_of(2), "weights kept as bytes");
    ev
}

/// A network whose feature weights (within +-60) no longer all fit a
/// byte when `seed` is odd, so that the tests run both ways of keeping
/// them.
pub(super) fn wide_if_odd(mut net: Network, seed: u64) -> Network {
    if !seed.is_multiple_of(2) {
        for w in net.ft_w.iter_mut() {
            *w *= 3;
        }
    }
    net
}

fn fresh<B: Bitboard>(p: &Position<B>, ev: &Evaluator) -> Nnue {
    let pieces = (0..p.v.n).filter_map(|sq| p.piece_at(sq).map(|(c, t)| (c, t, sq)));
    Nnue::fresh(ev.clone(), pieces)
}

/// Random games: after every make and every unmake the position's
/// accumulators equal fresh ones (and so does the evaluation), whether
/// they were computed when the move was made (`settle_nnue`, as before a
/// search's evaluation) or are computed from the frames below on asking;
/// every 50 moves the game's stack is cleared (as after a game move).
fn random_games<B: Bitboard>(name: &str, games: usize, seed: u64) {
    let v = variant::<B>(name);
    let ev = evaluator(&v, seed);
    let mut rng = SplitMix64(seed);
    for _ in 0..games {
        let mut p = Position::startpos(v.clone());
        p.attach_nnue(Some(ev.clone()));
        let mut base = fresh(&p, &ev);
        let mut made = 0;
        for ply in 0..120 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply % 50 == 49 {
                p.clear_stack();
                base = fresh(&p, &ev);
                made = 0;
            }
            p.make(moves[rng.index(moves.len())]);
            made += 1;
            if rng.index(2) == 0 {
                p.settle_nnue();
            }
            let f = fresh(&p, &ev);
            let n = p.nnue().unwrap();
            assert_eq!(n.accumulators(), f.accumulators(), "{name} after a move");
            assert_eq!(n.evaluate(p.side()), f.evaluate(p.side()));
            // now and then a move taken back and played again
            if rng.index(4) == 0 {
                p.unmake();
                assert_eq!(
                    p.nnue().unwrap().accumulators(),
                    fresh(&p, &ev).accumulators()
                );
                let moves = p.legal_moves();
                p.make(moves[rng.index(moves.len())]);
            }
        }
        for _ in 0..made {
            p.unmake();
        }
        assert_eq!(
            p.nnue().unwrap().accumulators(),
            base.accumulators(),
            "{name} unwound"
        );
    }
}

#[test]
fn incremental_accumulators_equal_fresh_ones_in_chess_and_every_cwda_army() {
    random_games::<u64>("chess", 4, 1);
    let armies = crate::variant::armies::builtin();
    for (i, w) in armies.iter().enumerate() {
        let b = &armies[(i + 3) % armies.len()];
        random_games::<u64>(&format!("cwda-{}-{}", w.token, b.token), 2, 10 + i as u64);
    }
}

#[test]
fn incremental_accumulators_equal_fresh_ones_in_omega() {
    random_games::<u128>("omega", 4, 2);
}

#[test]
fn a_network_refuses_a_variant_with_a_piece_it_does_not_know() {
    let v = variant::<u64>("cwda-nutty-rookies");
    let net = random_net(&["king:K", "pawn:fmWfcF"], 64, 3);
    let e = FeatureMap::new(&v.spec.pieces, &v.shape, &net).unwrap_err();
    assert!(e.contains("Charging Rook"), "{e}");
    let omega = variant::<u128>("omega");
    let kinds: Vec<String> = v.spec.pieces.iter().map(kind_key).collect();
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    let e =
        FeatureMap::new(&omega.spec.pieces, &omega.shape, &random_net(&kinds, 64, 4)).unwrap_err();
    assert!(e.contains("squares"), "{e}");
}

/// The samples of a random game, scores made up: `play` makes a random
/// move and gives the side to move and the pieces `(square, owner,
/// type)`, or nothing at the game's end.
pub(super) fn random_samples(
    plies: u16,
    rng: &mut SplitMix64,
    mut play: impl FnMut(&mut SplitMix64) -> Option<(usize, Vec<(u8, u8, u8)>)>,
) -> Vec<Sample> {
    let mut samples = Vec::new();
    for ply in 0..plies {
        let Some((side, pieces)) = play(rng) else {
            break;
        };
        samples.push(Sample {
            side: side as u8,
            score: (rng.index(801) as i16) - 400,
            ply,
            pieces,
            points: None,
        });
    }
    samples
}

/// Positions of random games with made-up scores and results.
fn synthetic_games(name: &str, games: usize, seed: u64) -> Vec<GameRecord> {
    let v = variant::<u64>(name);
    let mut rng = SplitMix64(seed);
    (0..games)
        .map(|g| {
            let mut p = Position::startpos(v.clone());
            let samples = random_samples(60, &mut rng, |rng| {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    return None;
                }
                p.make(moves[rng.index(moves.len())]);
                let pieces = (0..v.n)
                    .filter_map(|sq| p.piece_at(sq).map(|(c, t)| (sq as u8, c as u8, t as u8)))
                    .collect();
                Some((p.side(), pieces))
            });
            GameRecord {
                game: g as u32,
                variant: name.into(),
                result: rng.index(3) as u8,
                samples,
            }
        })
        .collect()
}

#[test]
fn the_quantized_network_agrees_with_the_trainers_float_network() {
    for screlu in [false, true] {
        quantized_agrees(screlu);
    }
}

/// A short training of a residual network on synthetic games.
pub(super) fn test_config(screlu: bool) -> train::Config {
    train::Config {
        epochs: 3,
        batch: 256,
        lr: 0.01,
        lambda: 0.5,
        wdl_scale: 200.0,
        validation: 0.2,
        seed: 9,
        families: "test".into(),
        residual: true,
        weight_decay: 0.0,
        screlu,
        init: None,
    }
}

/// The games a training held out for validation.
pub(super) fn held_out(games: &[GameRecord], t: &train::Trained) -> Vec<GameRecord> {
    games
        .iter()
        .filter(|g| t.validation_games.contains(&g.game))
        .cloned()
        .collect()
}

fn quantized_agrees(screlu: bool) {
    let games = synthetic_games("cwda-fide-clobberers", 40, 5);
    let t = train::train(&games, &test_config(screlu), &|_| {}).unwrap();
    let held = held_out(&games, &t);
    let check = train::check_lines(&held, &t.float, &train::Inputs::of(&t.net), 100).unwrap();
    // the files as the trainer writes them, read back
    let dir = std::env::temp_dir().join(format!("chimera-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.nnue"), t.net.to_bytes()).unwrap();
    std::fs::write(dir.join("t.check"), &check).unwrap();
    let net = Network::from_bytes(&std::fs::read(dir.join("t.nnue")).unwrap()).unwrap();
    assert_eq!(net.screlu, screlu);
    let check = std::fs::read_to_string(dir.join("t.check")).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let (worst, mean, bias) = agreement(&net, &check);
    assert!(
        worst <= WORST_CP && mean <= MEAN_CP,
        "differences (SCReLU {screlu}): worst {worst} cp, mean {mean} cp"
    );
    // the offset every position shares is taken out by the output bias
    // (measured on the training positions; these are held out)
    assert!(
        bias.abs() <= BIAS_CP,
        "quantized minus float (SCReLU {screlu}): {bias:+.2} cp on average"
    );
}

#[test]
fn training_from_a_network_starts_from_its_weights() {
    let games = synthetic_games("cwda-fide-clobberers", 40, 5);
    let first = train::train(&games, &test_config(false), &|_| {})
        .unwrap()
        .net;
    // no epoch: the starting network comes back, every integer the same
    let again = |init: Network, screlu: bool| {
        let cfg = train::Config {
            epochs: 0,
            init: Some(init),
            // other random weights than the first training's
            seed: 10,
            ..test_config(screlu)
        };
        train::train(&games, &cfg, &|_| {}).map(|t| (t.net, t.best_epoch))
    };
    let (net, kept) = again(first.clone(), false).unwrap();
    assert_eq!(kept, 0);
    assert_eq!(net, first);
    // a kind the starting network lacks starts afresh; the others keep
    // their weights, found by name whatever their order
    let rows = first.squares * 2 * HIDDEN;
    let mut fewer = first.clone();
    let dropped = fewer.kinds.remove(0);
    fewer.ft_w.drain(..rows);
    fewer.kinds.reverse();
    let chunks: Vec<Vec<i16>> = fewer.ft_w.chunks(rows).map(<[i16]>::to_vec).collect();
    fewer.ft_w = chunks.into_iter().rev().flatten().collect();
    let (net, _) = again(fewer, false).unwrap();
    assert_eq!(net.kinds[0], dropped);
    assert_eq!(net.ft_w[rows..], first.ft_w[rows..]);
    assert_ne!(net.ft_w[..rows], first.ft_w[..rows]);
    // a network of other flags is refused
    let e = again(first.clone(), true).unwrap_err();
    assert!(e.contains("--screlu"), "{e}");
    // and so is training nothing from nothing
    let cfg = train::Config {
        epochs: 0,
        ..test_config(false)
    };
    assert!(train::train(&games, &cfg, &|_| {}).is_err());
}

/// The trainer's check file of the last network trained (`CHIMERA_CHECK`
/// = `net,check`) agrees with its quantized network.
#[test]
fn a_trained_networks_check_file_agrees() {
    let Ok(files) = std::env::var("CHIMERA_CHECK") else {
        return;
    };
    let (net, check) = files.split_once(',').unwrap();
    let net = Network::from_bytes(&std::fs::read(net).unwrap()).unwrap();
    let (worst, mean, bias) = agreement(&net, &std::fs::read_to_string(check).unwrap());
    eprintln!("worst {worst:.2} cp, mean {mean:.2} cp, mean signed difference {bias:+.2} cp");
    assert!(worst <= WORST_CP && mean <= MEAN_CP && bias.abs() <= BIAS_CP);
}

/// Every network built into the binary agrees with the float outputs its
/// trainer wrote beside it (`nets/NAME.check`).
#[test]
fn the_built_in_networks_agree_with_their_check_files() {
    let nets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
    let names = crate::nnue::choice::embedded_names();
    assert!(!names.is_empty());
    for name in names {
        let net = Network::from_bytes(&std::fs::read(nets.join(format!("{name}.nnue"))).unwrap())
            .unwrap();
        let check = std::fs::read_to_string(nets.join(format!("{name}.check"))).unwrap();
        let (worst, mean, bias) = agreement(&net, &check);
        assert!(
            worst <= WORST_CP && mean <= MEAN_CP && bias.abs() <= BIAS_CP,
            "{name}: worst {worst:.2} cp, mean {mean:.2}, signed {bias:+.2}"
        );
    }
}

/// The largest and the mean difference, in centipawns, between the
/// quantized network and the float outputs of a check file (and the mean
/// of quantized minus float: a bias); every line is a position.
pub fn agreement(net: &Network, check: &str) -> (f64, f64, f64) {
    let net = Arc::new(net.clone());
    let mut maps = std::collections::HashMap::new();
    let mut worst = 0f64;
    let mut sum = 0f64;
    let mut signed = 0f64;
    let mut lines = 0;
    for line in check.lines() {
        let f: Vec<&str> = line.split('|').collect();
        assert_eq!(f.len(), 4, "{line}");
        let map = maps
            .entry(f[0].to_string())
            .or_insert_with(|| Arc::new(feature_map(f[0], &net)))
            .clone();
        let pieces = f[2].split(' ').map(|p| {
            let v: Vec<usize> = p.split(':').map(|x| x.parse().unwrap()).collect();
            (v[1], v[2], v[0])
        });
        let n = Nnue::fresh(Evaluator::new(net.clone(), map), pieces);
        let q = n.evaluate(f[1].parse().unwrap()) as f64;
        let float: f64 = f[3].parse().unwrap();
        worst = worst.max((q - float).abs());
        sum += (q - float).abs();
        signed += q - float;
        lines += 1;
    }
    assert!(lines > 0, "no positions in the check file");
    (worst, sum / lines as f64, signed / lines as f64)
}

/// The feature map of a variant, by name, for a network.
fn feature_map(name: &str, net: &Network) -> FeatureMap {
    match Mode::from_name(name) {
        Some(mode) => FeatureMap::four_player(&Variant4::new(mode), net).unwrap(),
        None => {
            let spec = VariantSpec::by_name(name, &[]).unwrap();
            FeatureMap::new(&spec.pieces, &spec.shape, net).unwrap()
        }
    }
}

/// How far the quantized output may be from the float one (rounding the
/// weights to 1/255 and 1/64 and the output to whole centipawns): at most
/// this on any position ...
pub const WORST_CP: f64 = 20.0;
/// ... and this on average.
pub const MEAN_CP: f64 = 6.0;
/// The mean of the signed differences: rounding the weights every
/// position shares leaves an offset that the trainer corrects.
pub const BIAS_CP: f64 = 2.0;

#[test]
fn a_residual_networks_bounded_evaluation_stops_early_only_outside_the_window() {
    use crate::eval::EvalTables;
    use crate::nnue::net::{QA, QB, SCALE};
    use crate::params::Params;
    use crate::search::tree::SearchPosition;
    let v = variant::<u64>("cwda-fide-nutty");
    let kinds: Vec<String> = v.spec.pieces.iter().map(kind_key).collect();
    let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
    // a correction of +800 centipawns whatever the position
    let mut net = random_net(&kinds, v.n, 2);
    net.residual = true;
    net.ft_w.iter_mut().for_each(|w| *w = 0);
    net.out_w.iter_mut().for_each(|w| *w = 0);
    net.out_b = 800 * QA * QB / SCALE;
    let net = Arc::new(net);
    let map = Arc::new(FeatureMap::new(&v.spec.pieces, &v.shape, &net).unwrap());
    let (p, t) = (Params::default(), EvalTables::new(&v, &Params::default()));
    let mut pos = Position::startpos(v.clone());
    pos.attach_nnue(Some(Evaluator::new(net, map)));
    let full = pos.evaluate(&t, &p);
    // a window around the whole evaluation: the classical part must not
    // stop early against a window it would leave after the correction
    let (e, complete) = pos.evaluate_bounded(&t, &p, full - 10, full + 10);
    assert!(
        complete,
        "stopped early at {e} inside the window around {full}"
    );
    assert_eq!(e, full);
    // far outside the window it may stop early, on the right side
    let (e, complete) = pos.evaluate_bounded(&t, &p, full + 2000, full + 2010);
    assert!(!complete && e < full + 2000, "{e} {complete}");
}
