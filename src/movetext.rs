//! PGN and PGN4 text, read once for every family and every reader (the
//! match runner's opening files, the board's records, `analyse --pgn4`):
//! a text's games, each its tag pairs and its movetext, and the move tokens
//! of a movetext with comments, variations, annotation glyphs, move
//! numbers and results left out. What a token means is the game's to say.
//! And two-player PGN written once (the match runner's games, the board's
//! records): tag lines and numbered, wrapped movetext (PGN4 is written by
//! `fourplayer::pgn4`).

/// One game of a text: its tag pairs, in order, and its movetext.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    pub tags: Vec<(String, String)>,
    pub movetext: String,
    /// the line (from 1) the game starts on
    pub line: usize,
}

impl GameText {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag(&self.tags, name)
    }

    /// Whether the game holds nothing: no tags, no moves.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.movetext.trim().is_empty()
    }
}

/// A tag pair as PGN writes it, `[Name "value"]` and a newline, with `\`
/// and `"` in the value escaped.
pub fn tag_line(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// Two-player movetext: `moves` (SAN, and a comment or none) numbered from
/// `number` (`black`: Black moves first, `N...`), `empty` (a comment) where
/// there is no move, then the result; lines of at most 80 characters (a
/// longer token stands alone); ends with a newline.
pub fn write_moves(
    number: usize,
    black: bool,
    moves: &[(String, Option<String>)],
    empty: Option<&str>,
    result: &str,
) -> String {
    let comment = |c: &str| format!("{{{}}}", c.replace('}', ")"));
    let (mut number, mut black) = (number, black);
    let mut tokens: Vec<String> = Vec::new();
    for (i, (san, note)) in moves.iter().enumerate() {
        if !black {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.clone());
        if let Some(c) = note {
            tokens.push(comment(c));
        }
        if black {
            number += 1;
        }
        black = !black;
    }
    if let Some(c) = empty.filter(|_| moves.is_empty()) {
        tokens.push(comment(c));
    }
    tokens.push(result.to_string());
    let mut out = String::new();
    let mut line = String::new();
    for tok in tokens {
        if !line.is_empty() && line.len() + 1 + tok.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&tok);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A tag pair `[Name "value"]` (`\"` in the value is a quote, `\\` a
/// backslash).
fn tag_pair(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| format!("bad tag line '{}'", clip(line)))?;
    let (name, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("bad tag line '{}'", clip(line)))?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| format!("tag {}: the value must be quoted", clip(name)))?;
    Ok((name.to_string(), unescape(value)))
}

/// A tag value's text: `\"` is a quote, `\\` a backslash.
fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(n @ ('"' | '\\'))) => {
                out.push(n);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}

