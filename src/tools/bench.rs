//! `chimera bench`: fixed positions of every variant searched to a fixed
//! depth with one thread. The node count identifies the search's behaviour;
//! the last line is `<nodes> nodes <nps> nps`.

use std::time::Instant;

use crate::nnue::NetChoice;
use crate::search::{Engine, Limits};
use crate::setup::{Width, setup};

/// (variant, FEN or "startpos", moves)
pub const POSITIONS: &[(&str, &str, &str)] = &[
    ("chess", "startpos", ""),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "",
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", ""),
    (
        "chess",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "",
    ),
    ("omega", "startpos", ""),
    (
        "omega",
        "startpos",
        "c3c4 b11b9 k3k6 h10h7 d3d4 c10c9 e3e6 f10f9 i2h4 e10e7 h4f5 j10j9 h3h4 c11b11",
    ),
    (
        "omega",
        "w**********1/*1r3k2r1*/*P2P6*/*10*/*10*/*10*/*10*/*10*/*10*/*p9*/*1R3K2R1*/W**********1 w KQkq - 0 1",
        "",
    ),
    ("cwda-nutty-clobberers", "startpos", ""),
    ("cwda-rookies-fide", "startpos", ""),
    (
        "cwda-clobberers-clobberers",
        "dw1ckfwd/4pp1p/2p1f3/p2p4/3P1PP1/F2FP1P1/Pp2C3/DW2KW1D b KQkq - 0 11",
        "",
    ),
    ("cwda-fide-nutty", "startpos", "e2e4 e7e5 g1f3"),
    ("cwda-amazon-forward", "startpos", ""),
];

pub const DEPTH: i32 = 9;

/// Runs the bench; returns (nodes, nodes per second).
pub fn run(depth: i32, verbose: bool, nets: &NetChoice) -> Result<(u64, u64), String> {
    let mut engine = Engine::new();
    engine.nets = nets.clone();
    engine.set_hash(16);
    let mut total = 0u64;
    let start = Instant::now();
    for (variant, fen, moves) in POSITIONS {
        let fen = (*fen != "startpos").then_some(*fen);
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let pos = setup(variant, fen, &moves, &[], Width::Auto)?;
        let root = pos.clone();
        engine.new_game();
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Default::default()
        };
        let r = engine.search(pos, limits, None).ok_or("search failed")?;
        if verbose {
            eprintln!(
                "{variant:28} depth {} nodes {:>10} best {}",
                r.depth,
                r.nodes,
                r.best
                    .map(|m| root.move_to_string(m))
                    .unwrap_or_else(|| "(none)".into())
            );
        }
        total += r.nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    Ok((total, total * 1000 / ms))
}
