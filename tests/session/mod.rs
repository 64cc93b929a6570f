//! A scripted protocol session with the built binary: send lines, wait for
//! an expected line with a timeout (a hung engine fails the test instead of
//! hanging CI), and see everything the engine said when something fails.
//!
//! `CHIMERA_BIN=/path/to/chimera` runs the sessions against another build,
//! e.g. an older one, to see a test fail there.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, channel};
use std::time::{Duration, Instant};

pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// every line the engine printed so far
    pub log: Vec<String>,
    /// lines received but not yet consumed by `expect`
    pending: Vec<String>,
}

/// The engine binary under test: this build, or `CHIMERA_BIN`.
pub fn engine() -> String {
    std::env::var("CHIMERA_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_chimera").to_string())
}

impl Session {
    pub fn start() -> Session {
        Session::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Session {
        let mut cmd = Command::new(engine());
        cmd.args(args);
        Session::start_command(cmd)
    }

    /// The engine with at most `kb` kilobytes of address space (`ulimit
    /// -v`), as on a machine with little memory.
    pub fn start_with_memory_limit(kb: u64) -> Session {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("ulimit -v {kb} && exec \"$0\""))
            .arg(engine());
        Session::start_command(cmd)
    }

    /// Starts a command that runs the engine.
    pub fn start_command(mut cmd: Command) -> Session {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Session {
            child,
            stdin,
            rx,
            log: Vec::new(),
            pending: Vec::new(),
        }
    }

    pub fn send(&mut self, s: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{s}").expect("write to the engine");
        stdin.flush().unwrap();
        self.log.push(format!(">> {}", clip(s)));
    }

    /// Sends raw bytes (no newline added).
    pub fn send_raw(&mut self, b: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(b).expect("write to the engine");
        stdin.flush().unwrap();
    }

    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        if !self.pending.is_empty() {
            return Some(self.pending.remove(0));
        }
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        match self.rx.recv_timeout(deadline - now) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    fn fail(&self, what: &str) -> ! {
        let tail: Vec<&String> = self.log.iter().rev().take(60).collect();
        let mut s = String::new();
        for l in tail.into_iter().rev() {
            s.push_str(l);
            s.push('\n');
        }
        panic!("{what}\n--- session (last lines) ---\n{s}");
    }

    /// Reads lines until one satisfies `pred`; returns all lines read,
    /// the matching one last. Fails after `secs` seconds.
    pub fn until(&mut self, secs: u64, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut seen = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(l) => {
                    let hit = pred(&l);
                    seen.push(l);
                    if hit {
                        return seen;
                    }
                }
                None => self.fail(&format!("timed out after {secs} s waiting for {what}")),
            }
        }
    }

    /// The lines the engine has printed by now, without waiting.
    pub fn drain(&mut self) -> Vec<String> {
        let mut v: Vec<String> = std::mem::take(&mut self.pending);
        loop {
            match self.rx.try_recv() {
                Ok(l) => {
                    self.log.push(l.clone());
                    v.push(l);
                }
                Err(TryRecvError::Empty) | Err(TryRecvError::Disconnected) => return v,
            }
        }
    }

    /// Waits for a line starting with `prefix`; returns it.
    pub fn expect(&mut self, prefix: &str, secs: u64) -> String {
        let p = prefix.to_string();
        self.until(
            secs,
            &format!("a line starting with '{prefix}'"),
            move |l| l.starts_with(&p),
        )
        .pop()
        .unwrap()
    }

    /// Lines printed in answer to the commands sent so far, up to the
    /// answer of a synchronising command (`isready` or `ping`), which this
    /// sends.
    pub fn sync_uci(&mut self, secs: u64) -> Vec<String> {
        self.send("isready");
        let mut v = self.until(secs, "readyok", |l| l == "readyok");
        v.pop();
        v
    }

    pub fn sync_xboard(&mut self, n: u32, secs: u64) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let want = format!("pong {n}");
        let mut v = self.until(secs, &want, |l| l == want);
        v.pop();
        v
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes stdin (EOF for the engine).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to end.
    pub fn wait_exit(&mut self, secs: u64) -> ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(st) = self.child.try_wait().expect("wait for the engine") {
                return st;
            }
            if Instant::now() >= deadline {
                self.fail(&format!("the engine did not exit within {secs} s"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn clip(s: &str) -> String {
    if s.len() > 200 {
        let head: String = s.chars().take(200).collect();
        format!("{head}... ({} bytes)", s.len())
    } else {
        s.to_string()
    }
}
