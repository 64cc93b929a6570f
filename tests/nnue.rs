//! The network's pipeline through the binary: `chimera datagen` makes a
//! data file, resumes after a stop that cut a game short, shards merge by
//! concatenation; `chimera train` turns the data into a network that the
//! engine loads (`EvalFile`, `--nnue`) and refuses when damaged, keeping
//! its evaluation.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use chimera::nnue::data;
use chimera::nnue::net::Network;

fn engine() -> String {
    std::env::var("CHIMERA_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_chimera").to_string())
}

fn run(args: &[&str]) -> Output {
    let out = Command::new(engine())
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("the chimera binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
    out
}

/// A folder of this test's own (the tests run side by side).
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chimera-nnue-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn games_in(path: &Path) -> Vec<data::GameRecord> {
    let bytes = std::fs::read(path).unwrap();
    let (games, valid) = data::read(&bytes).unwrap();
    assert_eq!(valid, bytes.len(), "no partial game left");
    games
}

/// What the engine answers to `uci` and these lines.
fn uci_session(lines: &[&str]) -> String {
    let mut child = Command::new(engine())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!("uci\n{}\n", lines.join("\n"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn datagen(out: &Path, extra: &[&str]) -> Output {
    datagen_of(out, "chess,cwda-nutty-rookies", extra)
}

fn datagen_of(out: &Path, variants: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--variants",
        variants,
        "--nodes",
        "300",
        "--concurrency",
        "2",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

#[test]
fn datagen_resumes_and_shards_merge_and_train_makes_a_network_the_engine_loads() {
    let d = dir("two");
    let full = d.join("full.bin");
    datagen(&full, &["--games", "4", "--seed", "7"]);
    let games = games_in(&full);
    assert_eq!(games.len(), 4);
    let mut numbers: Vec<u32> = games.iter().map(|g| g.game).collect();
    numbers.sort();
    assert_eq!(numbers, vec![0, 1, 2, 3]);
    for g in &games {
        assert!(["chess", "cwda-nutty-rookies"].contains(&g.variant.as_str()));
        assert!(g.result <= 2);
        for s in &g.samples {
            assert!(
                s.pieces.iter().filter(|p| p.2 == 0).count() == 2,
                "two Kings"
            );
            assert!(s.score.abs() < 20_000, "no mate score kept");
        }
    }
    assert!(games.iter().map(|g| g.samples.len()).sum::<usize>() > 20);

    // a run stopped while it wrote its last game: the file ends in part of
    // a game; the same command keeps the whole games and plays the rest
    let bytes = std::fs::read(&full).unwrap();
    let (_, _) = data::read(&bytes).unwrap();
    let cut = d.join("cut.bin");
    let mut two = data::file_header();
    for g in &games[..2] {
        two.extend(g.encode().unwrap());
    }
    let third = games[2].encode().unwrap();
    two.extend(&third[..third.len() / 2]);
    std::fs::write(&cut, &two).unwrap();
    datagen(&cut, &["--games", "4", "--seed", "7"]);
    let resumed = games_in(&cut);
    let by_number = |v: &[data::GameRecord]| {
        let mut v = v.to_vec();
        v.sort_by_key(|g| g.game);
        v
    };
    assert_eq!(
        by_number(&resumed),
        by_number(&games),
        "the same games as one run"
    );

    // two shards of the same seed, concatenated: the same set again
    let (s0, s1) = (d.join("s0.bin"), d.join("s1.bin"));
    datagen(&s0, &["--games", "2", "--seed", "7", "--shard", "0/2"]);
    datagen(&s1, &["--games", "2", "--seed", "7", "--shard", "1/2"]);
    let merged = d.join("merged.bin");
    let mut m = std::fs::read(&s0).unwrap();
    m.extend(std::fs::read(&s1).unwrap());
    std::fs::write(&merged, m).unwrap();
    assert_eq!(by_number(&games_in(&merged)), by_number(&games));

    // a network from the data
    let net = d.join("t.nnue");
    let o = run(&[
        "train",
        "--data",
        full.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "2",
        "--validation",
        "0.3",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("epoch 2") && stderr.contains("validation loss"),
        "{stderr}"
    );
    let parsed = Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    assert_eq!(parsed.squares, 64);
    assert!(
        parsed.kinds.iter().any(|k| k == "piece:fsRbWbF"),
        "the Charging Rook"
    );

    // the engine searches with it
    let o = run(&["bench", "--depth", "3", "--nnue", net.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains(" nodes "));

    // datagen plays with the evaluation asked for: the games above with
    // the built-in network (chess and CwDA have one), `--nnue off` with
    // the classical evaluation, a network file with that network; the
    // three score their positions differently
    let first_two: Vec<_> = by_number(&games)
        .into_iter()
        .filter(|g| g.game < 2)
        .collect();
    let off = d.join("off.bin");
    datagen(&off, &["--games", "2", "--seed", "7", "--nnue", "off"]);
    let off_two = by_number(&games_in(&off));
    assert_eq!(off_two.len(), 2);
    let with_net = d.join("with-net.bin");
    datagen(
        &with_net,
        &[
            "--games",
            "2",
            "--seed",
            "7",
            "--nnue",
            net.to_str().unwrap(),
        ],
    );
    let scores = |v: &[data::GameRecord]| -> Vec<i16> {
        by_number(v)
            .iter()
            .flat_map(|g| g.samples.iter().map(|s| s.score))
            .collect()
    };
    assert_ne!(scores(&off_two), scores(&first_two));
    assert_ne!(scores(&games_in(&with_net)), scores(&first_two));
    assert_ne!(scores(&games_in(&with_net)), scores(&off_two));
    let missing = d.join("no-such.nnue");
    let o = Command::new(engine())
        .args(["datagen", "--out", d.join("x.bin").to_str().unwrap()])
        .args(["--nnue", missing.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no-such.nnue"),
        "the missing file is named: {}",
        String::from_utf8_lossy(&o.stderr)
    );

    // UCI: a damaged file is refused and the network before it kept
    let mut bad = std::fs::read(&net).unwrap();
    let at = bad.len() / 2;
    bad[at] ^= 1;
    let bad_path = d.join("bad.nnue");
    std::fs::write(&bad_path, bad).unwrap();
    let text = uci_session(&[
        &format!("setoption name EvalFile value {}", net.display()),
        &format!("setoption name EvalFile value {}", bad_path.display()),
        "setoption name UCI_Variant value omega",
        "setoption name UCI_Variant value chess",
        "position startpos",
        "go depth 3",
        "isready",
        "quit",
    ]);
    assert!(
        text.contains("option name Use NNUE type check default true"),
        "{text}"
    );
    assert!(text.contains("option name EvalFile type string"), "{text}");
    assert!(text.contains("info string NNUE evaluation from"), "{text}");
    assert!(text.contains("checksum"), "the damage is named: {text}");
    assert!(
        text.contains("classical evaluation:") && text.contains("104"),
        "Omega falls back, and says why: {text}"
    );
    assert!(text.contains("bestmove"), "{text}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn datagen_plays_four_player_games_of_both_modes() {
    let d = dir("four");
    let out = d.join("four.bin");
    datagen_of(
        &out,
        "fourplayer-teams,fourplayer-ffa",
        &["--games", "4", "--seed", "3", "--max-plies", "120"],
    );
    let games = games_in(&out);
    assert_eq!(games.len(), 4);
    for g in &games {
        let seats: Vec<u8> = (0..4).map(|s| g.result_of(s)).collect();
        assert!(seats.iter().all(|&r| r <= 2), "{seats:?}");
        match g.variant.as_str() {
            "fourplayer-teams" => {
                assert_eq!((seats[0], seats[1]), (seats[2], seats[3]), "partners share");
                assert_eq!(seats[0] + seats[1], 2, "a win and a loss, or a draw");
            }
            "fourplayer-ffa" => assert!(seats.iter().any(|&r| r > 0), "someone leads"),
            v => panic!("variant {v}"),
        }
        for s in &g.samples {
            assert!(s.side < 4 && (s.ply as usize) < 120);
            assert!(s.score.abs() < 20_000, "no mate score kept");
            assert!(
                s.pieces
                    .iter()
                    .all(|&(sq, o, t)| sq < 160 && o <= 4 && t < 6),
                "{:?}",
                s.pieces
            );
            assert!(
                s.pieces.iter().any(|&(_, o, t)| o == s.side && t == 0),
                "the side to move has its King"
            );
        }
    }
    assert!(games.iter().map(|g| g.samples.len()).sum::<usize>() > 20);
    // Free-For-All positions keep each seat's points, Teams ones none
    for g in &games {
        let ffa = g.variant == "fourplayer-ffa";
        assert!(
            g.samples.iter().all(|s| s.points.is_some() == ffa),
            "{}",
            g.variant
        );
    }
    // Teams and Free-For-All are not trained into one network: the
    // trainer says why, and does not crash
    let o = run(&[
        "train",
        "--data",
        out.to_str().unwrap(),
        "--out",
        d.join("four.nnue").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("mixes"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Free-For-All data appended to a file of format version 2 goes under
    // a header of this format, and trains a residual network that the
    // engine takes for Free-For-All
    let ffa = d.join("ffa.bin");
    let mut old = data::file_header();
    old[8] = 2;
    std::fs::write(&ffa, &old).unwrap();
    datagen_of(
        &ffa,
        "fourplayer-ffa",
        &["--games", "3", "--seed", "4", "--max-plies", "100"],
    );
    let games = games_in(&ffa);
    assert_eq!(games.len(), 3);
    assert!(
        games
            .iter()
            .flat_map(|g| &g.samples)
            .all(|s| s.points.is_some())
    );
    let net = d.join("ffa.nnue");
    let train = |extra: &[&str]| {
        let mut args = vec![
            "train",
            "--data",
            ffa.to_str().unwrap(),
            "--out",
            net.to_str().unwrap(),
            "--epochs",
            "1",
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let o = train(&[]);
    assert!(
        !o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--residual"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = train(&["--residual"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let n = Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    assert!(n.families.contains("fourplayer-ffa") && n.residual);
    let text = uci_session(&[
        "setoption name UCI_Variant value fourplayer-ffa",
        &format!("setoption name EvalFile value {}", net.display()),
        "isready",
        "setoption name UCI_Variant value fourplayer-teams",
        "isready",
        "quit",
    ]);
    let verdicts: Vec<&str> = text.lines().filter(|l| l.contains("evaluation")).collect();
    assert!(
        verdicts.len() == 2
            && verdicts[0].contains("NNUE evaluation from")
            && verdicts[1].contains("classical evaluation")
            && verdicts[1].contains("Free-For-All"),
        "{text}"
    );
    std::fs::remove_dir_all(&d).ok();
}
