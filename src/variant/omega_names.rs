//! Omega Chess's two sets of square names (RULES.md, Omega Chess).
//!
//! - **Native** names, the game's own: files `a`-`j`, ranks `0`-`9`
//!   (White's back rank is rank 0), and the wizard squares `w1` (beyond
//!   a0), `w2` (beyond j0), `w3` (beyond j9), `w4` (beyond a9).
//! - **Frame** names, the engine's (and XBoard's, Sjaak II's): a 12x12
//!   frame, files `a`-`l`, ranks `1`-`12`; the 10x10 board is `b2`-`k11`
//!   (native a0 = b2, j9 = k11), the wizard squares are the corners
//!   (w1 = a1, w2 = l1, w3 = l12, w4 = a12), every other border square is
//!   a hole.
//!
//! The engine, its FEN and its records use frame names; these functions
//! translate squares and whole move tokens (SAN or coordinates) both ways,
//! and tell which of the two a movetext uses. The page's JavaScript
//! (`label`/`labelText` in gui/assets/app.js) shows frame names natively
//! the same way.

/// The wizard squares: (frame name, native name).
pub const WIZARDS: [(&str, &str); 4] = [("a1", "w1"), ("l1", "w2"), ("l12", "w3"), ("a12", "w4")];

/// Which names a record's moves use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coordinates {
    /// the engine's 12x12 frame: `a1`-`l12`
    Frame,
    /// the game's own: `a0`-`j9`, `w1`-`w4`
    Native,
}

impl Coordinates {
    /// Reads the value of a `[Coordinates]` tag: `native` or `frame`
    /// (any case); None for anything else.
    pub fn from_tag(value: &str) -> Option<Coordinates> {
        match value.trim().to_ascii_lowercase().as_str() {
            "native" => Some(Coordinates::Native),
            "frame" => Some(Coordinates::Frame),
            _ => None,
        }
    }
}

/// A name's file letter and its rank digits, if it is one lower-case ASCII
/// letter followed by one or more digits (nothing else).
fn split(name: &str) -> Option<(u8, &str)> {
    let b = name.as_bytes();
    let (&f, digits) = b.split_first()?;
    (f.is_ascii_lowercase() && !digits.is_empty() && digits.iter().all(u8::is_ascii_digit))
        .then(|| (f, &name[1..]))
}

