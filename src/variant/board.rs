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
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != shape.ranks {
        return Err(format!(
            "FEN has {} ranks, expected {}",
            rows.len(),
            shape.ranks
        ));
    }
    let mut board = vec![None; shape.num_squares()];
    for (i, row) in rows.iter().enumerate() {
        let rank = shape.ranks - 1 - i;
        let rank_name = rank + 1;
        let mut file = 0usize;
        let chars: Vec<char> = row.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                let start = j;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                let digits: String = chars[start..j].iter().collect();
                let n: usize = match digits.parse() {
                    Ok(n) if n >= 1 && n <= shape.files && !digits.starts_with('0') => n,
                    _ => {
                        return Err(format!(
                            "rank {rank_name}: bad empty-square count '{digits}'"
                        ));
                    }
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
            if c == '*' {
                if !shape.is_hole(file, rank) {
                    return Err(format!(
                        "rank {rank_name}: '*' on {}{rank_name}, which is not a hole",
                        (b'a' + file as u8) as char
                    ));
                }
            } else {
                let t = letter(c)
                    .ok_or_else(|| format!("rank {rank_name}: unknown piece letter '{c}'"))?;
                let sq = shape.square(file as i32, rank as i32).ok_or_else(|| {
                    format!(
                        "rank {rank_name}: piece '{c}' on a hole ({}{rank_name})",
                        (b'a' + file as u8) as char
                    )
                })?;
                let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                board[sq] = Some((color, t));
            }
            file += 1;
            j += 1;
        }
        if file != shape.files {
            return Err(format!(
                "rank {rank_name} has {} squares, expected {}",
                file, shape.files
            ));
        }
    }
    Ok(board)
}
