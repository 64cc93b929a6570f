//! The routes: a request from `http.rs` (which bounds its size and the
//! time it takes) becomes a change to the session and a JSON answer. A
//! ticker thread pumps the session so the engine's moves are played
//! without a request.
//!
//! Requests are checked before they reach the session: a `Host` that is
//! not loopback (a page elsewhere reaching us through DNS rebinding) or a
//! cross-site `Origin` gets 403, a body over `MAX_BODY` 413, a malformed
//! JSON body, an unknown field or a bad value 400 with the reason, an
//! unknown path 404, a wrong method 405. A panic while answering is caught
//! and answered 500; the session stays as it was.

use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use super::assets;
use super::http::{self, Request, Response};
use super::session::{MAX_LINES, Seat, Session, lock};
use super::view;
use crate::fourplayer::search::Objective;

/// The largest request body taken (a long four-player PGN4 is some tens
/// of kilobytes).
pub const MAX_BODY: usize = 1 << 20;

/// An answer: status and JSON body.
struct Reply {
    status: u16,
    body: Value,
}

fn error(status: u16, msg: impl Into<String>) -> Reply {
    Reply {
        status,
        body: json!({ "error": msg.into() }),
    }
}

/// Serves the page on `listener` until the process ends.
pub fn serve(listener: TcpListener, session: Session) -> Result<(), String> {
    let port = listener
        .local_addr()
        .map_err(|e| format!("the listener has no address: {e}"))?
        .port();
    let session = Arc::new(Mutex::new(session));
    let ticker = session.clone();
    std::thread::Builder::new()
        .name("gui-ticker".into())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(20));
                let mut s = lock(&ticker);
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.pump()));
            }
        })
        .map_err(|e| format!("cannot start the ticker: {e}"))?;
    let handler: http::Handler = Arc::new(move |req: &Request| answer(req, &session, port));
    http::serve(listener, MAX_BODY, handler);
    Ok(())
}

/// The answer to one request.
pub fn answer(request: &Request, session: &Mutex<Session>, port: u16) -> Response {
    let (method, path) = (request.method.as_str(), request.path.as_str());
    if !host_is_loopback(request, port) {
        let r = error(
            403,
            "this server answers requests to 127.0.0.1 or localhost only",
        );
        return json_response(r);
    }
    if matches!(method, "GET" | "HEAD")
        && let Some((body, mime)) = assets::get(path)
    {
        let mut r = Response::new(200, mime, body.to_vec());
        r.headers = vec![
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
        ];
        return r;
    }
    if !path.starts_with("/api/") {
        return json_response(error(404, format!("no page at {}", clip(path))));
    }
    if method == "POST" && !origin_is_ours(request, port) {
        return json_response(error(403, "cross-site requests are refused"));
    }
    let body = if method == "POST" {
        match read_body(&request.body) {
            Ok(b) => b,
            Err(r) => return json_response(r),
        }
    } else {
        Value::Null
    };
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut s = lock(session);
        route(&mut s, method, path, &request.query, &body)
    }))
    .unwrap_or_else(|_| error(500, "internal error (the game is kept); please report it"));
    json_response(reply)
}

fn json_response(r: Reply) -> Response {
    let mut resp = Response::new(
        r.status,
        "application/json; charset=utf-8",
        r.body.to_string().into_bytes(),
    );
    resp.headers = vec![("Cache-Control", "no-store")];
    resp
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// Whether the Host header names this server on loopback.
fn host_is_loopback(request: &Request, port: u16) -> bool {
    match request.header("Host") {
        None => true, // HTTP/1.0 without Host: only a local client gets here
        Some(h) => allowed_host(h, port),
    }
}

pub fn allowed_host(host: &str, port: u16) -> bool {
    let h = host.trim().to_ascii_lowercase();
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|name| h == *name || h == format!("{name}:{port}"))
}

/// A POST from a page must come from our own page (a browser sends
/// `Origin` on every POST); tools without `Origin` are local programs.
fn origin_is_ours(request: &Request, port: u16) -> bool {
    match request.header("Origin") {
        None => true,
        Some(o) => o
            .strip_prefix("http://")
            .is_some_and(|h| allowed_host(h, port)),
    }
}

/// The JSON of a body (already bounded by `http.rs`); an empty body is an
/// empty object.
fn read_body(buf: &[u8]) -> Result<Value, Reply> {
    if buf.len() > MAX_BODY {
        return Err(error(
            413,
            format!("the request is larger than {} bytes", MAX_BODY),
        ));
    }
    if buf.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(Default::default()));
    }
    serde_json::from_slice(buf).map_err(|e| error(400, format!("the request is not JSON: {e}")))
}

/// A string field of the body.
fn text<'a>(body: &'a Value, key: &str) -> Result<&'a str, Reply> {
    match body.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(error(400, format!("'{key}' must be a string"))),
        None => Err(error(400, format!("'{key}' is missing"))),
    }
}

