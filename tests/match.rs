//! `chimera match` with real engine processes: two Chimeras at a tiny time
//! control; Chimera against Sjaak II in Omega (where sjaakii is
//! installed); scripted broken engines (`tests/peers/uci-faulty.sh`,
//! wrapping a Chimera) that play an illegal move, crash, stop answering or lose on
//! time, each of which must lose its games while the match finishes with a
//! valid PGN and score line; and the same match given with cutechess-cli's
//! flags and from engines.toml.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

use chimera::tools::matches::args::{Command as MatchCommand, parse};
use chimera::tools::matches::openings::read_pgn;
use chimera::tools::matches::referee::TwoPlayer;

/// The matches share two cores: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const BIN: &str = env!("CARGO_BIN_EXE_chimera");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chimera-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Runs `chimera match` with a command line (split at spaces).
fn run_match(line: &str) -> (Output, String) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = Command::new(BIN)
        .arg("match")
        .args(line.split_whitespace())
        .current_dir(root())
        .output()
        .expect("run chimera match");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, stdout)
}

fn installed(prog: &str) -> Option<PathBuf> {
    ["/usr/games", "/usr/bin", "/usr/local/bin"]
        .iter()
        .map(|d| Path::new(d).join(prog))
        .find(|p| p.exists())
}

/// Reads a PGN back: every game's moves must be legal from the start, and
/// its result a result; returns (result, termination) per game.
fn check_pgn(path: &Path, variant: &str, games: usize) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).expect("the PGN was written");
    let base = TwoPlayer::new(variant, None, &[]).unwrap();
    let replayed = read_pgn(&text, &base, None, "out.pgn").expect("a valid PGN");
    assert_eq!(replayed.len(), games, "{text}");
    let tag = |block: &str, k: &str| {
        block
            .lines()
            .find_map(|l| l.strip_prefix(&format!("[{k} \"")))
            .map(|v| v.trim_end_matches("\"]").to_string())
            .unwrap_or_default()
    };
    let blocks: Vec<&str> = text.split("[Event ").skip(1).collect();
    assert_eq!(blocks.len(), games);
    blocks
        .iter()
        .map(|b| {
            let r = tag(b, "Result");
            assert!(["1-0", "0-1", "1/2-1/2"].contains(&r.as_str()), "{b}");
            assert!(
                b.trim_end().ends_with(&r),
                "the move text ends with the result: {b}"
            );
            (r, tag(b, "Termination"))
        })
        .collect()
}

