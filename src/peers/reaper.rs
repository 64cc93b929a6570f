//! Engines die with Chimera. Every engine runs in its own process group;
//! the groups still running are listed here. When the program that
//! started them (`chimera gui`, `chimera match`) is stopped by a signal
//! (Ctrl-C, `kill`, a closed terminal), one thread receives the signal,
//! kills every listed group and exits: an engine that ignores the end of
//! its input (4pchess spins on) would otherwise run on, orphaned.
//!
//! Uses `libc` (pthread_sigmask, sigwait): the standard library has no
//! signal API.

use std::sync::Mutex;

static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Lists a running engine's process group.
pub fn add(group: u32) {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(group);
}

/// Takes a group off the list (the engine was killed or has exited).
pub fn remove(group: u32) {
    GROUPS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|&g| g != group);
}

/// Kills every listed group.
fn kill_all() {
    let groups = std::mem::take(&mut *GROUPS.lock().unwrap_or_else(|e| e.into_inner()));
    for g in groups {
        // SAFETY: kill(2) with a negative pid signals a process group; it
        // touches no memory of ours.
        unsafe {
            libc::kill(-(g as libc::pid_t), libc::SIGKILL);
        }
    }
}

/// Call before starting any other thread: SIGINT, SIGTERM and SIGHUP are
/// blocked in every thread of the program and taken by one thread that
/// kills the engines and exits with 128 + the signal's number. (Engines
/// start with no signal blocked: `std::process::Command` clears the mask
/// in the child.)
pub fn kill_engines_on_signals() {
    // SAFETY: the sigset is initialised by sigemptyset before use, and
    // pthread_sigmask / sigwait only read it.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, s);
        }
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            log::warn!("cannot block signals: engines may outlive an interrupted run");
            return;
        }
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let mut sig: libc::c_int = 0;
                if libc::sigwait(&set, &mut sig) == 0 {
                    kill_all();
                    std::process::exit(128 + sig);
                }
            });
        if spawned.is_err() {
            // no thread to take them: let the signals end the program again
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}