fn number(body: &Value, key: &str, lo: u64, hi: u64) -> Result<Option<u64>, Reply> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
            _ => Err(error(
                400,
                format!("'{key}' must be a whole number from {lo} to {hi}"),
            )),
        },
    }
}

fn state(s: &mut Session) -> Reply {
    s.pump();
    Reply {
        status: 200,
        body: view::state(s),
    }
}

/// A change to the session: the new state, or 400 with the reason.
fn change(s: &mut Session, r: Result<(), String>) -> Reply {
    match r {
        Ok(()) => state(s),
        Err(e) => error(400, e),
    }
}

fn route(s: &mut Session, method: &str, path: &str, query: &str, body: &Value) -> Reply {
    match (method, path) {
        ("GET" | "HEAD", "/api/state") => state(s),
        ("GET" | "HEAD", "/api/variants") => variants(s),
        ("GET" | "HEAD", "/api/save") => save(s, query),
        ("POST", p) => match post(s, p, body) {
            Ok(r) | Err(r) => r,
        },
        (_, "/api/state" | "/api/variants" | "/api/save") => error(405, "use GET here"),
        (_, p) if POSTS.contains(&p) => error(405, "use POST here"),
        (_, p) => error(404, format!("no endpoint {}", clip(p))),
    }
}

const POSTS: &[&str] = &[
    "/api/new",
    "/api/settings",
    "/api/move",
    "/api/load",
    "/api/undo",
    "/api/resign",
    "/api/goto",
];

/// The fields each POST takes; any other is refused, so that a misspelt
/// setting (`movetime` for `movetime_ms`) is not dropped without a word.
fn fields(path: &str) -> &'static [&'static str] {
    match path {
        "/api/new" => &["variant", "layout"],
        "/api/settings" => &[
            "seat",
            "movetime_ms",
            "clock_ms",
            "inc_ms",
            "delay_ms",
            "analyse",
            "level",
            "multipv",
            "ffa",
            "engines",
        ],
        "/api/move" => &["move"],
        "/api/load" => &["text"],
        "/api/goto" => &["ply"],
        _ => &[],
    }
}

fn post(s: &mut Session, path: &str, body: &Value) -> Result<Reply, Reply> {
    let Some(object) = body.as_object() else {
        return Err(error(400, "the request must be a JSON object"));
    };
    if POSTS.contains(&path) {
        let known = fields(path);
        if let Some(k) = object.keys().find(|k| !known.contains(&k.as_str())) {
            let expected = if known.is_empty() {
                "no fields".to_string()
            } else {
                known.join(", ")
            };
            return Err(error(
                400,
                format!("unknown field '{}' (expected: {expected})", clip(k)),
            ));
        }
    }
    Ok(match path {
        "/api/new" => {
            let variant = text(body, "variant")?;
            let layout = match body.get("layout") {
                None | Some(Value::Null) => "4PCo",
                Some(_) => text(body, "layout")?,
            };
            let r = s.new_game(variant, layout);
            change(s, r)
        }
        "/api/settings" => {
            let seat = match body.get("seat") {
                None => None,
                Some(_) => Some(
                    Seat::parse(text(body, "seat")?, s.game().players())
                        .map_err(|e| error(400, e))?,
                ),
            };
            let movetime = number(body, "movetime_ms", 10, 600_000)?;
            let clock = number(body, "clock_ms", 0, 86_400_000)?;
            let analyse = match body.get("analyse") {
                None => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(_) => return Err(error(400, "'analyse' must be true or false")),
            };
            let level = number(body, "level", 0, crate::search::skill::MAX_LEVEL as u64)?;
            let inc = number(body, "inc_ms", 0, 3_600_000)?;
            let delay = number(body, "delay_ms", 0, 3_600_000)?;
            let multipv = number(body, "multipv", 1, MAX_LINES as u64)?;
            let ffa = match body.get("ffa") {
                None => None,
                Some(_) => {
                    let name = text(body, "ffa")?;
                    Some(Objective::ffa_by_name(name).ok_or_else(|| {
                        error(
                            400,
                            format!("'ffa' is paranoid or brs, not '{}'", clip(name)),
                        )
                    })?)
                }
            };
            let engines = match body.get("engines") {
                None => None,
                Some(Value::Array(list)) => Some(
                    list.iter()
                        .map(|v| v.as_str().map(str::to_string))
                        .collect::<Option<Vec<String>>>()
                        .ok_or_else(|| error(400, "'engines' must be a list of names"))?,
                ),
                Some(_) => return Err(error(400, "'engines' must be a list of names")),
            };
            // the engines first: a refused name changes nothing
            if let Some(e) = engines {
                s.set_engines(&e).map_err(|e| error(400, e))?;
            }
            s.configure(seat, movetime, clock, analyse);
            if inc.is_some() || delay.is_some() {
                s.set_increments(inc, delay);
            }
            if multipv.is_some() || ffa.is_some() {
                s.set_analysis(multipv.map(|m| m as usize), ffa);
            }
            if let Some(l) = level {
                s.set_level(l as u8);
            }
            state(s)
        }
        "/api/move" => {
            let mv = text(body, "move")?;
            if mv.len() > 40 {
                return Err(error(400, "a move is at most 40 characters"));
            }
            let r = s.person_moves(mv);
            change(s, r)
        }
        "/api/load" => {
            let t = text(body, "text")?;
            let r = s.load(t);
            change(s, r)
        }
        "/api/undo" => {
            let r = s.undo().map(|_| ());
            change(s, r)
        }
        "/api/resign" => {
            let r = s.resign();
            change(s, r)
        }
        "/api/goto" => {
            let ply = number(body, "ply", 0, u32::MAX as u64)?
                .ok_or_else(|| error(400, "'ply' is missing"))?;
            let r = s.goto(ply as usize);
            change(s, r)
        }
        p => error(404, format!("no endpoint {}", clip(p))),
    })
}

