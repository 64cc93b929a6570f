//! The four-player game as the shared alpha-beta sees it (`SearchPosition`).
//!
//! - Teams: the teams alternate every ply (Red, Blue, Yellow, Green), so
//!   the search is plain negamax over the two teams.
//! - Free-For-All, paranoid: the root player against a coalition of the
//!   others, who all minimise its utility; several coalition plies follow
//!   each other, where the search does not negate.
//! - Free-For-All, best reply (BRS): after each root move only the single
//!   strongest reply of any one opponent is searched (the others pass),
//!   so the root player moves every second ply and the search sees deeper.
//!
//! In Free-For-All a player without moves is taken out (checkmated: the
//! mating player scores 20) by a pseudo-move from its King's square to
//! itself, and the game's end (one player left, or a draw with +10 each)
//! is scored from the final points.

use arrayvec::ArrayVec;

use super::eval::{Eval4, POINT_CP, evaluate_teams, evaluate_teams_bounded, strengths, utility};
use super::game::{DRAW_POINTS, MATE_POINTS};
use super::position::Position4;
use super::variant::{KING, Mode, PAWN};
use super::{Bb, team};
use crate::bitboard::Bitboard;
use crate::params::Params;
use crate::position::movegen::GenType;
use crate::position::{Move, MoveKind, MoveList};
use crate::search::tree::SearchPosition;

/// How the search treats the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Teams: Red+Yellow against Blue+Green
    Teams,
    /// FFA: the root player against all others
    Paranoid,
    /// FFA: the root player against the best reply of any one opponent
    BestReply,
}

impl Objective {
    pub fn name(self) -> &'static str {
        match self {
            Objective::Teams => "teams",
            Objective::Paranoid => "paranoid",
            Objective::BestReply => "brs",
        }
    }
}

/// Bonus for an FFA game over in which the root player leads (or trails):
/// a final lead outweighs any material.
const FINAL_LEAD: i32 = 3000;

/// A four-player position under a search objective.
#[derive(Clone)]
pub struct Search4 {
    pub pos: Position4,
    pub objective: Objective,
    /// the player the FFA search is for
    pub root: usize,
    salt: u64,
    /// best reply: positions pushed per move (to unmake them all)
    pushed: ArrayVec<u8, 256>,
}

impl Search4 {
    pub fn new(pos: Position4, objective: Objective) -> Search4 {
        let objective = match (pos.mode(), objective) {
            (Mode::Teams, _) => Objective::Teams,
            (Mode::Ffa, Objective::Teams) => Objective::Paranoid,
            (_, o) => o,
        };
        let root = pos.side();
        let salt = match objective {
            Objective::Teams => 0,
            Objective::Paranoid => 0x5A5A_1234_9876_0001u64.wrapping_mul(root as u64 + 1),
            Objective::BestReply => 0xC3C3_4321_6789_0002u64.wrapping_mul(root as u64 + 1),
        };
        Search4 {
            pos,
            objective,
            root,
            salt,
            pushed: ArrayVec::new(),
        }
    }

    fn ffa_active(&self) -> u8 {
        let p = &self.pos;
        (0..4)
            .filter(|&q| !p.is_eliminated(q) && !p.has_resigned(q))
            .fold(0, |m, q| m | 1 << q)
    }

    /// Whether the side to move must leave the game (FFA: no legal move
    /// and in check, or a walking King that cannot move).
    fn must_leave(&self) -> bool {
        let p = &self.pos;
        p.mode() == Mode::Ffa && (p.in_check() || p.has_resigned(p.side()))
    }

    /// The pseudo-move that takes the side to move out.
    fn leave_move(&self) -> Move {
        let k = self.pos.king_square(self.pos.side());
        Move::normal(k, k)
    }

    fn is_leave(m: Move) -> bool {
        m.from() == m.to()
    }

    /// The player credited with a mate of the side to move: of those whose
    /// pieces check it, the one who moved most recently.
    fn mater(&self) -> Option<usize> {
        let p = &self.pos;
        let us = p.side();
        (1..4)
            .map(|k| (us + 4 - k) % 4)
            .find(|&q| (p.checkers() & p.color_bb(q)).any())
    }

