//! Boards as text: the piece-placement field of a FEN (`*` for holes,
//! multi-digit empty counts), read against a variant's shape and letters.

use super::{BLACK, VariantSpec, WHITE};
use crate::geometry::Shape;

/// A board read from a FEN's first field: per square, (colour, type).
pub type Board = Vec<Option<(usize, usize)>>;

/// Reads the piece-placement field against a variant's shape and letters.
pub fn parse_board(fen: &str, spec: &VariantSpec) -> Result<Board, String> {
    let field = fen.split_whitespace().next().unwrap_or("");
    parse_placement(field, &spec.shape, |c| {
        spec.piece_index(c.to_ascii_uppercase())
    })
}

fn parse_placement(
    field: &str,
    shape: &Shape,
    letter: impl Fn(char) -> Option<usize>,
) -> Result<Board, String> {
    if field.is_empty() {
        return Err("empty FEN".into());
    }
    let mut board = vec![None; shape.num_squares()];
    let words = Words {
        field: "FEN",
        rows: "ranks",
        hole: "a hole",
        not_hole: "which is not a hole",
    };
    walk_rows(field, shape, &words, fen_cells, |text, sq| {
        let c = text.chars().next().unwrap_or(' ');
        let t = letter(c).ok_or_else(|| format!("unknown piece letter '{c}'"))?;
        let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
        board[sq] = Some((color, t));
        Ok(())
    })?;
    Ok(board)
}

/// A cell of a board row: a count of empty squares, a hole's marker, or
/// a piece's text.
pub enum Cell<'a> {
    Empty(&'a str),
    Hole(&'a str),
    Piece(&'a str),
}

/// The words of a format's messages.
pub struct Words {
    /// the field ("FEN") and what its parts are called ("ranks")
    pub field: &'static str,
    pub rows: &'static str,
    /// a square off the board, and why a marker may not stand somewhere
    pub hole: &'static str,
    pub not_hole: &'static str,
}

/// A FEN row's cells: digit runs, `*` (a hole), one letter a piece.
fn fen_cells(row: &str) -> Result<Vec<Cell<'_>>, String> {
    let mut out = Vec::new();
    let bytes = row.as_bytes();
    let mut j = 0;
    while j < row.len() {
        let start = j;
        if bytes[j].is_ascii_digit() {
            while j < row.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            out.push(Cell::Empty(&row[start..j]));
            continue;
        }
        let len = row[j..].chars().next().map_or(1, char::len_utf8);
        j += len;
        let text = &row[start..j];
        out.push(if text == "*" {
            Cell::Hole(text)
        } else {
            Cell::Piece(text)
        });
    }
    Ok(out)
}

/// Walks a placement field of every family (rows from the top, split into
/// cells by `cells`) against `shape`: counts, holes and row lengths are
/// checked here, each piece is handed to `put` with its square. Errors
/// name the rank (and `put`'s are prefixed with it).
pub fn walk_rows<'a>(
    field: &'a str,
    shape: &Shape,
    words: &Words,
    cells: impl Fn(&'a str) -> Result<Vec<Cell<'a>>, String>,
    mut put: impl FnMut(&'a str, usize) -> Result<(), String>,
) -> Result<(), String> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != shape.ranks {
        return Err(format!(
            "{} has {} {}, expected {}",
            words.field,
            rows.len(),
            words.rows,
            shape.ranks
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = shape.ranks - 1 - i;
        let r = rank + 1;
        let mut file = 0usize;
        for cell in cells(row).map_err(|e| format!("rank {r}: {e}"))? {
            if let Cell::Empty(digits) = cell {
                let n: usize = match digits.parse() {
                    Ok(n) if n >= 1 && n <= shape.files && !digits.starts_with('0') => n,
                    _ => return Err(format!("rank {r}: bad empty-square count '{digits}'")),
                };
                file += n;
                if file > shape.files {
                    break;
                }
                continue;
            }
            if file >= shape.files {
                file += 1;
                break;
            }
            let name = format!("{}{r}", (b'a' + file as u8) as char);
            match cell {
                Cell::Hole(text) if !shape.is_hole(file, rank) => {
                    return Err(format!("rank {r}: '{text}' on {name}, {}", words.not_hole));
                }
                Cell::Piece(text) => {
                    let sq = shape.square(file as i32, rank as i32).ok_or_else(|| {
                        format!("rank {r}: piece '{text}' on {} ({name})", words.hole)
                    })?;
                    put(text, sq).map_err(|e| format!("rank {r}: {e}"))?;
                }
                _ => {}
            }
            file += 1;
        }
        if file != shape.files {
            return Err(format!(
                "rank {r} has {} squares, expected {}",
                file, shape.files
            ));
        }
    }
    Ok(())
}
