//! An engine process: its pipes, a reader thread that timestamps every
//! line of its output and hands it over a channel, and the last lines in
//! and out (for the log when the engine misbehaves).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// `-debug`: every line to and from the engines is echoed on stderr.
pub static DEBUG: AtomicBool = AtomicBool::new(false);

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Launch {
    /// the program (a path, or a name looked up in PATH)
    pub program: String,
    pub args: Vec<String>,
    /// working directory
    pub dir: Option<PathBuf>,
    /// where its standard error goes (default: discarded)
    pub stderr: Option<PathBuf>,
}

/// Splits a command line into words: whitespace separates, '...' and
/// "..." group, a backslash escapes the next character.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '"') | (None, '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unbalanced quote in command '{s}'"));
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// What `recv` got.
#[derive(Debug, PartialEq, Eq)]
pub enum Recv {
    /// a line, and when it arrived
    Line(String, Instant),
    Timeout,
    /// the engine closed its output (exited or crashed)
    Eof,
}

pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<(String, Instant)>,
    /// the last lines in (`<`) and out (`>`), for logs
    recent: VecDeque<String>,
    pub name: String,
    eof: bool,
}

const RECENT: usize = 24;

impl Process {
    pub fn spawn(l: &Launch, name: &str) -> Result<Process, String> {
        let mut cmd = Command::new(&l.program);
        cmd.args(&l.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match &l.stderr {
            Some(path) => {
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open '{}': {e}", path.display()))?;
                cmd.stderr(f);
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        if let Some(d) = &l.dir {
            cmd.current_dir(d);
        }
        // its own process group, so that a wrapper script and the engine
        // it runs are killed together
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start engine '{name}' ({}): {e}", l.program))?;
        super::reaper::add(child.id());
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name(format!("read {name}"))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let s = String::from_utf8_lossy(&buf);
                            let s = s.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send((s, Instant::now())).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        Ok(Process {
            child,
            stdin,
            rx,
            recent: VecDeque::new(),
            name: name.to_string(),
            eof: false,
        })
    }

    fn remember(&mut self, s: String) {
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(s);
    }

    /// Sends a line; false if the engine's input is closed.
    pub fn send(&mut self, line: &str) -> bool {
        log::debug!("{} < {line}", self.name);
        if DEBUG.load(Ordering::Relaxed) {
            eprintln!("{} < {line}", self.name);
        }
        self.remember(format!("< {line}"));
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .is_ok();
        if !ok {
            self.stdin = None;
        }
        ok
    }

    /// The next line of output, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        if self.eof {
            return Recv::Eof;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok((line, at)) => {
                log::debug!("{} > {line}", self.name);
                if DEBUG.load(Ordering::Relaxed) {
                    eprintln!("{} > {line}", self.name);
                }
                self.remember(format!("> {line}"));
                Recv::Line(line, at)
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Recv::Eof
            }
        }
    }

    /// The last lines exchanged, oldest first, one per line.
    pub fn recent(&self) -> String {
        self.recent.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// The exit status if the process has ended (waiting `grace` at most).
    pub fn exit_status(&mut self, grace: Duration) -> Option<String> {
        let end = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => {
                    use std::os::unix::process::ExitStatusExt;
                    return Some(match (st.code(), st.signal()) {
                        (Some(c), _) => format!("exit status {c}"),
                        (None, Some(s)) => format!("killed by signal {s}"),
                        _ => st.to_string(),
                    });
                }
                Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Asks the engine to quit, waits a little, then kills it.
    pub fn quit(mut self, quit_line: &str) {
        if self.send(quit_line) {
            self.stdin = None;
            if self.exit_status(Duration::from_millis(500)).is_some() {
                return;
            }
        }
        self.kill();
    }

    /// Kills the engine and everything it started (its process group).
    pub fn kill(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let group = format!("-{}", self.child.id());
            let _ = Command::new("kill")
                .args(["-KILL", "--", &group])
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        super::reaper::remove(self.child.id());
    }

    /// The process id (for tests and logs).
    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin = None;
        if self.exit_status(Duration::from_millis(100)).is_none() {
            self.kill();
        }
        super::reaper::remove(self.child.id());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split() {
        assert_eq!(
            split_command("/usr/games/sjaakii ../x/sjaak-cwda.txt").unwrap(),
            vec!["/usr/games/sjaakii", "../x/sjaak-cwda.txt"]
        );
        assert_eq!(
            split_command(r#"a "b c" 'd e' f\ g"#).unwrap(),
            vec!["a", "b c", "d e", "f g"]
        );
        assert_eq!(split_command("a ''").unwrap(), vec!["a", ""]);
        assert!(split_command("a \"b").is_err());
    }

    #[test]
    fn talk_to_cat() {
        let l = Launch {
            program: "cat".into(),
            ..Default::default()
        };
        let mut p = Process::spawn(&l, "cat").unwrap();
        assert!(p.send("hello"));
        match p.recv(Instant::now() + Duration::from_secs(5)) {
            Recv::Line(s, _) => assert_eq!(s, "hello"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            p.recv(Instant::now() + Duration::from_millis(20)),
            Recv::Timeout
        );
        assert!(p.recent().contains("> hello"));
        p.kill();
        assert_eq!(p.recv(Instant::now() + Duration::from_secs(5)), Recv::Eof);
    }
}
