//! Property-based fuzzing of the board's HTTP server (`chimera gui`, the
//! binary as a person starts it): random methods, paths, headers (Host,
//! Origin, Content-Length true, false, huge or junk, chunked, Expect, junk
//! lines) and bodies (JSON with known and unknown fields and values of
//! every type, and bytes). Every request is answered within the server's
//! deadline, the server answers the next one, and a request refused (4xx,
//! 5xx) leaves the game as it was.
//!
//! A short run is part of the normal tests. For a long run, give the time
//! in seconds: `CHIMERA_FUZZ_SECS=600 cargo test --release --test fuzz_http
//! -- --nocapture`.

mod gui_client;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use gui_client::{get, post, saved_fen, start_gui};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

const PATHS: &[&str] = &[
    "/",
    "/index.html",
    "/app.js",
    "/pieces.svg",
    "/api/state",
    "/api/variants",
    "/api/save",
    "/api/save?format=fen",
    "/api/save?format=record",
    "/api/save?format=xx",
    "/api/new",
    "/api/settings",
    "/api/move",
    "/api/load",
    "/api/undo",
    "/api/resign",
    "/api/goto",
    "/api/nothing",
    "/api/",
    "/../etc/passwd",
    "*",
    "x",
    "",
];

const METHODS: &[&str] = &[
    "GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "get", "", "G ET",
];

const KEYS: &[&str] = &[
    "variant",
    "layout",
    "seat",
    "movetime_ms",
    "clock_ms",
    "analyse",
    "move",
    "text",
    "ply",
    "movetime",
    "",
    "x",
];

const VALUES: &[&str] = &[
    "\"chess\"",
    "\"omega\"",
    "\"fourplayer-teams\"",
    "\"cwda-nutty-rookies\"",
    "\"4PC\"",
    "\"all\"",
    "\"red\"",
    "\"white\"",
    "\"e2e4\"",
    "\"h2-h4\"",
    "\"zz\"",
    "\"R\"",
    "0",
    "-1",
    "10",
    "1000",
    "99999999999999999999999",
    "1.5",
    "true",
    "false",
    "null",
    "[]",
    "{}",
    "\"\"",
];

/// One request, as bytes.
fn request(port: u16) -> impl Strategy<Value = Vec<u8>> {
    let host = prop_oneof![
        4 => Just(format!("127.0.0.1:{port}")),
        1 => Just("localhost".to_string()),
        1 => Just("evil.example".to_string()),
        1 => "\\PC{0,20}",
    ];
    let origin = prop_oneof![
        4 => Just(None),
        1 => Just(Some(format!("http://127.0.0.1:{port}"))),
        1 => Just(Some("http://evil.example".to_string())),
    ];
    let body = prop_oneof![
        3 => prop::collection::vec(
            (prop::sample::select(KEYS), prop::sample::select(VALUES)),
            0..4
        )
        .prop_map(|kv| {
            let fields: Vec<String> = kv.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            format!("{{{}}}", fields.join(","))
        }),
        1 => "\\PC{0,40}",
        1 => prop::sample::select(VALUES).prop_map(str::to_string),
    ];
    // the declared length: true, shorter, longer, huge, junk, none
    let length = prop_oneof![
        6 => Just(0i64),
        1 => Just(-1),
        1 => Just(5),
        1 => Just(i64::MAX),
        1 => Just(99_999_999_999),
        1 => Just(-2),
        1 => Just(-3),
    ];
    let extra = prop::collection::vec(
        prop_oneof![
            Just("Transfer-Encoding: chunked".to_string()),
            Just("Expect: 100-continue".to_string()),
            Just("Connection: keep-alive".to_string()),
            Just("Content-Length: 3".to_string()),
            Just("no colon here".to_string()),
            "[A-Za-z-]{1,12}: \\PC{0,30}",
        ],
        0..3,
    );
    (
        prop::sample::select(METHODS),
        prop::sample::select(PATHS),
        host,
        origin,
        body,
        length,
        extra,
        prop::sample::select(vec!["HTTP/1.1", "HTTP/1.0", "HTTP/2", ""]),
    )
        .prop_map(
            move |(method, path, host, origin, body, length, extra, version)| {
                let mut head = format!("{method} {path} {version}\r\nHost: {host}\r\n");
                if let Some(o) = origin {
                    head.push_str(&format!("Origin: {o}\r\n"));
                }
                let n = body.len() as i64;
                match length {
                    0 => head.push_str(&format!("Content-Length: {n}\r\n")),
                    -1 => {}
                    -2 => head.push_str("Content-Length: abc\r\n"),
                    -3 => head.push_str(&format!("Content-Length: {}\r\n", n + 100)),
                    5 => head.push_str(&format!("Content-Length: {}\r\n", (n - 5).max(0))),
                    l => head.push_str(&format!("Content-Length: {l}\r\n")),
                }
                for e in extra {
                    head.push_str(&e);
                    head.push_str("\r\n");
                }
                head.push_str("\r\n");
                let mut bytes = head.into_bytes();
                bytes.extend_from_slice(body.as_bytes());
                bytes
            },
        )
}

/// Sends `bytes` and closes the sending side; the status of the answer
/// (None: no status line), and how long it took.
fn send(port: u16, bytes: &[u8]) -> (Option<u16>, Duration) {
    let t = Instant::now();
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("the server accepts");
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let _ = s.write_all(bytes);
    let _ = s.shutdown(Shutdown::Write);
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf);
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|r| r.get(..3))
        .and_then(|c| c.parse().ok());
    (status, t.elapsed())
}

fn run(port: u16, bytes: &[u8]) -> Result<(), TestCaseError> {
    // a still board: the person moves for every seat, no analysis
    let (st, body) = post(port, "/api/settings", r#"{"seat":"all","analyse":false}"#);
    prop_assert_eq!(st, 200, "{}", body);
    let before = saved_fen(port);
    let (status, took) = send(port, bytes);
    let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).to_string();
    prop_assert!(took < Duration::from_secs(12), "{:?} for {}", took, shown);
    let status = status.unwrap_or(0);
    prop_assert!(status != 0, "no answer to {}", shown);
    let (alive, _) = get(port, "/api/state");
    prop_assert_eq!(alive, 200, "the server answers after {}", shown);
    if status >= 400 {
        prop_assert_eq!(
            saved_fen(port),
            before,
            "a refused request changed the game: {}",
            shown
        );
    }
    Ok(())
}

#[test]
fn fuzz_the_boards_http_api() {
    let secs: u64 = std::env::var("CHIMERA_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (_gui, port) = start_gui();
    let start = Instant::now();
    let mut rounds = 0;
    let cases = if secs > 0 { 256 } else { 96 };
    loop {
        let mut r = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            max_shrink_iters: 200,
            ..Config::default()
        });
        r.run(&request(port), |b| run(port, &b)).unwrap();
        rounds += 1;
        if start.elapsed() >= Duration::from_secs(secs) {
            break;
        }
    }
    eprintln!(
        "fuzz_http: {rounds} rounds of {cases} requests, {:.0} s, every one answered, the server alive",
        start.elapsed().as_secs_f64()
    );
}
