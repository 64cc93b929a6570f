//! `chimera gui` from a test: the server started as a person starts it
//! (`chimera gui --port 0`), and raw HTTP requests to it over TCP.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A child process stopped when the test ends, however it ends: SIGTERM
/// first, as a person's Ctrl-C or `kill` (so that `chimera gui` takes the
/// engines on its seats with it), SIGKILL if it is still there.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        for _ in 0..40 {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `chimera gui --port 0`; returns the process and the port it printed.
pub fn start_gui() -> (Proc, u16) {
    start_gui_with(&[])
}

/// `chimera gui --port 0 ARGS...`.
pub fn start_gui_with(args: &[&str]) -> (Proc, u16) {
    let bin = std::env::var("CHIMERA_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_chimera").into());
    let mut child = Command::new(bin)
        .args(["gui", "--port", "0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start chimera gui");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let proc = Proc(child);
    let rest = line
        .strip_prefix("Chimera GUI: http://127.0.0.1:")
        .unwrap_or_else(|| panic!("the first line names the loopback address: {line:?}"));
    let port: u16 = rest
        .split('/')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("a port in {line:?}"));
    (proc, port)
}

/// One raw HTTP request to the server; returns (status, body), or None
/// if no answer came within `secs` seconds (or the connection failed).
pub fn try_http(port: u16, request: &[u8], secs: u64) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(secs))).ok()?;
    let _ = s.write_all(request);
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf).to_string();
    let status = text.split_whitespace().nth(1)?.parse().ok()?;
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .unwrap_or("")
        .to_string();
    Some((status, body))
}

/// One raw HTTP request to the server; returns (status, body).
pub fn http(port: u16, request: &[u8]) -> (u16, String) {
    try_http(port, request, 10).unwrap_or_else(|| {
        panic!(
            "no HTTP answer to {:?}",
            String::from_utf8_lossy(&request[..request.len().min(200)])
        )
    })
}

pub fn post(port: u16, path: &str, body: &str) -> (u16, String) {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    http(port, req.as_bytes())
}

pub fn get(port: u16, path: &str) -> (u16, String) {
    let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    http(port, req.as_bytes())
}

/// The FEN (or FEN4) of the position the board shows.
pub fn saved_fen(port: u16) -> String {
    let (status, body) = get(port, "/api/save?format=fen");
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["text"].as_str().unwrap().to_string()
}
