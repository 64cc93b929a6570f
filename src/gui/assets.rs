//! The page's files, built into the binary: no network, no build step.

const INDEX: &str = include_str!("assets/index.html");
const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/app.js");
const PIECES: &str = include_str!("assets/pieces.svg");
const ICON: &str = include_str!("assets/icon.svg");

/// The body and media type of a file of the page, by its path.
pub fn get(path: &str) -> Option<(&'static [u8], &'static str)> {
    let (body, mime) = match path {
        "/" | "/index.html" => (INDEX, "text/html; charset=utf-8"),
        "/style.css" => (STYLE, "text/css; charset=utf-8"),
        "/app.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        "/pieces.svg" => (PIECES, "image/svg+xml"),
        "/favicon.ico" | "/icon.svg" => (ICON, "image/svg+xml"),
        _ => return None,
    };
    Some((body.as_bytes(), mime))
}
