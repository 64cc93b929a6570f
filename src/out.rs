//! The process's protocol and command-line output: whole lines, flushed,
//! and a reader that goes away (a closed pipe) ends the output quietly
//! instead of a panic.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Shared, line-atomic output. Every line is written whole and flushed while
/// the lock is held, so the search thread and the command loop never
/// interleave. A write that fails (the reader is gone: a closed pipe, as in
/// `chimera params | head -1`) is not an error; `closed` tells.
#[derive(Clone)]
pub struct Out {
    w: Arc<Mutex<Box<dyn Write + Send>>>,
    closed: Arc<AtomicBool>,
}

impl Out {
    /// Output to the process's stdout.
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out {
            w: Arc::new(Mutex::new(w)),
            closed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one line (a newline is added). Errors (a closed pipe) are
    /// ignored: the GUI is gone and `quit` or EOF will follow.
    pub fn line(&self, s: &str) {
        let mut w = match self.w.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let written = w
            .write_all(s.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .and_then(|_| w.flush());
        if written.is_err() {
            self.closed.store(true, Ordering::Relaxed);
        }
        log::debug!("> {s}");
    }

    /// Writes text of several lines.
    pub fn text(&self, t: &str) {
        for l in t.lines() {
            self.line(l);
        }
    }

    /// Whether a write has failed: nobody reads any more.
    pub fn closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}
