//! Scripted XBoard (CECP v2) sessions with the built binary: features,
//! `setup`/`piece` lines for Omega and CwDA pairings, large-board moves,
//! whole games with result claims, analysis, pondering, and bad input
//! (`Illegal move: ...` / `Error (...): ...`, the engine still answering
//! `ping`).

mod session;

use session::Session;

const OMEGA_START: &str = "w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/W**********W w KQkq - 0 1";
const OMEGA_PROMO: &str =
    "w**********w/*c9*/*1p1P6*/*10*/*9k*/*10*/*10*/*10*/*10*/*10*/*5K4*/W**********W w - - 0 1";

fn xboard() -> Session {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect("feature done=1", 10);
    s
}

/// Sends `variant NAME` and returns the lines answered before `pong`.
fn variant(s: &mut Session, name: &str, ping: u32) -> Vec<String> {
    s.send("new");
    s.send(&format!("variant {name}"));
    s.sync_xboard(ping, 10)
}

#[test]
fn features() {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    let lines = s.until(10, "done=1", |l| l == "feature done=1");
    let all = lines.join("\n");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "playother=1",
        "sigint=0",
        "sigterm=0",
        "memory=1",
        "smp=1",
        "exclude=1",
        "analyze=1",
        "colors=0",
        "myname=\"Chimera ",
    ] {
        assert!(all.contains(f), "feature {f} missing:\n{all}");
    }
    let variants = lines
        .iter()
        .find_map(|l| l.split("variants=\"").nth(1))
        .expect("variants")
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let names: Vec<&str> = variants.split(',').collect();
    for v in [
        "normal",
        "omega",
        "cwda",
        "cwda-nutty-clobberers",
        "cwda-rookies-clobberers",
        "cwda-fide-fide",
        "cwda-forward-amazoncrab",
    ] {
        assert!(names.contains(&v), "{v} missing from {variants}");
    }
    assert_eq!(names.len(), 3 + 64);
    for o in [
        "feature option=\"Hash -spin 16 1 65536\"",
        "feature option=\"Threads -spin 1 1 256\"",
        "feature option=\"MultiPV -spin 1 1 256\"",
        "feature option=\"Move Overhead -spin 30 0 5000\"",
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"Ponder -check 0\"",
        "feature option=\"White Army -combo *fide /// clobberers",
        "feature option=\"Black Army -combo *fide",
        "feature option=\"Army File -file",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(o)),
            "{o} missing:\n{all}"
        );
    }
    s.send("quit");
    assert!(s.wait_exit(10).success());
}

#[test]
fn omega_setup_and_pieces() {
    let mut s = xboard();
    let lines = variant(&mut s, "omega", 1);
    assert_eq!(
        lines[0],
        format!("setup (PNBRQ...CW...........Kpnbrq...cw...........k) 12x12+0_fairy {OMEGA_START}")
    );
    let mut pieces: Vec<&str> = lines[1..].iter().map(String::as_str).collect();
    pieces.sort();
    assert_eq!(
        pieces,
        [
            "piece B& B",
            "piece C& WAD",
            "piece K& KisjO2",
            "piece N& N",
            "piece P& fmWfceFifmW3",
            "piece Q& Q",
            "piece R& R",
            "piece W& FC",
        ]
    );
    // normal chess needs no setup
    assert!(variant(&mut s, "normal", 2).is_empty());
}

/// A type's moves are given for both colours: `piece X& ...`, or
/// `piece X ...` and `piece x ...`.
fn described(lines: &[String], letter: char, betza: &str) -> bool {
    let up = letter.to_ascii_uppercase();
    let low = letter.to_ascii_lowercase();
    lines.contains(&format!("piece {up}& {betza}"))
        || (lines.contains(&format!("piece {up} {betza}"))
            && lines.contains(&format!("piece {low} {betza}")))
}

