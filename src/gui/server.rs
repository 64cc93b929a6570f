//! The HTTP side: `tiny_http` on a listener bound to 127.0.0.1, one
//! thread taking requests in turn (each is short: no request waits for a
//! search), and a ticker thread that pumps the session so the engine's
//! moves are played without a request.
//!
//! Requests are checked before they reach the session: a `Host` that is
//! not loopback (a page elsewhere reaching us through DNS rebinding) or a
//! cross-site `Origin` gets 403, a body over `MAX_BODY` 413, a malformed
//! JSON body or a bad value 400 with the reason, an unknown path 404, a
//! wrong method 405. A panic while answering is caught and answered 500;
//! the session stays as it was.

use std::io::Read;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response, Server};

use super::assets;
use super::session::{Seat, Session, lock};
use super::view;

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

fn header(k: &str, v: &str) -> Header {
    Header::from_bytes(k.as_bytes(), v.as_bytes()).expect("a valid header")
}

/// Serves the page on `listener` until the process ends.
pub fn serve(listener: TcpListener) -> Result<(), String> {
    let port = listener
        .local_addr()
        .map_err(|e| format!("the listener has no address: {e}"))?
        .port();
    let server = Server::from_listener(listener, None).map_err(|e| format!("cannot serve: {e}"))?;
    let session = Arc::new(Mutex::new(Session::new()));
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
    for request in server.incoming_requests() {
        answer(request, &session, port);
    }
    Ok(())
}

fn answer(mut request: Request, session: &Mutex<Session>, port: u16) {
    let method = request.method().clone();
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let path = path.to_string();
    let query = query.to_string();
    if !host_is_loopback(&request, port) {
        let r = error(
            403,
            "this server answers requests to 127.0.0.1 or localhost only",
        );
        return send_json(request, r);
    }
    if method == Method::Get
        && let Some((body, mime)) = assets::get(&path)
    {
        let resp = Response::from_data(body)
            .with_header(header("Content-Type", mime))
            .with_header(header("Cache-Control", "no-store"))
            .with_header(header("X-Content-Type-Options", "nosniff"));
        let _ = request.respond(resp);
        return;
    }
    if !path.starts_with("/api/") {
        return send_json(request, error(404, format!("no page at {}", clip(&path))));
    }
    if method == Method::Post && !origin_is_ours(&request, port) {
        return send_json(request, error(403, "cross-site requests are refused"));
    }
    let body = match method {
        Method::Post => match read_body(&mut request) {
            Ok(b) => b,
            Err(r) => return send_json(request, r),
        },
        _ => Value::Null,
    };
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut s = lock(session);
        route(&mut s, &method, &path, &query, &body)
    }))
    .unwrap_or_else(|_| error(500, "internal error (the game is kept); please report it"));
    send_json(request, reply)
}

fn send_json(request: Request, r: Reply) {
    let resp = Response::from_string(r.body.to_string())
        .with_status_code(r.status)
        .with_header(header("Content-Type", "application/json; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"));
    let _ = request.respond(resp);
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

fn header_value(request: &Request, name: &str) -> Option<String> {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str().to_string())
}

/// Whether the Host header names this server on loopback.
fn host_is_loopback(request: &Request, port: u16) -> bool {
    match header_value(request, "Host") {
        None => true, // HTTP/1.0 without Host: only a local client gets here
        Some(h) => allowed_host(&h, port),
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
    match header_value(request, "Origin") {
        None => true,
        Some(o) => o
            .strip_prefix("http://")
            .is_some_and(|h| allowed_host(h, port)),
    }
}

fn read_body(request: &mut Request) -> Result<Value, Reply> {
    let too_big = || {
        error(
            413,
            format!("the request is larger than {} bytes", MAX_BODY),
        )
    };
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_big());
    }
    let mut buf = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| error(400, format!("cannot read the request: {e}")))?;
    if buf.len() > MAX_BODY {
        return Err(too_big());
    }
    if buf.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(Default::default()));
    }
    serde_json::from_slice(&buf).map_err(|e| error(400, format!("the request is not JSON: {e}")))
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

fn route(s: &mut Session, method: &Method, path: &str, query: &str, body: &Value) -> Reply {
    match (method, path) {
        (Method::Get, "/api/state") => state(s),
        (Method::Get, "/api/variants") => variants(),
        (Method::Get, "/api/save") => save(s, query),
        (Method::Post, p) => match post(s, p, body) {
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

fn post(s: &mut Session, path: &str, body: &Value) -> Result<Reply, Reply> {
    if !body.is_object() {
        return Err(error(400, "the request must be a JSON object"));
    }
    Ok(match path {
        "/api/new" => {
            let variant = text(body, "variant")?;
            let layout = body.get("layout").and_then(Value::as_str).unwrap_or("4PCo");
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
            s.configure(seat, movetime, clock, analyse);
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

fn variants() -> Reply {
    let armies: Vec<Value> = crate::variant::spec::all_armies(&[])
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
        let r = route(
            &mut s,
            &Method::Post,
            "/api/move",
            "",
            &json!({"move": "h2-h5"}),
        );
        assert_eq!(r.status, 400);
        assert!(
            r.body["error"].as_str().unwrap().contains("h2-h5"),
            "{}",
            r.body
        );
        let r = route(&mut s, &Method::Post, "/api/move", "", &json!({"move": 7}));
        assert_eq!(r.status, 400);
        let r = route(
            &mut s,
            &Method::Post,
            "/api/load",
            "",
            &json!({"text": "R-1,2"}),
        );
        assert_eq!(r.status, 400);
        assert!(
            r.body["error"].as_str().unwrap().starts_with("FEN4"),
            "{}",
            r.body
        );
        let r = route(
            &mut s,
            &Method::Post,
            "/api/settings",
            "",
            &json!({"movetime_ms": 0}),
        );
        assert_eq!(r.status, 400);
        let r = route(&mut s, &Method::Get, "/api/move", "", &Value::Null);
        assert_eq!(r.status, 405);
        let r = route(&mut s, &Method::Post, "/api/nothing", "", &json!({}));
        assert_eq!(r.status, 404);
        assert_eq!(s.game().fen(), fen, "the game is kept");
        let r = route(
            &mut s,
            &Method::Post,
            "/api/move",
            "",
            &json!({"move": "h2-h4"}),
        );
        assert_eq!(r.status, 200);
        assert_eq!(r.body["moves"][0]["text"], "h2-h4");
    }
}
