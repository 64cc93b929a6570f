//! A small HTTP/1.1 server for the board: one request per connection,
//! each connection on its own thread, every size and wait bounded before
//! anything is allocated or waited for.
//!
//! - the request line and headers together are at most `MAX_HEAD` bytes
//!   (431 beyond);
//! - a body is taken only with a `Content-Length` of at most the server's
//!   `max_body` (413 beyond, answered before a byte of it is read; 411 for
//!   chunked bodies);
//! - a connection has `DEADLINE` to send its whole request (408 after);
//! - at most `MAX_CONNECTIONS` are served at once (503 beyond).
//!
//! Every answer closes its connection (`Connection: close`); the page
//! polls with a new one each time, which on loopback costs nothing.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The largest request line plus headers.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most connections served at once.
pub const MAX_CONNECTIONS: usize = 64;
/// The time a client has to send its whole request.
pub const DEADLINE: Duration = Duration::from_secs(10);

/// A request as the handler sees it.
#[derive(Debug, Default)]
pub struct Request {
    pub method: String,
    /// the target's path (before `?`)
    pub path: String,
    /// the target's query (after `?`), or empty
    pub query: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// A header's value (names compare without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// An answer.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub headers: Vec<(&'static str, &'static str)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body,
        }
    }

    /// A plain-text error answer.
    pub fn text(status: u16, msg: &str) -> Response {
        Response::new(
            status,
            "text/plain; charset=utf-8",
            format!("{msg}\n").into_bytes(),
        )
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// What the handler is given to answer with.
pub type Handler = Arc<dyn Fn(&Request) -> Response + Send + Sync>;

/// Serves `listener` until the process ends: each connection on a thread
/// of its own, its request read within the bounds above and given to
/// `handler`.
pub fn serve(listener: TcpListener, max_body: usize, handler: Handler) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // a connection that failed before it was accepted: nothing to
            // answer; do not spin if the failures go on (too many files)
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        if open.load(Ordering::Acquire) >= MAX_CONNECTIONS {
            let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
            respond(
                stream,
                Response::text(503, "too many connections at once"),
                false,
            );
            continue;
        }
        open.fetch_add(1, Ordering::AcqRel);
        let handler = handler.clone();
        let count = open.clone();
        let spawned = std::thread::Builder::new()
            .name("gui-connection".into())
            .spawn(move || {
                connection(stream, max_body, &handler);
                count.fetch_sub(1, Ordering::AcqRel);
            });
        if spawned.is_err() {
            open.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// One connection: read one request, answer it, close.
fn connection(mut stream: TcpStream, max_body: usize, handler: &Handler) {
    let _ = stream.set_write_timeout(Some(DEADLINE));
    let (response, head_only) = match read_request(&mut stream, max_body) {
        Ok(req) => {
            let head_only = req.method == "HEAD";
            (handler(&req), head_only)
        }
        Err(r) => (r, false),
    };
    respond(stream, response, head_only);
}

/// Reads from `stream` into `buf` until `deadline`; 0 at the end of the
/// stream.
fn read_some(stream: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> Result<usize, Response> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Response::text(408, "the request took too long to arrive"));
        }
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(Response::text(408, "the request took too long to arrive"));
            }
            Err(e) => {
                return Err(Response::text(
                    400,
                    &format!("cannot read the request: {e}"),
                ));
            }
        }
    }
}

/// The end of the head (the index after its blank line), if it is in
/// `buf` at or after `from`; a bare `\n\n` is taken too.
fn head_end(buf: &[u8], from: usize) -> Option<usize> {
    for i in from..buf.len() {
        if buf[i..].starts_with(b"\r\n\r\n") {
            return Some(i + 4);
        }
        if buf[i..].starts_with(b"\n\n") {
            return Some(i + 2);
        }
    }
    None
}

