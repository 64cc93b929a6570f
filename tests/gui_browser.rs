//! `chimera gui` in a real browser: headless Chromium driven through
//! WebDriver (chromedriver, with the `fantoccini` client), against the
//! binary started as a person starts it (`chimera gui --port 0`).
//!
//! - Four-player Teams: loads a FEN4 in which Red is in check (the Green
//!   Queen on n7 sees Red's King on h1 along the emptied diagonal), clicks
//!   h2 then h3 (which leaves the King attacked, so the rules forbid it)
//!   and sees it refused, clicks j2 then j3 (blocks the check) and sees it
//!   played, watches Chimera answer for Blue, Yellow and Green, turns on
//!   the analysis and sees its score, principal variation and arrow (a
//!   legal move of the side to move), saves the PGN4 and reads it back
//!   with the library's reader to the same game, and gets a clear message
//!   for a malformed FEN4 while the game stays.
//! - Omega Chess: loads the start FEN, sees e3-e7 refused (a pawn's first
//!   step is 1-3 squares), plays the triple step e3-e6 by clicking, watches
//!   Chimera answer for Black, saves the PGN and replays its SAN; the move
//!   list and the pieces' names read in Omega's own notation (a0-j9,
//!   w1-w4), and in the engine's frame when asked.
//! - CwDA (Nutty Knights against Colorbound Clobberers): every kind of
//!   piece has its own drawing, defined in the page, none shared; the
//!   legend names them; Chimera set to level 0 on the page; a move made
//!   by dragging a pawn, and Chimera's answer.
//! - Another engine on a seat (`chimera gui --engines FILE`): Black given
//!   on the page to a scripted UCI engine (tests/peers/scripted-uci.sh),
//!   its thinking shown while it thinks, its move played; and, where
//!   ../shared/engines/4pchess is built, a four-player Teams game with
//!   4pchess on Blue and Green beside Chimera on Yellow.
//! - The server by hand (plain TCP): an illegal move, a malformed body, a
//!   body over the limit and a foreign Host get 4xx with a reason, and the
//!   game is kept. The listening socket is bound to 127.0.0.1, read from
//!   the kernel's socket table, and a connection to this host's other
//!   addresses is refused: a request from another machine cannot arrive.
//!
//! The screenshots the README shows are made here (`target/gui-screenshots`;
//! `CHIMERA_UPDATE_SCREENSHOTS=1` also writes them to `docs/`).
//!
//! Part of the README's `cargo test --release`. Where chromium or
//! chromedriver is missing these tests fail, naming what to install;
//! `CHIMERA_SKIP_BROWSER=1` turns that into a skip printed on stderr.

mod gui_client;

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use gui_client::{Proc, get, http, post, saved_fen, start_gui, start_gui_with};
use serde_json::json;

/// The tests share two cores: one browser at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const CHROMIUM: &[&str] = &["/usr/lib/chromium/chromium", "/usr/bin/chromium"];
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The 4PC start without Red's i2 pawn and Green's m6 pawn: Green's Queen
/// on n7 attacks Red's King on h1 through m6, l5, k4, j3, i2.
const CHECK_FEN4: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-3,yR,yN,yB,yK,yQ,yB,yN,yR,3/3,yP,yP,yP,yP,yP,yP,yP,yP,3/14/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,11,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/14/3,rP,rP,rP,rP,rP,1,rP,rP,3/3,rR,rN,rB,rQ,rK,rB,rN,rR,3";

const OMEGA_START: &str = "w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/W**********W w KQkq - 0 1";

fn chromium() -> Option<&'static str> {
    CHROMIUM.iter().copied().find(|p| Path::new(p).exists())
}

