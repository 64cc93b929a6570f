//! `chimera match` with real engine processes: two Chimeras at a tiny time
//! control; Chimera against Sjaak II in Omega (where sjaakii is
//! installed); scripted broken engines (`tests/peers/uci-faulty.sh`,
//! wrapping a Chimera) that play an illegal move, crash, stop answering or lose on
//! time, each of which must lose its games while the match finishes with a
//! valid PGN and score line; and the same match given with cutechess-cli's
//! flags and from engines.toml.
//!
//! Four-player chess (one process per seat): a Teams match between two
//! Chimeras; a Free-For-All with four Chimeras at different depths; the
//! broken engine losing its Teams games by an illegal move, or in
//! Free-For-All resigning its seats, whose Kings walk on; and a Teams match
//! against 4pchess where it is installed (`../shared/engines/4pchess`).
//! Every PGN4 written must read back with `pgn4::read`, its tags agreeing
//! with the result lines.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

use chimera::fourplayer::Mode;
use chimera::fourplayer::pgn4::{Pgn4, read};
use chimera::peers::referee::TwoPlayer;
use chimera::tools::matches::args::{Command as MatchCommand, parse};
use chimera::tools::matches::openings::read_pgn;

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

/// The last `Score of A vs B` line counts `games` games.
fn assert_games_scored(stdout: &str, pairing: &str, games: usize) {
    let score = stdout
        .lines()
        .rfind(|l| l.starts_with(&format!("Score of {pairing}: ")))
        .expect("a score line");
    assert!(score.ends_with(&format!("] {games}")), "{score}");
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
    assert_games_scored(&stdout, "Chimera-UCI vs Chimera-XB", 2);
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

/// Runs `chimera match`, which must succeed; returns stdout and stderr.
fn run_ok(line: &str) -> (String, String) {
    let (out, stdout) = run_match(line);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

/// The `Finished game` lines: (result, reason) per game.
fn finished(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .map(|l| {
            let (_, rest) = l.split_once("): ").expect("a result");
            let (result, reason) = rest.split_once(" {").expect("a reason");
            (result.to_string(), reason.trim_end_matches('}').to_string())
        })
        .collect()
}

/// Reads every game of a PGN4 file back; each must replay legally, and its
/// `[Result]` and `[Termination]` must be those of its `Finished game` line
/// (the game's own outcome where the rules ended it).
fn check_pgn4(path: &Path, mode: Mode, stdout: &str) -> Vec<Pgn4> {
    let text = std::fs::read_to_string(path).expect("the PGN4 was written");
    let lines = finished(stdout);
    let games: Vec<Pgn4> = text
        .split("[Variant ")
        .skip(1)
        .map(|g| read(&format!("[Variant {g}"), Mode::Teams).expect("a valid PGN4"))
        .collect();
    assert_eq!(games.len(), lines.len(), "{text}");
    for (g, (result, reason)) in games.iter().zip(&lines) {
        assert_eq!(g.game.mode(), mode);
        assert_eq!(g.tag("StartFen4"), Some("4PC"));
        assert_eq!(g.tag("Result"), Some(result.as_str()), "{text}");
        assert_eq!(g.tag("Termination"), Some(reason.as_str()), "{text}");
        if let Some(o) = g.game.outcome() {
            assert_eq!(&o.result(), result, "{text}");
        }
    }
    games
}

const FAULTS: [&str; 4] = ["illegal move", "disconnects", "loses on time", "stalls"];

/// The `Player: NAME` block of the end report.
fn player_block<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .split("Player: ")
        .find(|s| s.starts_with(&format!("{name}\n")))
        .unwrap_or_else(|| panic!("no block for {name} in\n{stdout}"))
}

#[test]
fn teams_between_two_chimera_processes() {
    let pgn = tmp("teams.pgn4");
    let (stdout, stderr) = run_ok(&format!(
        "-engine cmd={BIN} proto=uci name=A -engine cmd={BIN} proto=uci name=B \
         -each tc=2+0.02 -variant fourplayer-teams -games 2 -maxmoves 15 -pgnout {}",
        pgn.display()
    ));
    for want in [
        "Started game 1 of 2 (A vs B)",
        "Started game 2 of 2 (B vs A)",
        "...      A playing Red+Yellow: ",
        "...      Red+Yellow vs Blue+Green: ",
        "Elo difference: ",
        "Finished match",
    ] {
        assert!(stdout.contains(want), "{want} in\n{stdout}");
    }
    assert_games_scored(&stdout, "A vs B", 2);
    for f in FAULTS {
        assert!(!stdout.contains(f), "{f}: {stdout}\n{stderr}");
    }
    let games = check_pgn4(&pgn, Mode::Teams, &stdout);
    // A holds Red and Yellow, then Blue and Green
    let seats =
        |g: &Pgn4| ["Red", "Blue", "Yellow", "Green"].map(|c| g.tag(c).unwrap().to_string());
    assert_eq!(seats(&games[0]), ["A", "B", "A", "B"]);
    assert_eq!(seats(&games[1]), ["B", "A", "B", "A"]);
    for g in &games {
        assert!(g.game.log().len() >= 8, "engines moved");
    }
}

#[test]
fn ffa_with_four_chimera_seats() {
    let pgn = tmp("ffa.pgn4");
    let (stdout, _) = run_ok(&format!(
        "-engine cmd={BIN} proto=uci name=D1 depth=1 -engine cmd={BIN} proto=uci name=D2 depth=2 \
         -engine cmd={BIN} proto=uci name=D2b depth=2 -engine cmd={BIN} proto=uci name=D3 depth=3 \
         -variant fourplayer-ffa -games 4 -maxmoves 40 -openings plies=4 -srand 5 -pgnout {}",
        pgn.display()
    ));
    assert!(
        stdout.contains("Started game 2 of 4 (D2 vs D2b vs D3 vs D1)"),
        "{stdout}"
    );
    let header = stdout
        .lines()
        .position(|l| l.starts_with("Rank Name") && l.contains("Placement"))
        .expect("the FFA table");
    let rows: Vec<&str> = stdout.lines().skip(header + 1).take(4).collect();
    let mut placement_sum = 0.0;
    for r in &rows {
        let f: Vec<&str> = r.split_whitespace().collect();
        assert_eq!(f[2], "4", "every engine held every seat once: {r}");
        placement_sum += f[3].parse::<f64>().unwrap();
        let places: usize = f[5..9].iter().map(|x| x.parse::<usize>().unwrap()).sum();
        assert_eq!(places, 4, "{r}");
    }
    // the placements of a game add up to 2 (1 + 2/3 + 1/3 + 0)
    assert!((placement_sum - 2.0).abs() < 0.01, "{stdout}");
    assert!(!stdout.contains("Score of"), "no two-engine score line");
    let games = check_pgn4(&pgn, Mode::Ffa, &stdout);
    for (g, (result, _)) in games.iter().zip(finished(&stdout)) {
        assert_eq!(result.split('-').count(), 4, "points per seat: {result}");
        assert!(
            g.game.log().len() > 4,
            "the engines played after the opening"
        );
    }
}

/// Chimera against a broken Chimera that answers its third `go` (per
/// process: per seat) with `bestmove a1a1`.
fn against_broken(variant: &str, limit: &str, pgn: &Path) -> (String, String) {
    let script = root().join("tests/peers/uci-faulty.sh");
    let (stdout, stderr) = run_ok(&format!(
        "-engine cmd={BIN} proto=uci name=Chimera -engine cmd={} arg=illegal arg={BIN} \
         proto=uci name=Broken -each {limit} -variant {variant} -games 2 -maxmoves 25 -pgnout {}",
        script.display(),
        pgn.display()
    ));
    assert!(
        stdout.contains("Score of Chimera vs Broken: 2 - 0 - 0  [1.000] 2"),
        "{stdout}\n{stderr}"
    );
    // logged with the engine's last output
    assert!(stderr.contains("last lines:"), "{stderr}");
    (stdout, stderr)
}

#[test]
fn an_illegal_move_loses_for_the_team() {
    let pgn = tmp("broken-teams.pgn4");
    let (stdout, stderr) = against_broken("fourplayer-teams", "st=0.05 timemargin=300", &pgn);
    // Broken holds Blue+Green, then Red+Yellow: the first of its seats to
    // make a third move does it
    let lines = finished(&stdout);
    assert_eq!(
        lines,
        [
            (
                "1-0".to_string(),
                "Blue makes an illegal move: a1a1".to_string()
            ),
            (
                "0-1".to_string(),
                "Red makes an illegal move: a1a1".to_string()
            )
        ],
        "{stdout}"
    );
    assert!(stderr.contains("Broken lost 2 by illegal move"), "{stderr}");
    let games = check_pgn4(&pgn, Mode::Teams, &stdout);
    // game 1: two rounds, then Blue's third turn; game 2: Red's process is
    // Green's of game 1 (kept: it behaved), whose third `go` is Red's first
    for (g, events) in games.iter().zip([10, 1]) {
        assert_eq!(g.game.log().last().unwrap().2, "R");
        assert_eq!(g.game.log().len(), events);
    }
}

#[test]
fn an_illegal_move_resigns_the_seat_in_ffa() {
    let pgn = tmp("broken-ffa.pgn4");
    let (stdout, stderr) = against_broken("fourplayer-ffa", "depth=2", &pgn);
    // each of Broken's two seats resigned, and the game went on
    assert!(stderr.contains("Broken lost 4 by illegal move"), "{stderr}");
    let broken = player_block(&stdout, "Broken");
    // one line per seat (the keys name the seat and its place)
    assert_eq!(
        broken.matches("makes an illegal move: a1a1").count(),
        4,
        "{broken}"
    );
    for (_, reason) in finished(&stdout) {
        assert!(!reason.contains("illegal"), "{stdout}");
    }
    let games = check_pgn4(&pgn, Mode::Ffa, &stdout);
    for (i, g) in games.iter().enumerate() {
        // Broken's seats: Blue and Green, then Red and Yellow
        let seats: Vec<usize> = if i == 0 { vec![1, 3] } else { vec![0, 2] };
        let log = g.game.log();
        for s in seats {
            let at = log
                .iter()
                .position(|(seat, _, text)| *seat == s && text == "R")
                .expect("the faulty seat resigned");
            assert!(g.game.position().has_resigned(s));
            // its third turn
            assert_eq!(log[..at].iter().filter(|e| e.0 == s).count(), 2);
        }
        assert!(log.len() > 16, "the game went on: {}", log.len());
    }
}

#[test]
fn teams_against_4pchess() {
    let engine = root().join("../shared/engines/4pchess");
    if !engine.exists() {
        eprintln!("skipped: 4pchess is not installed at {}", engine.display());
        return;
    }
    let pgn = tmp("4pchess.pgn4");
    let (stdout, stderr) = run_ok(&format!(
        "-engine conf=chimera-uci -engine conf=4pchess -each st=0.1 timemargin=300 \
         -variant fourplayer-teams -games 2 -maxmoves 20 -pgnout {}",
        pgn.display()
    ));
    assert!(
        stdout.contains("Started game 2 of 2 (4pchess vs Chimera)"),
        "{stdout}"
    );
    assert_games_scored(&stdout, "Chimera vs 4pchess", 2);
    // Chimera never loses by a fault (4pchess may: it takes Kings in check)
    let chimera = player_block(&stdout, "Chimera");
    for f in FAULTS {
        assert!(
            !chimera
                .lines()
                .any(|l| l.contains("Loss:") && l.contains(f)),
            "{stdout}\n{stderr}"
        );
    }
    assert!(!stderr.contains("Chimera lost"), "{stderr}");
    check_pgn4(&pgn, Mode::Teams, &stdout);
}