#[test]
fn two_chimera_processes() {
    let pgn = tmp("two.pgn");
    let (out, stdout) = run_match(&format!(
        "-engine cmd={BIN} proto=uci name=Chimera-UCI -engine cmd={BIN} proto=xboard \
         name=Chimera-XB -each tc=0.5+0.01 -variant omega -games 2 -repeat -maxmoves 40 \
         -pgnout {}",
        pgn.display()
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for want in [
        "Started game 1 of 2 (Chimera-UCI vs Chimera-XB)",
        "Started game 2 of 2 (Chimera-XB vs Chimera-UCI)",
        "Finished game 2 (Chimera-XB vs Chimera-UCI): ",
        "...      White vs Black: ",
        "Elo difference: ",
        "Finished match",
    ] {
        assert!(stdout.contains(want), "{want} in\n{stdout}");
    }
    let score = stdout
        .lines()
        .rfind(|l| l.starts_with("Score of Chimera-UCI vs Chimera-XB: "))
        .expect("a score line");
    assert!(score.ends_with("] 2"), "{score}");
    let games = check_pgn(&pgn, "omega", 2);
    // nobody misbehaved
    for (_, t) in &games {
        assert!(
            ["normal", "adjudication"].contains(&t.as_str()),
            "{games:?}"
        );
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Variant \"omega\"]"));
    assert!(text.contains("{book}"), "openings from the shipped set");
}

#[test]
fn chimera_against_sjaak_in_omega() {
    let Some(sjaak) = installed("sjaakii") else {
        eprintln!("skipped: sjaakii is not installed");
        return;
    };
    let pgn = tmp("sjaak.pgn");
    let (out, stdout) = run_match(&format!(
        "-engine cmd={BIN} proto=xboard name=Chimera -engine cmd={} proto=xboard \
         -each tc=1+0.01 -variant omega -games 2 -maxmoves 50 -pgnout {}",
        sjaak.display(),
        pgn.display()
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("vs Sjaak II"), "Sjaak's own name: {stdout}");
    let games = check_pgn(&pgn, "omega", 2);
    // Chimera never loses by a fault (Sjaak may: its wizard-square bug)
    let chimera = stdout
        .split("Player: ")
        .find(|s| s.starts_with("Chimera"))
        .unwrap_or("");
    for bad in ["disconnects", "illegal move", "on time", "stalls"] {
        assert!(
            !chimera.contains(&format!("Loss: White {bad}"))
                && !chimera.contains(&format!("Loss: Black {bad}"))
                && !chimera
                    .lines()
                    .any(|l| l.contains("Loss:") && l.contains(bad)),
            "{stdout}\n{games:?}"
        );
    }
}

/// A match of Chimera against a broken engine (a script wrapping Chimera):
/// the broken one must lose both games the way `reason` says, the match
/// must finish with a valid PGN and score line.
fn broken(mode: &str, reason: &str, termination: &str) {
    let pgn = tmp(&format!("{mode}.pgn"));
    let script = root().join("tests/peers/uci-faulty.sh");
    let (out, stdout) = run_match(&format!(
        "-engine cmd={BIN} proto=uci name=Chimera -engine cmd={} arg={mode} arg={BIN} \
         proto=uci name=Broken -each tc=1+0.01 -games 2 -noopenings -pgnout {}",
        script.display(),
        pgn.display()
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Score of Chimera vs Broken: 2 - 0 - 0  [1.000] 2"),
        "{stdout}\n{stderr}"
    );
    assert!(stdout.contains("Finished match"));
    let lost: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert_eq!(lost.len(), 2);
    for l in &lost {
        assert!(l.contains(reason), "{l}");
    }
    // logged with the engine's last output
    assert!(stderr.contains("last lines:"), "{stderr}");
    let games = check_pgn(&pgn, "chess", 2);
    assert_eq!(
        games,
        // game 1: Chimera White; game 2: Broken White
        vec![
            ("1-0".to_string(), termination.to_string()),
            ("0-1".to_string(), termination.to_string())
        ],
        "{stdout}"
    );
}

#[test]
fn an_illegal_move_loses() {
    broken("illegal", "makes an illegal move: a1a1", "illegal move");
}

#[test]
fn a_crash_loses() {
    broken("crash", "disconnects", "abandoned");
}

#[test]
fn an_engine_that_stops_answering_loses() {
    broken("hang", "'s connection stalls", "stalled connection");
}

#[test]
fn a_late_move_loses_on_time() {
    broken("slow", "loses on time", "time forfeit");
}

fn config(args: &[&str]) -> chimera::tools::matches::args::MatchConfig {
    let v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    match parse(&v).unwrap() {
        MatchCommand::Run(c) => *c,
        other => panic!("{other:?}"),
    }
}

#[test]
fn cutechess_command_line_equals_engines_toml() {
    let dir = tmp("toml-dir");
    std::fs::create_dir_all(&dir).unwrap();
    let toml = dir.join("engines.toml");
    std::fs::write(
        &toml,
        "[chimera]\ncommand = \"/opt/chimera --armies a.txt\"\nprotocol = \"uci\"\n\
         options = { Hash = 64 }\ninit = [\"setoption name Threads value 1\"]\n\n\
         [sjaak]\ncommand = \"/usr/games/sjaakii\"\nprotocol = \"xboard\"\nname = \"Sjaak II\"\n",
    )
    .unwrap();
    let common = [
        "-each",
        "tc=40/10+0.1",
        "-variant",
        "omega",
        "-games",
        "4",
        "-repeat",
        "-concurrency",
        "2",
        "-sprt",
        "elo0=0",
        "elo1=10",
        "alpha=0.05",
        "beta=0.05",
        "-draw",
        "movenumber=40",
        "movecount=8",
        "score=10",
        "-resign",
        "movecount=3",
        "score=600",
        "-pgnout",
        "x.pgn",
    ];
    let dir_s = dir.display().to_string();
    let mut inline = vec![
        "-engine",
        "cmd=/opt/chimera",
        "arg=--armies",
        "arg=a.txt",
        "proto=uci",
        "name=chimera",
        "option.Hash=64",
        "initstr=setoption name Threads value 1",
    ];
    let dir_opt = format!("dir={dir_s}");
    inline.push(&dir_opt);
    inline.extend([
        "-engine",
        "cmd=/usr/games/sjaakii",
        "proto=xboard",
        "name=Sjaak II",
        &dir_opt,
    ]);
    inline.extend(common);
    let toml_s = toml.display().to_string();
    let mut named = vec![
        "-engine",
        "conf=chimera",
        "-engine",
        "conf=sjaak",
        "-config",
        &toml_s,
    ];
    named.extend(common);
    let a = config(&inline);
    let b = config(&named);
    assert_eq!(a, b);
    assert_eq!(a.engines[0].launch.args, vec!["--armies", "a.txt"]);
    assert_eq!(a.engines[1].tc.moves, 40);
    // the repository's engines.toml: its engines and the variants they play
    let c = config(&[
        "-engine",
        "conf=chimera",
        "-engine",
        "conf=sjaakii-cwda",
        "-each",
        "tc=1+0.01",
        "-variant",
        "cwda-nutty-fide",
    ]);
    assert!(c.engines[1].launch.args[0].ends_with("sjaak-cwda.txt"));
    let v: Vec<String> = [
        "-engine",
        "conf=sjaakii-cwda",
        "-engine",
        "conf=chimera",
        "-each",
        "tc=1",
        "-variant",
        "omega",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let e = parse(&v).unwrap_err();
    assert!(e.contains("does not play omega"), "{e}");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    for args in [
        "-engine conf=nosuch -engine conf=chimera -each tc=1",
        "-engine cmd=/nonexistent/engine proto=uci -engine conf=chimera -each tc=1",
        "-engine conf=chimera -engine conf=chimera -each tc=1 -games x",
        "-engine conf=chimera -engine conf=chimera -each tc=1 -config /nonexistent.toml",
    ] {
        let (out, stdout) = run_match(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout} {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("chimera: "), "{stderr}");
    }
}
