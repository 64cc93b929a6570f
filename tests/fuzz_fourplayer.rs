//! Property-based fuzzing of the four-player parsers: mutated FEN4s,
//! mutated PGN4 records and random move strings, in both modes. Nothing may
//! panic; what is read writes back and reads again to the same thing; a
//! move that is read is legal.
//!
//! A short run is part of the normal tests; a long one:
//! `CHIMERA_FUZZ_SECS=600 cargo test --release --test fuzz_fourplayer -- --nocapture`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chimera::fourplayer::game::Game4;
use chimera::fourplayer::pgn4;
use chimera::fourplayer::{Layout, Mode, Position4, Variant4};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

const FEN4S: &[&str] = &[
    "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,rP,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3",
    "R-0,0,0,0-0,0,0,1-1,0,0,1-0,0,0,0-0-{'enPassant':('','c7:d7','','')}-4,yN,yB,yK,yQ,2,gB,3/3,yR,2,yP,3,yP,3/6,yN,yP,yP,5/bR,bP,yP,1,yP,yP,3,yP,gP,2,gR/bQ,3,bP,4,gN,1,gP,2/1,bP,bN,9,gP,1/bK,bP,8,gP,2,gK/3,bP,8,gP,gQ/bB,bP,10,gP,gB/bN,1,rQ,2,bP,4,gP,2,gN/bR,1,bP,rP,2,rP,rN,rP,1,rP,gP,1,gR/7,rB,2,rR,3/4,rP,rP,1,rP,1,rP,4/3,rR,3,rK,rB,rN,4",
    "G-0,0,1,0-0,0,0,0-0,0,0,0-3,0,1,20-7-x,x,x,dyR,10/3,dK,10/14/14/14/14/14/14/14/14/14/3,dP,dQ,drK,rK,7/14/x,x,x,5,bK,gK,4",
];

const PGN4: &str = "[Variant \"Teams\"]\n[StartFen4 \"4PC\"]\n\n1. h2-h3 .. b7-c7 .. g13-g12 .. m6-l6\n2. Qg1-j4 .. Na10-c9 .. Ne14-f12 .. m9-l9\n3. Qj4xl6 *\n";

fn mutate(text: &str, edits: Vec<(usize, u8, char)>) -> String {
    let mut c: Vec<char> = text.chars().collect();
    for (pos, kind, ch) in edits {
        let i = pos % (c.len() + 1);
        match kind {
            0 if i < c.len() => c[i] = ch,
            1 => c.insert(i, ch),
            _ if i < c.len() => {
                c.remove(i);
            }
            _ => {}
        }
    }
    c.into_iter().collect()
}

fn alphabet() -> Vec<char> {
    "rbygdxKQRBNPrbyg0123456789,/-{}():'abcdefghijklmnRBYG .x=#+\n[]\""
        .chars()
        .collect()
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, char)>> {
    prop::collection::vec(
        (0usize..900, 0u8..3, prop::sample::select(alphabet())),
        0..6,
    )
}

fn variant(mode: Mode) -> Arc<Variant4> {
    Arc::new(Variant4::new(mode))
}

fn run_fen4(mode: Mode, fen: &str) -> Result<(), TestCaseError> {
    if let Ok(pos) = Position4::from_fen4(variant(mode), fen) {
        let out = pos.to_fen4();
        let again = Position4::from_fen4(variant(mode), &out);
        prop_assert!(again.is_ok(), "{fen} -> {out}: {:?}", again.err());
        prop_assert_eq!(again.unwrap().to_fen4(), out.clone());
        let mut g = Game4::new(pos);
        for _ in 0..6 {
            if g.outcome().is_some() {
                break;
            }
            let moves = g.position().legal_moves();
            let Some(&m) = moves.get(moves.len() / 2) else {
                break;
            };
            let text = g.position().move_to_string(m);
            g.play(&text).unwrap();
        }
    }
    Ok(())
}

fn run_pgn4(mode: Mode, text: &str) -> Result<(), TestCaseError> {
    if let Ok(p) = pgn4::read(text, mode) {
        let out = pgn4::write(&p.game, &[]);
        let again = pgn4::read(&out, mode);
        prop_assert!(again.is_ok(), "{text} -> {out}: {:?}", again.err());
        prop_assert_eq!(
            again.unwrap().game.position().to_fen4(),
            p.game.position().to_fen4()
        );
    }
    Ok(())
}

fn run_move(mode: Mode, s: &str) -> Result<(), TestCaseError> {
    let pos = Position4::startpos(variant(mode), Layout::Modern);
    if let Ok(m) = pos.parse_move(s) {
        prop_assert!(pos.legal_moves().contains(&m));
    }
    Ok(())
}

fn fuzz(cases: u32, secs: u64) {
    let start = Instant::now();
    let mut rounds = 0u64;
    let modes = || prop::sample::select(vec![Mode::Teams, Mode::Ffa]);
    loop {
        let config = Config {
            cases,
            failure_persistence: None,
            max_shrink_iters: 2000,
            ..Config::default()
        };
        let mut r = TestRunner::new(config.clone());
        r.run(
            &(modes(), prop::sample::select(FEN4S), edits()),
            |(m, f, e)| run_fen4(m, &mutate(f, e)),
        )
        .unwrap();
        let mut r = TestRunner::new(config.clone());
        r.run(&(modes(), edits()), |(m, e)| run_pgn4(m, &mutate(PGN4, e)))
            .unwrap();
        let mut r = TestRunner::new(config);
        r.run(
            &(
                modes(),
                "\\PC{0,12}|[A-Z]?[a-n][0-9]{1,2}[-x]?[A-Z]?[a-n][0-9]{1,2}(=[QRBNK])?[+#]?|O-O(-O)?",
            ),
            |(m, s)| run_move(m, &s),
        )
        .unwrap();
        rounds += 1;
        if start.elapsed() >= Duration::from_secs(secs) {
            break;
        }
    }
    eprintln!(
        "fuzz: {rounds} rounds of {cases} FEN4s, PGN4s and moves, {:.0} s, no panic",
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn fuzz_fourplayer_parsers() {
    let secs: u64 = std::env::var("CHIMERA_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    fuzz(if secs > 0 { 256 } else { 128 }, secs);
}