fn variants(s: &Session) -> Reply {
    let armies: Vec<Value> = crate::variant::spec::all_armies(s.armies())
        .iter()
        .map(|a| json!({"token": a.token, "name": a.name}))
        .collect();
    Reply {
        status: 200,
        body: json!({
            "variants": ["fourplayer-teams", "fourplayer-ffa", "chess", "omega", "cwda"],
            "armies": armies,
            "layouts": ["4PCo", "4PC"],
        }),
    }
}

/// `?format=record` (PGN4 or PGN of the whole line) or `?format=fen`
/// (FEN4 or FEN of the position shown).
fn save(s: &Session, query: &str) -> Reply {
    let format = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("format="))
        .unwrap_or("record");
    let four = s.game().players() == 4;
    let (text, name) = match format {
        "record" => match s.save_record() {
            Ok(t) => (t, if four { "chimera.pgn4" } else { "chimera.pgn" }),
            Err(e) => return error(400, e),
        },
        "fen" => (
            s.game().fen(),
            if four { "chimera.fen4" } else { "chimera.fen" },
        ),
        other => {
            return error(
                400,
                format!("format '{}': expected record or fen", clip(other)),
            );
        }
    };
    Reply {
        status: 200,
        body: json!({"text": text, "filename": name}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts() {
        assert!(allowed_host("127.0.0.1:8080", 8080));
        assert!(allowed_host("localhost:8080", 8080));
        assert!(!allowed_host("127.0.0.1:8081", 8080));
        assert!(!allowed_host("evil.example:8080", 8080));
        assert!(!allowed_host("192.168.1.2:8080", 8080));
    }

    #[test]
    fn routes_refuse_bad_input_and_keep_the_game() {
        let mut s = Session::new();
        s.configure(Some(Seat::All), None, None, None);
        let fen = s.game().fen();
        let r = route(&mut s, "POST", "/api/move", "", &json!({"move": "h2-h5"}));
        assert_eq!(r.status, 400);
        assert!(
            r.body["error"].as_str().unwrap().contains("h2-h5"),
            "{}",
            r.body
        );
        let r = route(&mut s, "POST", "/api/move", "", &json!({"move": 7}));
        assert_eq!(r.status, 400);
        let r = route(&mut s, "POST", "/api/load", "", &json!({"text": "R-1,2"}));
        assert_eq!(r.status, 400);
        assert!(
            r.body["error"].as_str().unwrap().starts_with("FEN4"),
            "{}",
            r.body
        );
        let r = route(
            &mut s,
            "POST",
            "/api/settings",
            "",
            &json!({"movetime_ms": 0}),
        );
        assert_eq!(r.status, 400);
        for bad in [
            json!({"ffa": "optimistic"}),
            json!({"multipv": 0}),
            json!({"engines": ["chimera", "nosuch", "chimera", "chimera"]}),
            json!({"engines": "chimera"}),
            json!({"delay_ms": -5}),
        ] {
            let r = route(&mut s, "POST", "/api/settings", "", &bad);
            assert_eq!(r.status, 400, "{bad}: {}", r.body);
        }
        let r = route(
            &mut s,
            "POST",
            "/api/settings",
            "",
            &json!({"ffa": "brs", "multipv": 3, "inc_ms": 2000, "delay_ms": 15000}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let st = &r.body["settings"];
        assert_eq!(
            (st["ffa"].as_str(), st["multipv"].as_u64()),
            (Some("brs"), Some(3))
        );
        assert_eq!(
            (st["inc_ms"].as_u64(), st["delay_ms"].as_u64()),
            (Some(2000), Some(15000))
        );
        let r = route(&mut s, "GET", "/api/move", "", &Value::Null);
        assert_eq!(r.status, 405);
        let r = route(&mut s, "POST", "/api/nothing", "", &json!({}));
        assert_eq!(r.status, 404);
        assert_eq!(s.game().fen(), fen, "the game is kept");
        let r = route(&mut s, "POST", "/api/move", "", &json!({"move": "h2-h4"}));
        assert_eq!(r.status, 200);
        assert_eq!(r.body["moves"][0]["text"], "h2-h4");
    }
}
