//! `chimera gui`: a board in the browser. A local web server (bound to
//! 127.0.0.1 only) serves one page, built into the binary, on which a
//! person plays, watches and analyses four-player chess (Teams, FFA) and
//! every two-player variant against the engine, which runs in this
//! process.
//!
//! - `http.rs`: a small HTTP/1.1 server, every size and wait bounded;
//! - `server.rs`: routes and request checks;
//! - `session.rs`: the game (`crate::game::AnyGame`), seats, clocks and
//!   the engine's searches;
//! - `external.rs`: a seat played by an engine of engines.toml;
//! - `records.rs`: FEN4, PGN4, FEN and PGN in and out;
//! - `view.rs`: the state as JSON for the page;
//! - `glyphs.rs`: which drawing shows each piece;
//! - `legend.rs`: where each piece moves, for the legend's diagrams;
//! - `assets.rs`, `assets/`: the page (HTML, CSS, JavaScript, piece glyphs).

pub mod assets;
pub mod external;
pub mod glyphs;
pub mod http;
pub mod legend;
pub mod records;
pub mod server;
pub mod session;
pub mod view;

use std::io::Write;

use crate::peers::config::load_engines;
use crate::variant::armies::Army;
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener};

pub const HELP: &str = "\
usage: chimera [--armies FILE] gui [--port N] [--open] [--engines FILE]

Serves a board for four-player chess (Teams, FFA), Omega Chess, CwDA and
chess at http://127.0.0.1:N/ (default port 8088; --port 0 picks a free
one). The server listens on 127.0.0.1 only. --open also starts your web
browser on the page. The address is printed on the first line; stop the
server with Ctrl-C.

Any seat may be given to an engine of an engines.toml (the file `chimera
match` reads: 4pchess, Fairy-Stockfish, Sjaak II, another Chimera, ...):
--engines FILE (default: ./engines.toml where there is one). --armies FILE
(before `gui`) adds the armies of an armies file to CwDA's choices.
";

pub const DEFAULT_PORT: u16 = 8088;

/// Binds the server's socket: always the IPv4 loopback address, so no
/// other machine can reach it.
pub fn bind(port: u16) -> Result<TcpListener, String> {
    let addr = SocketAddrV4::new(Ipv4Addr::LOCALHOST, port);
    TcpListener::bind(addr).map_err(|e| match e.kind() {
        std::io::ErrorKind::AddrInUse => format!(
            "port {port} on 127.0.0.1 is in use (another chimera gui?): choose another with --port N, or --port 0 for a free one"
        ),
        std::io::ErrorKind::PermissionDenied => {
            format!("port {port} needs privileges: choose one above 1023 with --port N")
        }
        _ => format!("cannot listen on 127.0.0.1:{port}: {e}"),
    })
}

/// `chimera gui ...`: the arguments after `gui`.
pub fn run(args: &[String], armies: &[Army]) -> Result<(), String> {
    let mut port = DEFAULT_PORT;
    let mut open = false;
    let mut engines: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--help" | "-h" => {
                crate::out::Out::stdout().text(HELP);
                return Ok(());
            }
            "--open" => open = true,
            "--port" => {
                let v = args.get(i + 1).ok_or("--port needs a value")?;
                port = v
                    .parse()
                    .map_err(|_| format!("--port '{v}' is not a number from 0 to 65535"))?;
                i += 1;
            }
            "--engines" => {
                engines = Some(args.get(i + 1).ok_or("--engines needs a file")?.clone());
                i += 1;
            }
            other => return Err(format!("gui: unexpected argument '{other}' (try --help)")),
        }
        i += 1;
    }
    let pool = match &engines {
        Some(f) => load_engines(std::path::Path::new(f))?,
        None => {
            let default = std::path::Path::new("engines.toml");
            if default.exists() {
                load_engines(default).unwrap_or_else(|e| {
                    log::warn!("{e}: no engine besides Chimera can be seated");
                    Vec::new()
                })
            } else {
                Vec::new()
            }
        }
    };
    let session = session::Session::with(pool, armies.to_vec());
    let listener = bind(port)?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("the listener has no address: {e}"))?;
    let url = format!("http://{addr}/");
    let mut out = std::io::stdout();
    let _ = writeln!(out, "Chimera GUI: {url} (Ctrl-C stops it)");
    let _ = out.flush();
    if open {
        open_browser(&url);
    }
    server::serve(listener, session)
}

/// Starts the desktop's browser on `url`; a failure is only a note.
fn open_browser(url: &str) {
    let cmd: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else if cfg!(windows) {
        &["cmd", "/C", "start", ""]
    } else {
        &["xdg-open"]
    };
    let started = std::process::Command::new(cmd[0])
        .args(&cmd[1..])
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        eprintln!(
            "chimera gui: cannot start a browser ({}: {e}); open {url} yourself",
            cmd[0]
        );
    }
}