#[test]
fn cwda_setup_and_pieces() {
    let mut s = xboard();
    let lines = variant(&mut s, "cwda-nutty-clobberers", 1);
    let setup = &lines[0];
    assert!(setup.starts_with("setup ("), "{setup}");
    assert!(
        setup.ends_with(") 8x8+0_fairy dwfckfwd/pppppppp/8/8/8/8/PPPPPPPP/GITLKTIG w KQkq - 0 1"),
        "{setup}"
    );
    // PIECETOCHAR: 21 slots + King per colour, every piece type in a slot of
    // its own for both colours
    let ptc = &setup[7..setup.find(')').unwrap()];
    assert_eq!(ptc.len(), 44, "{ptc}");
    assert_eq!(&ptc[21..22], "K");
    assert_eq!(&ptc[43..44], "k");
    assert!(
        ptc[..22]
            .chars()
            .all(|c| c == '.' || c.is_ascii_uppercase())
    );
    assert!(
        ptc[22..]
            .chars()
            .all(|c| c == '.' || c.is_ascii_lowercase())
    );
    for l in "PGITLDWFC".chars() {
        assert_eq!(ptc.matches(l).count(), 1, "{l} in {ptc}");
        assert_eq!(
            ptc.matches(l.to_ascii_lowercase()).count(),
            1,
            "{l} in {ptc}"
        );
    }
    // each side's castling partner sits in XBoard's Rook slot (so that XBoard
    // keeps the castling rights in the FENs it sends the other engine)
    assert_eq!(&ptc[3..4], "G", "{ptc}");
    assert_eq!(&ptc[25..26], "d", "{ptc}");
    assert!(lines.contains(&"piece K KisO2".to_string()), "{lines:#?}");
    assert!(
        lines.contains(&"piece k KilO2irO3".to_string()),
        "{lines:#?}"
    );
    // White's and Black's armies differ: lower-case lines for Black's slots
    assert!(lines.contains(&"piece d BD".to_string()), "{lines:#?}");
    assert!(lines.contains(&"piece g fsRbWbF".to_string()), "{lines:#?}");
    for (l, b) in [
        ('P', "fmWfceFifmW2"),
        ('G', "fsRbWbF"),
        ('I', "fbNF"),
        ('T', "fhNbsWbF"),
        ('L', "fhNfsRK"),
        ('D', "BD"),
        ('W', "WA"),
        ('F', "FAD"),
        ('C', "BN"),
    ] {
        assert!(described(&lines, l, b), "{l} {b} missing: {lines:#?}");
    }
    let lines = variant(&mut s, "cwda-rookies-clobberers", 2);
    assert!(
        lines[0].ends_with(" 8x8+0_fairy dwfckfwd/pppppppp/8/8/8/8/PPPPPPPP/SOHMKHOS w KQkq - 0 1")
    );
    assert!(lines[0].starts_with("setup (P..S"), "{}", lines[0]);
    assert!(lines.contains(&"piece K KisO2".to_string()), "{lines:#?}");
    assert!(
        lines.contains(&"piece k KilO2irO3".to_string()),
        "{lines:#?}"
    );
    for (l, b) in [
        ('S', "R4"),
        ('O', "WD"),
        ('H', "HFD"),
        ('M', "RN"),
        ('D', "BD"),
    ] {
        assert!(described(&lines, l, b), "{l} {b} missing: {lines:#?}");
    }
    // `cwda` takes the armies of the options
    s.send("option White Army=clobberers");
    s.send("option Black Army=nutty");
    let lines = variant(&mut s, "cwda", 3);
    assert!(
        lines[0].ends_with("gitlktig/pppppppp/8/8/8/8/PPPPPPPP/DWFCKFWD w KQkq - 0 1"),
        "{lines:?}"
    );
    assert!(lines.contains(&"piece K KirO2ilO3".to_string()));
    assert!(lines.contains(&"piece k KisO2".to_string()));
}

#[test]
fn large_board_moves_and_setboard_with_holes() {
    let mut s = xboard();
    variant(&mut s, "omega", 1);
    s.send("force");
    s.send(&format!("setboard {OMEGA_PROMO}"));
    s.send("usermove e10e11q");
    s.send("usermove b11b10");
    s.send("usermove e11=Q");
    let said = s.sync_xboard(2, 10);
    // the first two are legal; the third is not a move here
    assert_eq!(said, ["Illegal move: e11=Q"]);
    // the engine plays on from there
    s.send("sd 3");
    s.send("go");
    let mv = s.expect("move ", 30);
    assert!(mv.len() > 5);
    // a game from the start with XBoard's castling notation
    variant(&mut s, "omega", 3);
    s.send("force");
    for m in [
        "i3i5", "g10g7", "i2h4", "f10f8", "h2i3", "d11e9", "O-O", "e11f10", "a1b4", "f11g10",
        "b4a1", "O-O-O",
    ] {
        s.send(&format!("usermove {m}"));
    }
    let said = s.sync_xboard(4, 10);
    assert!(said.is_empty(), "{said:?}");
    s.send("undo");
    s.send("usermove g11e11");
    s.send("remove");
    s.send("usermove b4a1");
    s.send("usermove g11e11");
    assert!(s.sync_xboard(5, 10).is_empty());
}