/// Whether the browser tests can run: fails unless chromium and
/// chromedriver are here, or prints a skip when `CHIMERA_SKIP_BROWSER=1`.
fn require_browser(test: &str) -> bool {
    let mut missing = Vec::new();
    if chromium().is_none() {
        missing.push("chromium");
    }
    if !Path::new(CHROMEDRIVER).exists() {
        missing.push("chromedriver");
    }
    if missing.is_empty() {
        return true;
    }
    let need = format!(
        "the browser tests of `chimera gui` need {} (apt-get install chromium chromium-driver; .ci/run does this)",
        missing.join(", ")
    );
    if std::env::var("CHIMERA_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED {test} (CHIMERA_SKIP_BROWSER=1): {need}");
        return false;
    }
    panic!("{need}; or set CHIMERA_SKIP_BROWSER=1 to skip them");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// chromedriver on a free port, and a WebDriver session of headless
/// Chromium in a new empty profile.
async fn browser(profile: &Path) -> (Proc, Client) {
    let port = free_port();
    let driver = Proc(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "chromedriver does not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(profile);
    std::fs::create_dir_all(profile).unwrap();
    let args = [
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--disable-dev-shm-usage".into(),
        format!("--user-data-dir={}", profile.display()),
    ];
    let caps = json!({
        "goog:chromeOptions": { "binary": chromium().unwrap(), "args": args }
    });
    let caps = caps.as_object().unwrap().clone();
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session of headless Chromium");
    (driver, client)
}

fn shots_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Saves a screenshot under target/gui-screenshots (and docs/ when
/// `CHIMERA_UPDATE_SCREENSHOTS=1`).
async fn screenshot(c: &Client, name: &str) {
    c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(shots_dir().join(name), &png).unwrap();
    if std::env::var("CHIMERA_UPDATE_SCREENSHOTS").is_ok_and(|v| v == "1") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
        std::fs::create_dir_all(&docs).unwrap();
        std::fs::write(docs.join(name), &png).unwrap();
    }
}

/// Runs a script in the page with `css` as its argument; its string
/// result ("" if the element is not there). Read in one go: the page
/// redraws its elements often, so held element references go stale.
async fn read(c: &Client, script: &str, css: &str) -> String {
    let body = format!("const e = document.querySelector(arguments[0]); return e ? {script} : '';");
    let v = c.execute(&body, vec![json!(css)]).await.unwrap();
    v.as_str().unwrap_or_default().to_string()
}

/// The text of the first element `css` finds ("" if none is there yet).
async fn text(c: &Client, css: &str) -> String {
    read(c, "e.innerText", css).await
}

async fn value(c: &Client, css: &str) -> String {
    read(c, "e.value", css).await
}

async fn attr(c: &Client, css: &str, name: &str) -> String {
    read(c, &format!("(e.getAttribute('{name}') || '')"), css).await
}

/// Waits until `check` is true (polling the page), or fails with `what`.
async fn wait_until<F, Fut>(what: &str, secs: u64, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while !check().await {
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn click_square(c: &Client, sq: &str) {
    click(c, &format!("rect[data-sq='{sq}']")).await;
}

/// Drags the piece on `from` to `to` with the mouse (pointer down, move,
/// up), as a person does.
async fn drag(c: &Client, from: &str, to: &str) {
    let square = |sq: &str| format!("rect[data-sq='{sq}']");
    let a = c.find(Locator::Css(&square(from))).await.unwrap();
    let b = c.find(Locator::Css(&square(to))).await.unwrap();
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: a,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveToElement {
            element: b,
            duration: Some(Duration::from_millis(200)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.unwrap();
}

async fn select(c: &Client, css: &str, v: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .select_by_value(v)
        .await
        .unwrap();
}

async fn set_field(c: &Client, css: &str, v: &str) {
    // as a paste: the whole text at once
    c.execute(
        "const e = document.querySelector(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('input'));",
        vec![json!(css), json!(v)],
    )
    .await
    .unwrap();
}

/// The move list's entries (read in one go: the page redraws it often).
async fn moves(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return Array.from(document.querySelectorAll('#moves li')).map(e => e.textContent);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// A new game from the page's form.
async fn new_game(c: &Client, variant: &str, seat: &str, movetime: &str) {
    select(c, "#variant", variant).await;
    select(c, "#seat", seat).await;
    set_field(c, "#movetime", movetime).await;
    click(c, "#new").await;
    let want = format!("new game: {variant}");
    wait_until(&want, 10, || async {
        text(c, "#message").await.contains(&want)
    })
    .await;
    // the server took the form's settings (the form shows the server's).
    // The page sends them after the new game, and the new game's own
    // state (with the old settings) may be drawn first: wait for them.
    wait_until("the form's settings taken", 10, || async {
        value(c, "#movetime").await == movetime
    })
    .await;
    assert_eq!(value(c, "#seat").await, seat);
}

/// Loads a text through the page's load box.
async fn load(c: &Client, record: &str) {
    if c.find(Locator::Css("#records[open]")).await.is_err() {
        click(c, "#records summary").await;
    }
    set_field(c, "#record", record).await;
    click(c, "#load").await;
}

async fn save(c: &Client, button: &str, starts: &str) -> String {
    set_field(c, "#record", "").await;
    click(c, button).await;
    let mut saved = String::new();
    wait_until("the saved text", 10, || {
        let c = c.clone();
        async move { value(&c, "#record").await.starts_with(starts) }
    })
    .await;
    saved.push_str(&value(c, "#record").await);
    saved
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A browser on the page at 1280x800, once it shows its first state.
async fn open_page(name: &str, port: u16) -> (Proc, Client) {
    let profile = std::env::temp_dir().join(format!("chimera-gui-test-{name}"));
    let (driver, c) = browser(&profile).await;
    c.set_window_size(1280, 800).await.unwrap();
    c.goto(&format!("http://127.0.0.1:{port}/")).await.unwrap();
    wait_until("the page's first state", 10, || async {
        text(&c, "#status").await.contains("to move")
    })
    .await;
    (driver, c)
}

#[test]
fn four_player_in_the_browser() {
    if !require_browser("four_player_in_the_browser") {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_gui, port) = start_gui();
    runtime().block_on(async {
        let (_driver, c) = open_page("four", port).await;
        new_game(&c, "fourplayer-teams", "red", "200").await;
        load(&c, CHECK_FEN4).await;
        wait_until("the FEN4 loaded, Red in check", 10, || async {
            text(&c, "#status").await == "Red to move (check)"
        })
        .await;
        assert!(text(&c, "[data-player='Red']").await.contains("check"));
        assert_eq!(
            saved_fen(port),
            CHECK_FEN4,
            "the page shows the loaded FEN4"
        );

        // h2-h3 leaves the King in check: refused, with the reason
        click_square(&c, "h2").await;
        assert!(
            c.find(Locator::Css("circle[data-target='h3']"))
                .await
                .is_err(),
            "h3 is not offered as a target"
        );
        click_square(&c, "h3").await;
        wait_until("the refusal", 10, || async {
            text(&c, "#message.error")
                .await
                .contains("illegal move 'h2h3'")
        })
        .await;
        assert!(moves(&c).await.is_empty());
        assert_eq!(
            saved_fen(port),
            CHECK_FEN4,
            "the refused move changed nothing"
        );

        // j2-j3 blocks the check; Chimera then plays Blue, Yellow, Green
        click_square(&c, "j2").await;
        c.find(Locator::Css("circle[data-target='j3']"))
            .await
            .expect("j3 is offered");
        click_square(&c, "j3").await;
        wait_until("the engine's three answers", 30, || async {
            moves(&c).await.len() >= 4 && text(&c, "#status").await.starts_with("Red to move")
        })
        .await;
        let list = moves(&c).await;
        assert_eq!(list[0], "R j2-j3");
        for (i, seat) in ["B ", "Y ", "G "].iter().enumerate() {
            assert!(list[i + 1].starts_with(seat), "{list:?}");
        }
        assert_eq!(list.len(), 4, "Chimera does not move for Red: {list:?}");

        // the analysis: score, principal variation, arrow, updating
        click(&c, "#analyse").await;
        wait_until("the analysis at depth 3", 20, || async {
            let d = text(&c, "#depth").await;
            d.split_whitespace()
                .nth(1)
                .and_then(|n| n.trim_end_matches(',').parse::<u32>().ok())
                .is_some_and(|n| n >= 3)
        })
        .await;
        let score = text(&c, "#score").await;
        assert!(score.ends_with("for Red+Yellow"), "{score}");
        let pv = text(&c, "#pv").await;
        let from = attr(&c, "#arrow", "data-from").await;
        let to = attr(&c, "#arrow", "data-to").await;
        assert!(!from.is_empty(), "the best move's arrow is drawn");
        let fen4 = saved_fen(port);
        let v = std::sync::Arc::new(chimera::fourplayer::Variant4::new(
            chimera::fourplayer::Mode::Teams,
        ));
        let pos = chimera::fourplayer::Position4::from_fen4(v, &fen4).unwrap();
        let m = pos
            .parse_move(&format!("{from}-{to}"))
            .expect("the arrow is a legal move of Red");
        assert!(
            pv.starts_with(&pos.clone().move_to_pgn4(m)),
            "the PV starts with the arrow's move: {pv}"
        );
        screenshot(&c, "gui-fourplayer.png").await;
        click(&c, "#analyse").await;

        // the PGN4 reads back to the same game
        let pgn4 = save(&c, "#save-record", "[Variant \"Teams\"]").await;
        let back = chimera::fourplayer::pgn4::read(&pgn4, chimera::fourplayer::Mode::Ffa)
            .unwrap_or_else(|e| panic!("the saved PGN4 reads: {e}\n{pgn4}"));
        assert_eq!(back.game.root().to_fen4(), CHECK_FEN4);
        assert_eq!(back.game.position().to_fen4(), fen4);
        let seats: Vec<usize> = back.game.log().iter().map(|(s, _, _)| *s).collect();
        assert_eq!(seats, vec![0, 1, 2, 3]);
        assert_eq!(back.game.log()[0].2, "j2-j3");
        let fen_saved = save(&c, "#save-fen", "R-").await;
        assert_eq!(fen_saved, fen4);

        // a malformed FEN4: a clear message, the game kept
        load(&c, "R-0,0,0,0-garbage").await;
        wait_until("the FEN4 error", 10, || async {
            text(&c, "#message.error").await.starts_with("FEN4")
        })
        .await;
        assert_eq!(moves(&c).await.len(), 4);
        assert_eq!(saved_fen(port), fen4);

        // a phone-sized window still shows the whole board
        c.set_window_size(390, 844).await.unwrap();
        let rect = c
            .find(Locator::Css("#board"))
            .await
            .unwrap()
            .rectangle()
            .await
            .unwrap();
        assert!(
            rect.2 <= 390.0 && rect.2 > 300.0,
            "the board fits the width: {rect:?}"
        );
        screenshot(&c, "gui-fourplayer-phone.png").await;
        c.close().await.unwrap();
    });
}

#[test]
fn omega_in_the_browser() {
    if !require_browser("omega_in_the_browser") {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_gui, port) = start_gui();
    runtime().block_on(async {
        let (_driver, c) = open_page("omega", port).await;
        new_game(&c, "omega", "white", "200").await;
        load(&c, OMEGA_START).await;
        wait_until("the FEN loaded", 10, || async {
            text(&c, "#message").await.contains("loaded FEN")
        })
        .await;
        // the wizard squares are drawn, the holes are not
        for sq in ["a1", "l1", "l12", "a12", "b2", "k11"] {
            c.find(Locator::Css(&format!("rect[data-sq='{sq}']")))
                .await
                .unwrap_or_else(|_| panic!("square {sq} is drawn"));
        }
        for hole in ["a2", "b1", "l11", "k12"] {
            assert!(
                c.find(Locator::Css(&format!("rect[data-sq='{hole}']")))
                    .await
                    .is_err()
            );
        }
        // four squares is one too many for a pawn's first step
        click_square(&c, "e3").await;
        click_square(&c, "e7").await;
        wait_until("the refusal", 10, || async {
            text(&c, "#message.error")
                .await
                .contains("illegal move 'e3e7'")
        })
        .await;
        assert_eq!(saved_fen(port), OMEGA_START);
        click_square(&c, "e3").await;
        click_square(&c, "e6").await;
        wait_until("Chimera's answer for Black", 20, || async {
            moves(&c).await.len() >= 2 && text(&c, "#status").await.starts_with("White to move")
        })
        .await;
        // Omega in its own names: the move frame e3-e6 is d1-d4, the King
        // on the frame's g2 stands on f0, the Wizard on a1 on w1
        let list = moves(&c).await;
        assert_eq!(list[0], "d4");
        assert_eq!(
            read(&c, "e.textContent", "#pieces g[data-piece='g2'] title").await,
            "White King f0"
        );
        assert_eq!(
            read(&c, "e.textContent", "#pieces g[data-piece='a1'] title").await,
            "White Wizard w1"
        );
        screenshot(&c, "gui-omega.png").await;
        // and in the engine's coordinates when asked
        click(&c, "#engine-coords").await;
        wait_until("engine coordinates", 10, || async {
            moves(&c).await.first().is_some_and(|m| m == "e6")
        })
        .await;
        click(&c, "#engine-coords").await;
        let pgn = save(&c, "#save-record", "[Event").await;
        assert!(pgn.contains("[Variant \"omega\"]"), "{pgn}");
        // the SAN replays with the library to the position the page shows
        let fen = saved_fen(port);
        let mut pos =
            match chimera::setup::setup("omega", None, &[], &[], chimera::setup::Width::Auto)
                .unwrap()
            {
                chimera::setup::AnyPosition::Large(p) => p,
                _ => panic!("Omega is a large board"),
            };
        let movetext = pgn.split("\n\n").nth(1).unwrap();
        let mut n = 0;
        for tok in movetext.split_whitespace() {
            if tok.ends_with('.') || tok == "*" {
                continue;
            }
            let m = chimera::position::san::parse_san(&pos, tok)
                .unwrap_or_else(|| panic!("SAN '{tok}' is legal"));
            pos.make(m);
            n += 1;
        }
        assert_eq!(n, 2);
        assert_eq!(pos.to_fen(), fen);
        c.close().await.unwrap();
    });
}

/// CwDA in the browser: every kind of piece on the board (the Nutty
/// Knights against the Colorbound Clobberers) has a drawing of its own,
/// defined in the page, no two kinds alike; the legend names each.
#[test]
fn cwda_pieces_in_the_browser() {
    if !require_browser("cwda_pieces_in_the_browser") {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_gui, port) = start_gui();
    runtime().block_on(async {
        let (_driver, c) = open_page("cwda", port).await;
        select(&c, "#variant", "cwda").await;
        select(&c, "#white-army", "nutty").await;
        select(&c, "#black-army", "clobberers").await;
        set_field(&c, "#level", "0").await;
        new_game(&c, "cwda", "white", "200").await;
        wait_until("level 0 taken", 10, || async {
            value(&c, "#level").await == "0"
        })
        .await;
        let (_, st) = get(port, "/api/state");
        let st: serde_json::Value = serde_json::from_str(&st).unwrap();
        assert_eq!(st["settings"]["level"], 0, "{st}");
        assert!(text(&c, "#message").await.contains("cwda-nutty-clobberers"));
        // (letter, drawing) of every piece on the board, and whether the
        // drawing is defined in the page
        let v = c
            .execute(
                "return Array.from(document.querySelectorAll('#pieces g.piece')).map(g => { \
                   const id = g.dataset.glyph; \
                   return [g.querySelector('title').textContent, id, !!document.getElementById(id)]; });",
                vec![],
            )
            .await
            .unwrap();
        let pieces: Vec<(String, String, bool)> = serde_json::from_value(v).unwrap();
        assert_eq!(pieces.len(), 32, "{pieces:?}");
        let mut kinds: Vec<(String, String)> = Vec::new();
        for (title, glyph, defined) in &pieces {
            assert!(defined, "{title}: drawing {glyph} is not in the page");
            assert_ne!(glyph, "g-piece", "{title} has no drawing of its own");
            // the title is "<side> <piece name> <square>"
            let words: Vec<&str> = title.split(' ').collect();
            let name = words[1..words.len() - 1].join(" ");
            match kinds.iter().find(|(n, _)| *n == name) {
                Some((_, g)) => assert_eq!(g, glyph, "{name} drawn two ways"),
                None => {
                    if let Some((other, _)) = kinds.iter().find(|(_, g)| g == glyph) {
                        panic!("{name} and {other} are drawn alike ({glyph})");
                    }
                    kinds.push((name, glyph.clone()));
                }
            }
        }
        // King, pawn and the four pieces of each army
        assert_eq!(kinds.len(), 10, "{kinds:?}");
        click(&c, "#legend summary").await;
        let legend = text(&c, "#legend-list").await;
        for (name, _) in &kinds {
            assert!(legend.contains(name.as_str()), "{name} is not in the legend: {legend}");
        }
        // each entry shows where the piece moves on an empty board: the
        // King's eight neighbours, the pawn's step, double step and
        // diagonal captures
        let v = c
            .execute(
                "return Array.from(document.querySelectorAll('#legend-list li')).map(li => [li.textContent, \
                   Array.from(li.querySelectorAll('svg.reach g')).map(g => [+g.dataset.dx, +g.dataset.dy, g.getAttribute('class')])]);",
                vec![],
            )
            .await
            .unwrap();
        let reach: Vec<(String, Vec<Reach>)> = serde_json::from_value(v).unwrap();
        assert_eq!(reach.len(), 10, "{reach:?}");
        for (name, cells) in &reach {
            assert!(!cells.is_empty(), "{name}: no moves drawn");
        }
        let of = |letter: &str| &reach.iter().find(|(t, _)| t.starts_with(letter)).unwrap().1;
        let king = of("K ");
        assert_eq!(king.len(), 8);
        assert!(king.iter().all(|(x, y, k)| x.abs() <= 1 && y.abs() <= 1 && k == "reach-both"));
        let pawn = of("P ");
        for want in [(0, 1, "reach-move"), (0, 2, "reach-first"), (1, 1, "reach-capture")] {
            assert!(
                pawn.contains(&(want.0, want.1, want.2.to_string())),
                "pawn {want:?}: {pawn:?}"
            );
        }
        // a move by dragging, and Chimera's answer at level 0
        drag(&c, "e2", "e4").await;
        wait_until("Chimera's answer for Black", 20, || async {
            moves(&c).await.len() >= 2 && text(&c, "#status").await.starts_with("White to move")
        })
        .await;
        assert_eq!(moves(&c).await[0], "e4");
        screenshot(&c, "gui-cwda.png").await;
        // on a phone-sized window the board fills the width
        c.set_window_size(390, 844).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let width = c
            .execute("return document.getElementById('board').getBoundingClientRect().width;", vec![])
            .await
            .unwrap()
            .as_f64()
            .unwrap();
        assert!(width > 300.0, "the board is {width} px wide on a phone");
        screenshot(&c, "gui-cwda-phone.png").await;
        c.close().await.unwrap();
    });
}

/// A square of a legend diagram: (dx, dy, its mark's class).
type Reach = (i32, i32, String);

/// Where 4pchess is built (../shared/engines/4pchess), if it is.
fn four_p_chess() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/engines/4pchess");
    p.exists().then(|| p.canonicalize().unwrap())
}

/// Seats given to other engines on the page: a scripted UCI engine plays
/// Black in chess (its thinking shown, its moves played); 4pchess plays
/// Blue and Green in four-player Teams where it is built.
#[test]
fn engines_on_seats_in_the_browser() {
    if !require_browser("engines_on_seats_in_the_browser") {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut toml = format!(
        "[scripted]\nname = \"Scripted\"\ncommand = \"{} 1\"\nprotocol = \"uci\"\nvariants = [\"chess\"]\n",
        dir.join("tests/peers/scripted-uci.sh").display()
    );
    let four = four_p_chess();
    match &four {
        Some(p) => toml.push_str(&format!(
            "[4pchess]\nname = \"4pchess\"\ncommand = \"{}\"\nprotocol = \"uci\"\nfourplayer = \"4pchess\"\nvariants = [\"fourplayer-teams\"]\n",
            p.display()
        )),
        None => eprintln!("engines_on_seats_in_the_browser: no ../shared/engines/4pchess, its part is left out"),
    }
    let file =
        std::env::temp_dir().join(format!("chimera-gui-engines-{}.toml", std::process::id()));
    std::fs::write(&file, toml).unwrap();
    let (_gui, port) = start_gui_with(&["--engines", file.to_str().unwrap()]);
    runtime().block_on(async {
        let (_driver, c) = open_page("engines", port).await;
        // chess: the form offers the scripted engine for each seat
        select(&c, "#variant", "chess").await;
        new_game(&c, "chess", "white", "2000").await;
        select(&c, "#engine-1", "scripted").await;
        click(&c, "#apply").await;
        wait_until("Black seated with the scripted engine", 10, || async {
            text(&c, "[data-player='Black']").await.contains("Scripted")
        })
        .await;
        click_square(&c, "e2").await;
        click_square(&c, "e4").await;
        // it thinks for a second: its thinking is on the page meanwhile
        wait_until("the scripted engine's thinking", 10, || async {
            text(&c, "#depth").await.contains("Scripted thinking")
        })
        .await;
        assert_eq!(text(&c, "#score").await, "+0.23 for Black");
        assert_eq!(text(&c, "#pv").await, "e5 Nf3 Nc6");
        wait_until("its move", 10, || async { moves(&c).await.len() >= 2 }).await;
        assert_eq!(moves(&c).await[..2], ["e4", "e5"]);
        click_square(&c, "g1").await;
        click_square(&c, "f3").await;
        wait_until("its second move", 10, || async {
            moves(&c).await.len() >= 4
        })
        .await;
        assert_eq!(moves(&c).await[3], "Nc6");
        screenshot(&c, "gui-engines.png").await;

        if four.is_some() {
            select(&c, "#variant", "fourplayer-teams").await;
            select(&c, "#layout", "4PC").await;
            new_game(&c, "fourplayer-teams", "red", "500").await;
            select(&c, "#engine-1", "4pchess").await;
            select(&c, "#engine-3", "4pchess").await;
            click(&c, "#apply").await;
            wait_until("4pchess seated", 10, || async {
                text(&c, "[data-player='Blue']").await.contains("4pchess")
                    && text(&c, "[data-player='Green']").await.contains("4pchess")
            })
            .await;
            click_square(&c, "h2").await;
            click_square(&c, "h3").await;
            wait_until("4pchess, Chimera and 4pchess answer", 30, || async {
                moves(&c).await.len() >= 4 && text(&c, "#status").await.starts_with("Red to move")
            })
            .await;
            let list = moves(&c).await;
            for (i, seat) in ["R ", "B ", "Y ", "G "].iter().enumerate() {
                assert!(list[i].starts_with(seat), "{list:?}");
            }
            let st: serde_json::Value = serde_json::from_str(&get(port, "/api/state").1).unwrap();
            assert_eq!(
                st["seated"],
                json!([null, "4pchess", "Chimera", "4pchess"]),
                "no seat fell back to Chimera: {}",
                st["notice"]
            );
        }
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_server_refuses_bad_requests_and_listens_on_loopback_only() {
    // no browser needed
    let (_gui, port) = start_gui();
    let before = saved_fen(port);
    let (s, body) = post(port, "/api/move", r#"{"move": "h2-h5"}"#);
    assert_eq!(s, 400, "{body}");
    assert!(body.contains("illegal move 'h2-h5'"), "{body}");
    let (s, body) = post(port, "/api/move", r#"{"move": "#);
    assert_eq!(s, 400);
    assert!(body.contains("not JSON"), "{body}");
    let (s, _) = post(
        port,
        "/api/load",
        r#"{"text": "[Variant \"Teams\"]\n\n1. h2-h3 .. b7-b9"}"#,
    );
    assert_eq!(s, 400);
    let huge = format!("{{\"text\": \"{}\"}}", "x".repeat(2 << 20));
    let (s, body) = post(port, "/api/load", &huge);
    assert_eq!(s, 413, "{body}");
    let (s, _) = http(
        port,
        format!(
            "GET /api/state HTTP/1.1\r\nHost: attacker.example:{port}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    );
    assert_eq!(s, 403, "a foreign Host (DNS rebinding) is refused");
    let (s, _) = http(
        port,
        format!("POST /api/undo HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://attacker.example\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}").as_bytes(),
    );
    assert_eq!(s, 403, "a cross-site POST is refused");
    assert_eq!(get(port, "/nothing").0, 404);
    assert_eq!(get(port, "/api/move").0, 405);
    assert_eq!(saved_fen(port), before, "the game is kept");
    let (s, _) = post(port, "/api/settings", r#"{"seat": "all"}"#);
    assert_eq!(s, 200);
    let (s, body) = post(port, "/api/move", r#"{"move": "h2-h4"}"#);
    assert_eq!(s, 200, "the server still plays: {body}");

    // a port in use, or a bad one: a one-line error, status 2
    let bin = std::env::var("CHIMERA_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_chimera").into());
    for (args, says) in [
        (
            vec!["gui".to_string(), "--port".into(), port.to_string()],
            "is in use",
        ),
        (
            vec!["gui".into(), "--port".into(), "x".into()],
            "not a number",
        ),
        (vec!["gui".into(), "--bogus".into()], "unexpected argument"),
    ] {
        let o = Command::new(&bin).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }

    // bound to 127.0.0.1: the kernel's table of listening sockets says so
    let tcp = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    if !tcp.is_empty() {
        let want = format!(":{port:04X}");
        let listening: Vec<&str> = tcp
            .lines()
            .filter(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                f.len() > 3 && f[1].ends_with(&want) && f[3] == "0A"
            })
            .collect();
        assert_eq!(
            listening.len(),
            1,
            "one listening socket on port {port}: {listening:?}"
        );
        assert!(
            listening[0]
                .split_whitespace()
                .nth(1)
                .unwrap()
                .starts_with("0100007F:"),
            "bound to 127.0.0.1: {}",
            listening[0]
        );
        let tcp6 = std::fs::read_to_string("/proc/net/tcp6").unwrap_or_default();
        assert!(
            !tcp6.lines().any(|l| l
                .split_whitespace()
                .nth(1)
                .is_some_and(|a| a.ends_with(&want))),
            "no IPv6 socket on the port"
        );
    }
    // and this host's other addresses do not answer on the port
    let others = Command::new("hostname").arg("-I").output();
    if let Ok(o) = others {
        for addr in String::from_utf8_lossy(&o.stdout).split_whitespace() {
            let Ok(ip) = addr.parse::<std::net::IpAddr>() else {
                continue;
            };
            if ip.is_loopback() {
                continue;
            }
            let r = TcpStream::connect_timeout(&(ip, port).into(), Duration::from_secs(2));
            assert!(r.is_err(), "{ip}:{port} must not answer");
            eprintln!("checked: {ip}:{port} refuses connections");
        }
    }
}