/// The value of the tag `name` among `tags` (name, value), if given.
pub fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The games of a text: tag pairs, then movetext; a tag pair after a
/// game's moves starts the next game. A line that starts with `[` inside
/// the moves of a game that has none yet is a tag pair. Errors name the
/// line.
pub fn games(text: &str) -> Result<Vec<GameText>, String> {
    let mut out = Vec::new();
    let mut cur = GameText {
        line: 1,
        ..Default::default()
    };
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.starts_with('[') {
            if !cur.movetext.trim().is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if cur.tags.is_empty() {
                cur.line = i + 1;
            }
            cur.tags
                .push(tag_pair(l).map_err(|e| format!("line {}: {e}", i + 1))?);
        } else {
            if cur.is_empty() && !l.is_empty() {
                cur.line = i + 1;
            }
            cur.movetext.push_str(line);
            cur.movetext.push('\n');
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

/// Whether a token is a game's result: `1-0`, `0-1`, `1/2-1/2`, `*`, or a
/// Free-For-All score of four numbers (`20-5-13-0`).
fn is_result(t: &str) -> bool {
    let parts: Vec<&str> = t.split('-').collect();
    ["1-0", "0-1", "1/2-1/2", "*"].contains(&t)
        || (parts.len() == 4
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
}

/// A token without its move number (`1.`, `12...Nf6`, PGN4's `..`), or
/// None if nothing is left or it is no move (a result, a glyph `$1`).
fn move_token(t: &str) -> Option<String> {
    if is_result(t) {
        return None;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let t = if t[digits..].starts_with('.') || digits == t.len() {
        t[digits..].trim_start_matches('.')
    } else {
        t
    };
    let t = t.trim_start_matches('.');
    (!t.is_empty() && !t.starts_with('$') && !is_result(t)).then(|| t.to_string())
}

/// The move tokens of a movetext: `{comments}`, `; comments`, `(variations)`
/// (nested), glyphs, move numbers and results left out; tag-pair lines
/// are skipped. An unbalanced `)` or an unclosed comment or variation is
/// an error.
pub fn tokens(movetext: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_comment = false;
    let mut word = String::new();
    let mut flush = |w: &mut String| {
        if let Some(t) = move_token(&std::mem::take(w)) {
            out.push(t);
        }
    };
    for line in movetext.lines() {
        if !in_comment && depth == 0 && line.trim_start().starts_with('[') {
            continue;
        }
        for c in line.chars() {
            match c {
                _ if in_comment => in_comment = c != '}',
                '{' => {
                    flush(&mut word);
                    in_comment = true;
                }
                ';' => break,
                '(' => {
                    flush(&mut word);
                    depth += 1;
                }
                ')' => {
                    depth = depth
                        .checked_sub(1)
                        .ok_or("a ')' without its '(' in the moves")?;
                }
                _ if depth > 0 => {}
                c if c.is_whitespace() => flush(&mut word),
                c => word.push(c),
            }
        }
        flush(&mut word);
    }
    if in_comment || depth > 0 {
        return Err("a comment or variation is not closed".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_movetext_written_read_back() {
        let name = r#"Ch"im\era \"x"#;
        let text = format!(
            "{}\n{}",
            tag_line("White", name),
            write_moves(
                7,
                true,
                &[
                    ("e5".into(), Some("+0.31/9 1s}".into())),
                    ("Nf3".into(), None)
                ],
                None,
                "*"
            )
        );
        let g = games(&text).unwrap();
        assert_eq!(g[0].tag("White"), Some(name));
        assert_eq!(tokens(&g[0].movetext).unwrap(), ["e5", "Nf3"]);
        assert!(text.contains("7... e5 {+0.31/9 1s)} 8. Nf3 *"), "{text}");
        let long: Vec<(String, Option<String>)> =
            (0..40).map(|_| ("Qxe7+".to_string(), None)).collect();
        let moves = write_moves(1, false, &long, None, "1-0");
        assert!(
            moves.lines().all(|l| l.len() <= 80) && moves.lines().count() > 3,
            "{moves}"
        );
        assert_eq!(
            write_moves(1, false, &[], Some("White resigns"), "0-1"),
            "{White resigns} 0-1\n"
        );
    }

    #[test]
    fn moves_of_both_families() {
        let pgn = "[Event \"x\"]\n[FEN \"a \\\"b\\\"\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3) 2.Nf3 $1 Nc6 ; rest\n3. O-O 0-0 12...Nf6 1-0\n";
        let g = games(pgn).unwrap();
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].tag("FEN"), Some("a \"b\""));
        assert_eq!(
            tokens(&g[0].movetext).unwrap(),
            ["e4", "e5", "Nf3", "Nc6", "O-O", "0-0", "Nf6"]
        );
        let pgn4 = "[Variant \"FFA\"]\n1. h2-h3 .. b7-c7 .. R .. T\n2. Qg1xd4+ 20-5-13-0";
        let g = games(pgn4).unwrap();
        assert_eq!(
            tokens(&g[0].movetext).unwrap(),
            ["h2-h3", "b7-c7", "R", "T", "Qg1xd4+"]
        );
    }

    #[test]
    fn games_and_errors() {
        let two = "[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n";
        let g = games(two).unwrap();
        assert_eq!((g.len(), g[1].line), (2, 4));
        assert!(games("[Event a]").unwrap_err().contains("line 1"));
        assert!(games("[Event]").is_err());
        assert!(tokens("1. e4 )").is_err());
        assert!(tokens("1. e4 {open").is_err());
        assert!(tokens("1. e4 (e5").is_err());
        assert!(games("\n  \n").unwrap().is_empty());
    }
}