#[test]
fn a_whole_game_with_a_claim() {
    let mut s = xboard();
    s.send("new");
    s.send("post");
    s.send("force");
    s.send("setboard 8/8/8/4k3/8/8/8/R2QK3 w - - 0 1");
    s.send("st 1");
    s.send("sd 8");
    // the engine plays both sides: `go` makes it play the side to move
    let mut claim = None;
    for _ in 0..60 {
        s.send("go");
        let lines = s.until(20, "a move or a result", |l| {
            l.starts_with("move ")
                || l.starts_with("1-0")
                || l.starts_with("0-1")
                || l.starts_with("1/2-1/2")
        });
        let last = lines.last().unwrap().clone();
        if !last.starts_with("move ") {
            claim = Some(last);
            break;
        }
        // a result claim may follow the move
        let after = s.sync_xboard(99, 10);
        if let Some(c) = after.iter().find(|l| l.contains('{')) {
            claim = Some(c.clone());
            break;
        }
    }
    assert_eq!(claim.as_deref(), Some("1-0 {White mates}"));
    // a game against the user: the engine plays Black after `new`
    s.send("new");
    s.send("st 1");
    s.send("usermove e2e4");
    let mv = s.expect("move ", 20);
    assert_eq!(mv.len(), "move e7e5".len());
    s.send("result 1/2-1/2 {aborted}");
    assert!(s.sync_xboard(100, 10).is_empty());
}

#[test]
fn cwda_game_against_the_engine() {
    let mut s = xboard();
    variant(&mut s, "cwda-nutty-clobberers", 1);
    s.send("level 40 0:05 0");
    s.send("hard");
    s.send("time 500");
    s.send("otim 500");
    s.send("go");
    let first = s.expect("move ", 20);
    assert!(!first.contains("error"));
    // reply with whatever is legal from a small list, and keep going
    let replies = ["h7h6", "a7a6", "g7g6", "b7b6", "h6h5", "a6a5"];
    let mut k = 0;
    for _ in 0..4 {
        let mut ok = false;
        while k < replies.len() {
            s.send("time 400");
            s.send("otim 400");
            s.send(&format!("usermove {}", replies[k]));
            k += 1;
            let said = s.until(20, "a move or an illegal-move reply", |l| {
                l.starts_with("move ") || l.starts_with("Illegal move")
            });
            if said.last().unwrap().starts_with("move ") {
                ok = true;
                break;
            }
        }
        assert!(ok, "no legal reply found");
    }
    s.send("force");
    s.send("result *");
    assert!(s.sync_xboard(2, 10).iter().all(|l| !l.starts_with("move ")));
}