    /// The root player's utility from final points (+10 each for a draw).
    fn final_utility(&self, draw: bool) -> i32 {
        let mut pts = self.pos.points();
        let active = self.ffa_active();
        for (q, v) in pts.iter_mut().enumerate() {
            if active & (1 << q) != 0 {
                *v += if draw { DRAW_POINTS } else { 0 };
            }
        }
        if !draw {
            // the last player standing collects the walking Kings
            let walking = (0..4)
                .filter(|&q| self.pos.has_resigned(q) && !self.pos.is_eliminated(q))
                .count() as i32;
            for (q, v) in pts.iter_mut().enumerate() {
                if active & (1 << q) != 0 {
                    *v += MATE_POINTS * walking;
                }
            }
        }
        let s: [i32; 4] = std::array::from_fn(|q| POINT_CP * pts[q]);
        let u = utility(&s, self.root);
        u + FINAL_LEAD * u.signum()
    }

    /// A score for the root player, seen from the side to move's team.
    fn for_side(&self, root_score: i32) -> i32 {
        if self.team() == 0 {
            root_score
        } else {
            -root_score
        }
    }

    fn ffa_draw(&self) -> bool {
        let p = &self.pos;
        let players = p.live_mask().count_ones().max(1);
        p.repetitions() >= 1
            || p.halfmove_clock() >= 50 * players
            || (p.players_bb(p.live_mask()) & !p.type_bb(KING)).is_empty()
    }
}

impl SearchPosition for Search4 {
    type Tables = Eval4;