/// Reads one request within the bounds of this module; an error is the
/// answer to give.
pub fn read_request(stream: &mut TcpStream, max_body: usize) -> Result<Request, Response> {
    let deadline = Instant::now() + DEADLINE;
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    let mut searched = 0;
    let end = loop {
        if let Some(end) = head_end(&buf, searched) {
            break end;
        }
        // a blank line may straddle the next read
        searched = buf.len().saturating_sub(3);
        if buf.len() > MAX_HEAD {
            return Err(Response::text(
                431,
                &format!("the request's head is larger than {MAX_HEAD} bytes"),
            ));
        }
        let n = read_some(stream, &mut chunk, deadline)?;
        if n == 0 {
            return Err(Response::text(400, "the request ended before its head did"));
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    if end > MAX_HEAD {
        return Err(Response::text(
            431,
            &format!("the request's head is larger than {MAX_HEAD} bytes"),
        ));
    }
    let mut req = parse_head(&buf[..end])?;
    let length = body_length(&req, max_body)?;
    if length > 0
        && req
            .header("Expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut body = buf[end..].to_vec();
    body.truncate(length);
    while body.len() < length {
        let want = (length - body.len()).min(chunk.len());
        let n = read_some(stream, &mut chunk[..want], deadline)?;
        if n == 0 {
            return Err(Response::text(400, "the request ended before its body did"));
        }
        body.extend_from_slice(&chunk[..n]);
    }
    req.body = body;
    Ok(req)
}

/// The request line and headers.
fn parse_head(head: &[u8]) -> Result<Request, Response> {
    let bad = |why: &str| Response::text(400, why);
    let text = std::str::from_utf8(head).map_err(|_| bad("the request's head is not UTF-8"))?;
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let parts: Vec<&str> = first.split(' ').collect();
    let [method, target, version] = parts.as_slice() else {
        return Err(bad("the request line is not 'METHOD TARGET HTTP/1.1'"));
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(bad("the request's method is not a word in capitals"));
    }
    if !version.starts_with("HTTP/") {
        return Err(bad("the request line does not end in HTTP/1.1"));
    }
    if *version != "HTTP/1.1" && *version != "HTTP/1.0" {
        return Err(Response::text(505, "only HTTP/1.0 and HTTP/1.1 are served"));
    }
    if !target.starts_with('/') {
        return Err(bad("the request's target is not a path"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::new();
    for line in lines {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(bad("a header line has no ':'"));
        };
        if name.is_empty() || name.contains(|c: char| c.is_whitespace()) {
            return Err(bad("a header's name is empty or holds a space"));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    Ok(Request {
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body: Vec::new(),
    })
}

/// The body's length, from `Content-Length`, checked against `max_body`
/// before anything is read or allocated.
fn body_length(req: &Request, max_body: usize) -> Result<usize, Response> {
    if req.header("Transfer-Encoding").is_some() {
        return Err(Response::text(
            411,
            "chunked bodies are not taken: send a Content-Length",
        ));
    }
    let mut length: Option<u64> = None;
    for (k, v) in &req.headers {
        if !k.eq_ignore_ascii_case("Content-Length") {
            continue;
        }
        let n = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
            // more digits than a u64 holds is over any limit
            v.parse::<u64>().unwrap_or(u64::MAX)
        } else {
            return Err(Response::text(400, "Content-Length is not a number"));
        };
        if length.is_some_and(|l| l != n) {
            return Err(Response::text(400, "two different Content-Length headers"));
        }
        length = Some(n);
    }
    let n = length.unwrap_or(0);
    if n > max_body as u64 {
        return Err(Response::text(
            413,
            &format!("the request is larger than {max_body} bytes"),
        ));
    }
    Ok(n as usize)
}

/// Writes `r` and closes the connection; a body the client is still
/// sending is read and dropped for a moment first, so that the close does
/// not reset the connection before the client has read the answer.
fn respond(mut stream: TcpStream, r: Response, head_only: bool) {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    for (k, v) in &r.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&r.body);
    }
    if stream
        .write_all(&bytes)
        .and_then(|_| stream.flush())
        .is_err()
    {
        return;
    }
    let _ = stream.shutdown(Shutdown::Write);
    let until = Instant::now() + Duration::from_millis(200);
    let mut sink = [0u8; 4096];
    let mut drained = 0usize;
    while drained < (1 << 20) {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_read_with_their_limits() {
        let r = parse_head(b"POST /api/move?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n")
            .unwrap();
        assert_eq!(r.method, "POST");
        assert_eq!(r.path, "/api/move");
        assert_eq!(r.query, "x=1");
        assert_eq!(r.header("content-length"), Some("2"));
        assert_eq!(body_length(&r, 10).unwrap(), 2);
        assert_eq!(body_length(&r, 1).unwrap_err().status, 413);
        for bad in [
            &b"GET\r\n\r\n"[..],
            b"get / HTTP/1.1\r\n\r\n",
            b"GET / FTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nno colon\r\n\r\n",
            b"GET x HTTP/1.1\r\n\r\n",
        ] {
            assert_eq!(parse_head(bad).unwrap_err().status, 400, "{bad:?}");
        }
        assert_eq!(
            parse_head(b"GET / HTTP/2.0\r\n\r\n").unwrap_err().status,
            505
        );
        let huge =
            parse_head(b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n")
                .unwrap();
        assert_eq!(body_length(&huge, 1 << 20).unwrap_err().status, 413);
        let two = parse_head(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
            .unwrap();
        assert_eq!(body_length(&two, 10).unwrap_err().status, 400);
        let neg = parse_head(b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n").unwrap();
        assert_eq!(body_length(&neg, 10).unwrap_err().status, 400);
        let chunked = parse_head(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").unwrap();
        assert_eq!(body_length(&chunked, 10).unwrap_err().status, 411);
    }

    #[test]
    fn the_head_ends_at_the_blank_line() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n\r\nbody", 0), Some(18));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n\r\nbody", 14), Some(18));
        assert_eq!(head_end(b"GET / HTTP/1.0\n\nbody", 0), Some(16));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: x\r\n", 0), None);
    }
}