#[test]
fn analysis_exclude_and_status() {
    let mut s = xboard();
    s.send("new");
    s.send("post");
    s.send("analyze");
    s.expect("1 ", 10);
    s.send(".");
    s.expect("stat01: ", 5);
    s.send("exclude e2e4");
    s.send("exclude d2d4");
    s.send("usermove e2e4");
    s.send("undo");
    s.send("include all");
    s.send("exclude all");
    s.send("include g1f3");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let said = s.sync_xboard(1, 5);
    // with only g1f3 included, every PV starts with it
    let last_pv = said
        .iter()
        .rev()
        .find(|l| l.split_whitespace().count() >= 5);
    if let Some(l) = last_pv {
        assert_eq!(l.split_whitespace().nth(4), Some("g1f3"), "{said:?}");
    }
    s.send("exit");
    s.send("setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    let said = s.sync_xboard(2, 5);
    assert!(!said.iter().any(|l| l.starts_with("move")));
    s.send("quit");
    assert!(s.wait_exit(10).success());
}

#[test]
fn move_now_force_and_ponder() {
    let mut s = xboard();
    s.send("new");
    s.send("hard");
    s.send("level 0 10 0");
    s.send("go");
    std::thread::sleep(std::time::Duration::from_millis(300));
    s.send("?");
    let mv = s.expect("move ", 5);
    // now it ponders on the expected reply; the engine still answers
    assert!(s.sync_xboard(1, 5).is_empty());
    s.send("force");
    assert!(s.sync_xboard(2, 5).is_empty());
    s.send("undo");
    s.send("easy");
    s.send("sd 2");
    s.send("go");
    let again = s.expect("move ", 20);
    assert_eq!(mv.len(), again.len());
    // options through XBoard
    s.send("memory 32");
    s.send("cores 2");
    s.send("option Hash=8");
    s.send("option Move Overhead=50");
    s.send("option MultiPV=2");
    s.send("option Ponder=0");
    assert!(s.sync_xboard(3, 5).is_empty());
}

#[test]
fn bad_input_gets_errors() {
    let mut s = xboard();
    variant(&mut s, "omega", 1);
    s.send("force");
    s.send("usermove f3f5");
    s.sync_xboard(2, 5);
    let cases: &[(&str, &str)] = &[
        (
            "flibbertigibbet",
            "Error (unknown command): flibbertigibbet",
        ),
        ("usermove f5f9", "Illegal move: f5f9"),
        ("usermove e2e4", "Illegal move: e2e4"),
        ("usermove zz99", "Illegal move: zz99"),
        ("usermove", "Error (missing move): usermove"),
        ("variant shogi", "Error (unknown variant: "),
        (
            "option Nonsense=3",
            "Error (unknown option 'Nonsense'): option Nonsense=3",
        ),
        ("option Hash=lots", "Error (Hash must be an integer"),
        (
            "option Hash",
            "Error (option needs NAME=VALUE): option Hash",
        ),
        ("level 40 five 0", "Error (bad level): level 40 five 0"),
        ("st -3", "Error (bad time): st -3"),
        ("sd deep", "Error (bad number): sd deep"),
        ("exclude k1k9", "Illegal move: k1k9"),
    ];
    for (i, (cmd, want)) in cases.iter().enumerate() {
        s.send(cmd);
        let said = s.sync_xboard(10 + i as u32, 10);
        assert!(
            said.iter().any(|l| l.starts_with(want)),
            "'{cmd}' should say '{want}', said {said:?}"
        );
    }
    // the position is still the one after f3f5: g10g7 is legal, f5f9 not
    s.send("usermove g10g7");
    assert!(s.sync_xboard(40, 5).is_empty());
    // undo beyond the start
    s.send("new");
    s.send("undo");
    let said = s.sync_xboard(41, 5);
    assert!(
        said.iter()
            .any(|l| l.starts_with("Error (no move to take back): undo")),
        "{said:?}"
    );
    // a very long line
    s.send(&"x".repeat(400_000));
    let said = s.sync_xboard(42, 10);
    assert!(
        said.iter().any(|l| l.starts_with("Error (line too long")),
        "{said:?}"
    );
    // EOF while thinking ends the program
    s.send("level 0 60 0");
    s.send("go");
    std::thread::sleep(std::time::Duration::from_millis(200));
    s.close();
    assert!(s.wait_exit(10).success());
}

/// Against an engine (`computer`), an illegal move cannot be taken back:
/// the engine answers `Illegal move` and claims the game for the other
/// side, so a match with XBoard's legality testing off does not hang.
/// Against a person, it only says `Illegal move`.
#[test]
fn illegal_move_from_an_engine_opponent_is_claimed() {
    let mut s = xboard();
    variant(&mut s, "normal", 1);
    s.send("computer");
    s.send("playother");
    // We play Black; White's engine sends an impossible move.
    s.send("usermove e2e5");
    let said = s.sync_xboard(2, 10);
    assert_eq!(
        said,
        [
            "Illegal move: e2e5",
            "0-1 {White played an illegal move: e2e5}"
        ]
    );
    variant(&mut s, "normal", 3);
    s.send("playother");
    s.send("usermove e2e5");
    let said = s.sync_xboard(4, 10);
    assert_eq!(said, ["Illegal move: e2e5"]);
}

// ---------------------------------------------------------------------------
// What a GUI author found (issue 11)

/// `memory` allocates the table before `pong`, not in the time of the next
/// move (allocating 1 GB takes about a second).
#[test]
fn memory_is_allocated_before_pong_not_in_the_move() {
    let mut s = xboard();
    s.send("new");
    s.send("memory 1024");
    assert!(s.sync_xboard(1, 60).is_empty());
    s.send("level 0 0:01 0");
    s.send("time 100");
    s.send("otim 100");
    let start = std::time::Instant::now();
    s.send("usermove e2e4");
    s.expect("move ", 10);
    let took = start.elapsed();
    assert!(
        took < std::time::Duration::from_millis(600),
        "the move took {took:?} of a 1 s clock"
    );
}

/// A `memory` larger than the engine may use: the largest size that fits,
/// told to the user.
#[test]
fn memory_too_large_falls_back() {
    let mut s = Session::start_with_memory_limit(3_000_000);
    s.send("xboard");
    s.send("protover 2");
    s.expect("feature done=1", 10);
    s.send("new");
    s.send("memory 65536");
    let said = s.sync_xboard(1, 60);
    assert!(
        said.iter()
            .any(|l| l.starts_with("tellusererror Hash: 65536 MB") && l.contains("using")),
        "{said:?}"
    );
    s.send("sd 2");
    s.send("usermove e2e4");
    s.expect("move ", 20);
    s.send("quit");
    assert!(s.wait_exit(10).success());
}

/// A refused `setboard` leaves no doubt about the board: the user is told
/// (`tellusererror Illegal position`, which XBoard shows; it drops an
/// `Error` line that mentions a board), and moves are refused until `new`
/// or a good `setboard`, so engine and GUI never play on different boards.
#[test]
fn refused_setboard_refuses_moves_until_new_or_setboard() {
    let mut s = xboard();
    s.send("new");
    s.send("force");
    // Black is in check with White to move
    s.send("setboard 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1");
    s.send("usermove e2e4");
    s.send("sd 2");
    s.send("nopost");
    s.send("go");
    let said = s.sync_xboard(1, 10);
    assert!(
        said.iter()
            .any(|l| l.starts_with("tellusererror Illegal position")),
        "{said:?}"
    );
    assert!(said.iter().any(|l| l == "Illegal move: e2e4"), "{said:?}");
    assert!(!said.iter().any(|l| l.starts_with("move ")), "{said:?}");
    // a good setboard: moves again
    s.send("force");
    s.send("setboard 4k3/8/8/8/8/8/3R4/4K3 w - - 0 1");
    s.send("usermove d2d8");
    s.send("go");
    let mv = s.expect("move ", 10);
    assert!(mv.starts_with("move e8"), "{mv}");
    // and `new` ends the refusal too
    s.send("force");
    s.send("setboard 8/8/8/8 w - - 0 1");
    s.send("usermove e2e4");
    let said = s.sync_xboard(2, 10);
    assert!(
        said.iter()
            .any(|l| l.starts_with("tellusererror Illegal position")),
        "{said:?}"
    );
    assert!(said.iter().any(|l| l == "Illegal move: e2e4"), "{said:?}");
    s.send("new");
    s.send("force");
    s.send("usermove e2e4");
    assert!(s.sync_xboard(3, 10).is_empty());
}

/// XBoard chooses the variant with `variant`: `UCI_Variant` is not offered,
/// and setting it cannot switch the board under a game.
#[test]
fn uci_variant_is_not_an_xboard_option() {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    let features = s.until(10, "done=1", |l| l == "feature done=1");
    assert!(
        !features.iter().any(|l| l.contains("UCI_Variant")),
        "{features:?}"
    );
    s.send("new");
    s.send("force");
    s.send("option UCI_Variant=omega");
    let said = s.sync_xboard(1, 10);
    assert!(!said.iter().any(|l| l.starts_with("setup")), "{said:?}");
    assert!(
        said.iter().any(|l| l.starts_with("Error (unknown option")),
        "{said:?}"
    );
    s.send("usermove e2e4");
    assert!(s.sync_xboard(2, 10).is_empty());
}

/// CECP: a `ping` that arrives while the engine thinks about its move is
/// answered after the move (XBoard sends `?` and `ping` together).
#[test]
fn ping_while_thinking_is_answered_after_the_move() {
    let mut s = xboard();
    s.send("new");
    s.send("nopost");
    s.send("st 30");
    s.send("usermove e2e4");
    std::thread::sleep(std::time::Duration::from_millis(150));
    s.send("?");
    s.send("ping 9");
    let said = s.until(10, "pong 9", |l| l == "pong 9");
    assert!(
        said.iter().any(|l| l.starts_with("move ")),
        "pong before the move: {said:?}"
    );
    // without `?`: the pong waits for the move
    s.send("st 1");
    s.send("usermove d2d4");
    s.send("ping 10");
    let said = s.until(10, "pong 10", |l| l == "pong 10");
    assert!(
        said.iter().any(|l| l.starts_with("move ")),
        "pong before the move: {said:?}"
    );
    // while pondering, a ping is answered at once
    s.send("hard");
    s.send("usermove c2c4");
    std::thread::sleep(std::time::Duration::from_millis(150));
    s.send("?");
    s.expect("move ", 10);
    let start = std::time::Instant::now();
    assert!(s.sync_xboard(11, 5).is_empty());
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
}