/// A frame square as (file 0-11, rank 1-12), if `name` names one of the
/// frame's 144 squares (holes included); ranks without leading zeros.
fn frame_square(name: &str) -> Option<(u8, u8)> {
    let (f, digits) = split(name)?;
    if digits.starts_with('0') || digits.len() > 2 {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    ((b'a'..=b'l').contains(&f) && (1..=12).contains(&rank)).then_some((f - b'a', rank))
}

/// The native name of a frame square: `b2` -> `a0`, `k11` -> `j9`, `a1` ->
/// `w1`, `l12` -> `w3`. None for a hole (`b1`, `a2`) or no frame square.
pub fn frame_to_native(name: &str) -> Option<String> {
    let (file, rank) = frame_square(name)?;
    if let Some((_, w)) = WIZARDS.iter().find(|(f, _)| *f == name) {
        return Some(w.to_string());
    }
    ((1..=10).contains(&file) && (2..=11).contains(&rank))
        .then(|| format!("{}{}", (b'a' + file - 1) as char, rank - 2))
}

/// The frame name of a native square: `a0` -> `b2`, `j9` -> `k11`, `w1` ->
/// `a1`, `w3` -> `l12`. None for anything else (`k5`, `a10`, `w5`).
pub fn native_to_frame(name: &str) -> Option<String> {
    if let Some((f, _)) = WIZARDS.iter().find(|(_, w)| *w == name) {
        return Some(f.to_string());
    }
    let (f, digits) = split(name)?;
    if digits.len() != 1 || !(b'a'..=b'j').contains(&f) {
        return None;
    }
    let rank = digits.as_bytes()[0] - b'0';
    Some(format!("{}{}", (f + 1) as char, rank + 2))
}

/// Rewrites the squares and lone files of a move token. A square is a
/// lower-case letter and the digits after it, replaced by `square(..)`
/// where that gives a name; a lone lower-case letter followed by `x` or by
/// a square is a file (SAN's `Nbd2`, `exd5`), replaced by `file(..)` where
/// that gives one. Everything else stays: upper-case piece letters, `x`,
/// `-`, `=`, `+`, `#`, castling, and a trailing promotion letter
/// (`e8e9q`), which is followed by no square.
fn rewrite(
    token: &str,
    square: impl Fn(&str) -> Option<String>,
    file: impl Fn(u8) -> Option<u8>,
) -> String {
    let b = token.as_bytes();
    let mut out = String::with_capacity(token.len() + 2);
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_lowercase() {
            // copy one character, whole (the token may hold non-ASCII)
            let c = token[i..].chars().next().expect("i is on a char boundary");
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let end = i + 1 + b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if end > i + 1 {
            let name = &token[i..end];
            out.push_str(&square(name).unwrap_or_else(|| name.to_string()));
        } else {
            let next = b.get(i + 1).copied();
            let square_follows = next.is_some_and(|c| c.is_ascii_lowercase())
                && b.get(i + 2).is_some_and(u8::is_ascii_digit);
            let is_file = next == Some(b'x') || square_follows;
            match file(b[i]).filter(|_| is_file) {
                Some(f) => out.push(f as char),
                None => out.push(b[i] as char),
            }
        }
        i = end;
    }
    out
}

/// A move token in native names rewritten in frame names: `Nc3` -> `Nd5`,
/// `e1e4` -> `f3f6`, `Wxw1` -> `Wxa1`, `b8b9c` -> `c10c11c`, `Nbd2` ->
/// `Nce4`, `exd5=Q` -> `fxe7=Q`, `O-O` unchanged. Names that are no native
/// square (`k5`, `e10`) are left as written.
pub fn native_to_frame_text(token: &str) -> String {
    rewrite(token, native_to_frame, |f| {
        (b'a'..=b'j').contains(&f).then_some(f + 1)
    })
}

/// A move token in frame names rewritten in native names, the reverse of
/// [`native_to_frame_text`]: `Nd5` -> `Nc3`, `f3f6` -> `e1e4`, `Wxa1` ->
/// `Wxw1`, `Nce4` -> `Nbd2`, `f10f11q` -> `e8e9q`. As in
/// the page's `labelText`, a lone file `a` or `l` (the files of the wizard
/// squares only) stays; a hole's name stays too.
pub fn frame_to_native_text(token: &str) -> String {
    rewrite(token, frame_to_native, |f| {
        (b'b'..=b'k').contains(&f).then_some(f - 1)
    })
}

/// Which names a movetext's tokens use, by the squares only one set has:
/// native if some token names rank 0 (`e0`) or a wizard square `w1`-`w4`,
/// frame if some token names file `k` or `l` or rank 10-12. None when
/// neither kind of square appears, or both do.
pub fn guess<S: AsRef<str>>(tokens: &[S]) -> Option<Coordinates> {
    let (mut native, mut frame) = (false, false);
    for t in tokens {
        let b = t.as_ref().as_bytes();
        let mut i = 0;
        while i < b.len() {
            let end = i + 1 + b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if b[i].is_ascii_lowercase() && end > i + 1 {
                let name = &t.as_ref()[i..end];
                if native_to_frame(name).is_some() && frame_square(name).is_none() {
                    native = true;
                }
                if frame_square(name).is_some() && native_to_frame(name).is_none() {
                    frame = true;
                }
            }
            i = end;
        }
    }
    match (native, frame) {
        (true, false) => Some(Coordinates::Native),
        (false, true) => Some(Coordinates::Frame),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn omega_names_squares_round_trip() {
        // the 100 board squares: files a-j and ranks 0-9, frame b-k and 2-11
        let mut natives = Vec::new();
        for f in "abcdefghij".chars() {
            for r in 0..10 {
                natives.push(format!("{f}{r}"));
            }
        }
        natives.extend(["w1", "w2", "w3", "w4"].map(String::from));
        assert_eq!(natives.len(), 104);
        let mut frames = std::collections::HashSet::new();
        for n in &natives {
            let f = native_to_frame(n).unwrap_or_else(|| panic!("{n} has a frame name"));
            assert_eq!(
                frame_to_native(&f).as_deref(),
                Some(n.as_str()),
                "{n} -> {f}"
            );
            frames.insert(f);
        }
        assert_eq!(
            frames.len(),
            104,
            "no two native squares share a frame square"
        );
        // of the frame's 144 squares exactly those 104 have native names
        let mut named = 0;
        for f in "abcdefghijkl".chars() {
            for r in 1..=12 {
                if let Some(n) = frame_to_native(&format!("{f}{r}")) {
                    named += 1;
                    assert_eq!(native_to_frame(&n), Some(format!("{f}{r}")));
                }
            }
        }
        assert_eq!(named, 104);
    }

    #[test]
    fn omega_names_examples_and_holes() {
        for (frame, native) in [
            ("b2", "a0"),
            ("k11", "j9"),
            ("k2", "j0"),
            ("b11", "a9"),
            ("f3", "e1"),
            ("a1", "w1"),
            ("l1", "w2"),
            ("l12", "w3"),
            ("a12", "w4"),
        ] {
            assert_eq!(frame_to_native(frame).as_deref(), Some(native), "{frame}");
            assert_eq!(native_to_frame(native).as_deref(), Some(frame), "{native}");
        }
        // holes and non-squares of the frame
        for bad in [
            "b1", "a2", "l11", "k12", "a13", "m5", "b02", "b", "", "B2", "b2x",
        ] {
            assert_eq!(frame_to_native(bad), None, "{bad}");
        }
        // no native square
        for bad in ["k5", "e10", "w0", "w5", "a", "", "E4", "e-1", "x4"] {
            assert_eq!(native_to_frame(bad), None, "{bad}");
        }
    }

    #[test]
    fn omega_names_move_tokens() {
        for (native, frame) in [
            ("Nc3", "Nd5"),
            ("e1e4", "f3f6"),
            ("e4", "f6"),
            ("Wxw1", "Wxa1"),
            ("Ww1a2", "Wa1b4"),
            ("b9=Q", "c11=Q"),
            ("b8b9c", "c10c11c"),
            ("e8e9q", "f10f11q"),
            ("a8a9b", "b10b11b"),
            ("Nbd2", "Nce4"),
            ("Rae1", "Rbf3"),
            ("exd5", "fxe7"),
            ("Nbxd2+", "Ncxe4+"),
            ("Qj9#", "Qk11#"),
            ("f0h0", "g2i2"),
            ("e1-e4", "f3-f6"),
            ("Ce0", "Cf2"),
            ("O-O", "O-O"),
            ("O-O-O+", "O-O-O+"),
            ("0-0", "0-0"),
        ] {
            assert_eq!(native_to_frame_text(native), frame, "{native}");
            assert_eq!(frame_to_native_text(frame), native, "{frame}");
        }
        // what is no square of the other set stays as written
        assert_eq!(native_to_frame_text("k5e10"), "k5e10");
        assert_eq!(frame_to_native_text("b1a2"), "b1a2");
        // the page's labelText leaves the files of the wizard squares alone
        assert_eq!(frame_to_native_text("Qaa2"), "Qaa2");
    }

    #[test]
    fn omega_names_guess_and_tag() {
        let g = |t: &[&str]| guess(t);
        assert_eq!(g(&["e4", "e6", "Ce0"]), Some(Coordinates::Native));
        assert_eq!(g(&["e4", "Wxw1"]), Some(Coordinates::Native));
        assert_eq!(g(&["f3f6", "f10f8"]), Some(Coordinates::Frame));
        assert_eq!(g(&["Nk5"]), Some(Coordinates::Frame));
        assert_eq!(g(&["l1k2"]), Some(Coordinates::Frame));
        assert_eq!(g(&["e4", "Nc3", "O-O", "0-0"]), None, "no telling square");
        assert_eq!(g(&["e0", "e10"]), None, "both kinds: no guess");
        assert_eq!(guess::<&str>(&[]), None);
        assert_eq!(Coordinates::from_tag("Native"), Some(Coordinates::Native));
        assert_eq!(Coordinates::from_tag(" frame "), Some(Coordinates::Frame));
        assert_eq!(Coordinates::from_tag("engine"), None);
    }
}