    #[inline]
    fn side(&self) -> usize {
        self.pos.side()
    }
    fn sides(&self) -> usize {
        4
    }
    /// The four-player protocol puts the mover's clock first.
    fn clock(&self) -> usize {
        0
    }
    fn squares(&self) -> usize {
        self.pos.v.n
    }
    #[inline]
    fn team(&self) -> usize {
        match self.objective {
            Objective::Teams => team(self.pos.side()),
            _ => (self.pos.side() != self.root) as usize,
        }
    }
    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash() ^ self.salt
    }
    #[inline]
    fn in_check(&self) -> bool {
        if self.objective == Objective::BestReply && self.pos.side() != self.root {
            return false;
        }
        self.pos.in_check()
    }
    fn generate(&self, kind: GenType, list: &mut MoveList) {
        let p = &self.pos;
        if self.objective == Objective::BestReply
            && p.side() != self.root
            && !p.is_eliminated(self.root)
        {
            // every opponent's moves, as if it were its turn
            for q in 0..4 {
                if q != self.root && !p.is_eliminated(q) {
                    p.generate_for(q, kind, list);
                }
            }
            return;
        }
        let before = list.len();
        p.generate(kind, list);
        if list.len() == before && kind == GenType::All && self.must_leave() && !p.has_legal_move()
        {
            let _ = list.try_push(self.leave_move());
        }
    }
    #[inline]
    fn is_noisy(&self, m: Move) -> bool {
        Search4::is_leave(m) || self.pos.is_noisy(m)
    }
    #[inline]
    fn promotion(&self, m: Move) -> Option<usize> {
        Position4::promotion_of(m)
    }
    fn team_in_check(&self) -> bool {
        let p = &self.pos;
        if self.objective != Objective::Teams {
            return false;
        }
        let partner = (p.side() + 2) & 3;
        p.attackers(p.king_square(partner), p.occupied(), p.enemies(partner))
            .any()
    }

    /// The mover's pieces check an enemy King (a check by the mover is
    /// always new: its victim answered any older one on its own turn).
    fn gave_check(&self, m: Move) -> bool {
        if Search4::is_leave(m) {
            return false;
        }
        let p = &self.pos;
        let Some((mover, _)) = p.piece_at(m.to()) else {
            return false;
        };
        if mover > 3 {
            return false;
        }
        let occ = p.occupied();
        (0..4).any(|q| {
            q != mover
                && p.enemies(mover) & (1 << q) != 0
                && p.attackers(p.king_square(q), occ, 1 << mover).any()
        })
    }

    /// Also yes for every move while the next player is in check (by the
    /// mover's partner): any quiet move may then complete a mate, by taking
    /// the King's last square, so none is pruned as if it were harmless.
    fn gives_check(&self, m: Move) -> bool {
        if Search4::is_leave(m) {
            return true;
        }
        let p = &self.pos;
        let next = p.next_player(p.side());
        let next_in_check = next != p.side()
            && p.attackers(p.king_square(next), p.occupied(), p.enemies(next))
                .any();
        next_in_check || p.gives_check(m)
    }
    /// Teams: a capture that itself checks an enemy King (not every move
    /// made while the next player is in check, as `gives_check` counts).
    /// Free-For-All: none (with three enemies checking in turn, sparing
    /// them made some searches of fixed depth run for minutes).
    fn spared_in_qsearch(&self, m: Move) -> bool {
        self.objective == Objective::Teams && !Search4::is_leave(m) && self.pos.gives_check(m)
    }
    /// Teams: `four_qs_width` (0: no limit). Free-For-All: no limit.
    fn qsearch_width(&self, p: &Params) -> usize {
        match (self.objective, p.four_qs_width) {
            (Objective::Teams, w) if w > 0 => w as usize,
            _ => usize::MAX,
        }
    }
    /// Checks are frequent with three enemies: a path is extended only
    /// a few times.
    fn extension_budget(&self, p: &Params) -> u16 {
        p.four_ext_budget as u16
    }
    /// Teams with `four_lmp_div` > 0: `four_lmp_base + depth^2 /
    /// four_lmp_div` quiet moves at every depth, as 4pchess prunes.
    fn late_move_rule(&self, p: &Params) -> Option<(i32, i32)> {
        (self.objective == Objective::Teams && p.four_lmp_div > 0)
            .then_some((p.four_lmp_base, p.four_lmp_div))
    }
    fn make(&mut self, m: Move) {
        if Search4::is_leave(m) {
            let by = if self.pos.in_check() {
                self.mater()
            } else {
                None
            };
            let points = if by.is_some() { MATE_POINTS } else { 0 };
            self.pos.eliminate(by, points);
            let _ = self.pushed.try_push(1);
            return;
        }
        if self.objective == Objective::BestReply {
            let mover = self
                .pos
                .piece_at(m.from())
                .map(|(o, _)| o)
                .unwrap_or(self.pos.side());
            if mover != self.root {
                // an opponent's reply: it moves, then the root player again
                let mut n = 1;
                if self.pos.side() != mover {
                    self.pos.pass_to(mover);
                    n += 1;
                }
                self.pos.make(m);
                if self.pos.side() != self.root && !self.pos.is_eliminated(self.root) {
                    self.pos.pass_to(self.root);
                    n += 1;
                }
                let _ = self.pushed.try_push(n);
                return;
            }
        }
        self.pos.make(m);
        let _ = self.pushed.try_push(1);
    }
    fn unmake(&mut self) {
        let n = self.pushed.pop().unwrap_or(1);
        for _ in 0..n {
            self.pos.unmake();
        }
    }
    fn make_null(&mut self) {
        if self.objective == Objective::BestReply && self.pos.side() != self.root {
            self.pos.pass_to(self.root);
        } else {
            self.pos.make_null();
        }
        let _ = self.pushed.try_push(1);
    }
    fn unmake_null(&mut self) {
        self.unmake();
    }
    fn no_moves_score(&self, ply: usize) -> i32 {
        match self.objective {
            Objective::Teams => {
                if self.pos.in_check() {
                    crate::search::mated_in(ply)
                } else {
                    0
                }
            }
            // FFA: a stalemate ends the game as a draw
            _ => self.for_side(self.final_utility(true)),
        }
    }
    fn game_over_score(&self) -> Option<i32> {
        match self.objective {
            Objective::Teams => {
                let p = &self.pos;
                let draw = p.repetitions() >= 1
                    || p.halfmove_clock() >= 200
                    || (p.occupied() & !p.type_bb(KING) & !p.color_bb(super::DEAD)).is_empty();
                draw.then_some(0)
            }
            _ => {
                if self.ffa_active().count_ones() <= 1 {
                    Some(self.for_side(self.final_utility(false)))
                } else if self.ffa_draw() {
                    Some(self.for_side(self.final_utility(true)))
                } else {
                    None
                }
            }
        }
    }
    fn has_pieces(&self, side: usize) -> bool {
        let p = &self.pos;
        (p.color_bb(side) & !p.type_bb(PAWN) & !p.type_bb(KING)).any()
    }
    fn move_to_string(&self, m: Move) -> String {
        if Search4::is_leave(m) {
            "--".into()
        } else {
            self.pos.move_to_string(m)
        }
    }
    fn build_tables(&self, _: &Params) -> Eval4 {
        Eval4::new(&self.pos)
    }
    fn evaluate(&self, t: &Eval4, p: &Params) -> i32 {
        match self.objective {
            Objective::Teams => evaluate_teams(&self.pos, t, p),
            _ => {
                let s = strengths(&self.pos, t, p);
                self.for_side(utility(&s, self.root)) + p.tempo
            }
        }
    }
    fn evaluate_bounded(&self, t: &Eval4, p: &Params, alpha: i32, beta: i32) -> (i32, bool) {
        match self.objective {
            Objective::Teams => evaluate_teams_bounded(&self.pos, t, p, alpha, beta),
            _ => (self.evaluate(t, p), true),
        }
    }
    fn see_ge(&self, t: &Eval4, m: Move, threshold: i32) -> bool {
        if Search4::is_leave(m) {
            return true;
        }
        see_ge(&self.pos, t, m, threshold)
    }
    fn capture_value(&self, t: &Eval4, m: Move, _phase: usize) -> i32 {
        if Search4::is_leave(m) {
            return 0;
        }
        let on_target = self
            .pos
            .piece_at(m.to())
            .map(|(_, ty)| t.value[ty])
            .unwrap_or(0);
        if m.kind() == MoveKind::EnPassant {
            on_target + t.value[PAWN]
        } else {
            on_target
        }
    }
    fn promotion_value(&self, t: &Eval4, m: Move, _phase: usize) -> i32 {
        Position4::promotion_of(m).map(|p| t.value[p]).unwrap_or(0)
    }
    fn mover_value(&self, t: &Eval4, m: Move) -> i32 {
        self.pos
            .piece_at(m.from())
            .map(|(_, ty)| t.value[ty])
            .unwrap_or(0)
    }
    fn best_promotion_value(t: &Eval4) -> i32 {
        t.value[super::variant::QUEEN]
    }
}

/// Static exchange on a square. Teams: the players take their turns at the
/// square in turn order (the teams alternate), each with its own pieces, so
/// the first answer can only come from the next player. Free-For-All: only
/// the next player's answer is counted (the others may prefer to take each
/// other).
pub fn see_ge(pos: &Position4, t: &Eval4, m: Move, threshold: i32) -> bool {
    if m.kind() != MoveKind::Normal {
        return threshold <= 0 || m.kind() != MoveKind::Castle;
    }
    let value = |ty: usize| if ty == KING { 20000 } else { t.value[ty] };
    let (from, to) = (m.from(), m.to());
    let captured = pos.piece_at(to).map(|(_, ty)| value(ty)).unwrap_or(0);
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    let Some((us, mover)) = pos.piece_at(from) else {
        return false;
    };
    swap = value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ Bb::bit(from) ^ Bb::bit(to);
    let next = pos.next_player(us);
    if pos.mode() == Mode::Ffa {
        // the exchange is lost only if the next player can take back
        let answer = pos.attackers(to, occ, 1 << next) & occ;
        let king_only = (answer & !pos.type_bb(KING)).is_empty();
        let defended = (pos.attackers(to, occ, 1 << us) & occ).any();
        return answer.is_empty() || (king_only && defended);
    }
    // Teams: the players in turn order from the next one; `res` flips
    // with each capture, as in the two-player swap algorithm
    let mut player = next;
    let mut res = true;
    loop {
        let mine = pos.attackers(to, occ, 1 << player) & occ;
        if mine.is_empty() {
            break;
        }
        res = !res;
        let mut picked = None;
        for ty in [PAWN, 2, 3, 4, 5, KING] {
            let bb = mine & pos.type_bb(ty);
            if bb.any() {
                picked = Some((ty, bb.lsb()));
                break;
            }
        }
        let Some((ty, sq)) = picked else { break };
        if ty == KING {
            // a King takes only what nobody of the other team defends
            let other_team: u8 = 0b1010 >> team(player);
            if (pos.attackers(to, occ, other_team) & occ).any() {
                res = !res;
            }
            break;
        }
        swap = value(ty) - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= Bb::bit(sq);
        player = pos.next_player(player);
    }
    res
}
