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
//! mating player scores 20) by the move `Move::LEAVE`, and the game's end (one player left, or a draw with +10 each)
//! is scored from the final points.

use arrayvec::ArrayVec;

use super::eval::{Eval4, POINT_CP, evaluate_teams, evaluate_teams_bounded, ffa_utility, utility};
use super::game::{DRAW_POINTS, MATE_POINTS};
use super::position::Position4;
use super::variant::{KING, Mode, PAWN};
use super::{Bb, team};
use crate::base::GenType;
use crate::base::{Move, MoveKind, MoveList};
use crate::bitboard::Bitboard;
use crate::params::Params;
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
    /// A Free-For-All search by the name the options and the board use
    /// (`paranoid`, `brs`).
    pub fn ffa_by_name(name: &str) -> Option<Objective> {
        match name {
            "paranoid" => Some(Objective::Paranoid),
            "brs" | "best-reply" => Some(Objective::BestReply),
            _ => None,
        }
    }

    /// The name `ffa_by_name` reads (Teams, which is no FFA search, reads
    /// as paranoid).
    pub fn ffa_name(self) -> &'static str {
        match self {
            Objective::BestReply => "brs",
            _ => "paranoid",
        }
    }

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

/// Whether the piece that makes `m` attacks, from its target square, the
/// King of `q` or a square next to it: a quiet move that may take a
/// checked King's last square.
fn reaches_king_zone(pos: &Position4, m: Move, q: usize) -> bool {
    let Some((owner, ty)) = pos.piece_at(m.from()) else {
        return false;
    };
    let t = &pos.v.tables;
    let k = pos.king_square(q);
    let zone = t.moves[0][KING].normal.leap_any[k] | Bb::bit(k);
    let occ = pos.occupied() ^ Bb::bit(m.from());
    let reach = if ty == PAWN {
        t.empty_board_captures(owner, PAWN, m.to())
    } else {
        t.reach(owner, ty, m.to(), occ)
    };
    (reach & zone).any()
}

/// The extension budget of a Free-For-All search path.
const FFA_EXT_BUDGET: u16 = 64;

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
    /// `four_spare_next_check`
    spare_next_check: u8,
}

impl Search4 {
    /// The search of a game's current position (`ffa`: how a
    /// Free-For-All game is searched; Teams is searched as Teams).
    pub fn of_game(game: &super::game::Game4, ffa: Objective) -> Search4 {
        Search4::new(game.position().clone(), ffa)
    }

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
            spare_next_check: 1,
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
            let _ = list.try_push(Move::LEAVE);
        }
    }
    #[inline]
    fn is_noisy(&self, m: Move) -> bool {
        m.is_leave() || self.pos.is_noisy(m)
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
        if m.is_leave() {
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

    /// While the next player is in check (by the mover's partner) a quiet
    /// move may complete a mate by taking the King's last square:
    /// `four_spare_next_check` 1 counts every move as checking then (none
    /// is pruned as harmless), 2 the moves whose piece reaches the checked
    /// King or a square next to it, 0 none.
    fn gives_check(&self, m: Move) -> bool {
        if m.is_leave() {
            return true;
        }
        let p = &self.pos;
        let next = p.next_player(p.side());
        let next_in_check = next != p.side()
            && p.attackers(p.king_square(next), p.occupied(), p.enemies(next))
                .any();
        if next_in_check {
            match self.spare_next_check {
                1 => return true,
                2 if reaches_king_zone(p, m, next) => return true,
                _ => {}
            }
        }
        p.gives_check(m)
    }
    fn set_params(&mut self, p: &Params) {
        // Free-For-All keeps sparing them all (the rules were measured in
        // Teams)
        self.spare_next_check = if self.objective == Objective::Teams {
            p.four_spare_next_check as u8
        } else {
            1
        };
    }
    fn lmr_extra(&self, p: &Params, depth: i32, quiet: bool) -> i32 {
        if self.objective == Objective::Teams && quiet && p.four_lmr_div > 0 {
            depth / p.four_lmr_div
        } else {
            0
        }
    }
    fn partner_check_prunes(&self, p: &Params) -> bool {
        p.four_partner_check_prunes == 1
    }
    /// Teams: a capture that itself checks an enemy King (not every move
    /// made while the next player is in check, as `gives_check` counts).
    /// Free-For-All: none (with three enemies checking in turn, sparing
    /// them made some searches of fixed depth run for minutes).
    fn spared_in_qsearch(&self, m: Move) -> bool {
        self.objective == Objective::Teams && !m.is_leave() && self.pos.gives_check(m)
    }
    /// Teams: `four_qs_width` (0: no limit). Free-For-All: no limit.
    fn qsearch_width(&self, p: &Params) -> usize {
        match (self.objective, p.four_qs_width) {
            (Objective::Teams, w) if w > 0 => w as usize,
            _ => usize::MAX,
        }
    }
    /// Checks are frequent with three enemies: in Teams a path is
    /// extended only `four_ext_budget` times (4pchess: 3); Free-For-All
    /// keeps the budget it was measured with (64, no limit in practice).
    fn extension_budget(&self, p: &Params) -> u16 {
        match self.objective {
            Objective::Teams => p.four_ext_budget as u16,
            _ => FFA_EXT_BUDGET,
        }
    }
    /// Teams with `four_lmp_div` > 0: `four_lmp_base + depth^2 /
    /// four_lmp_div` quiet moves at every depth, as 4pchess prunes.
    fn late_move_rule(&self, p: &Params) -> Option<(i32, i32)> {
        (self.objective == Objective::Teams && p.four_lmp_div > 0)
            .then_some((p.four_lmp_base, p.four_lmp_div))
    }
    /// The mover's colour and kind (below 24; dead pieces never move).
    #[inline]
    fn piece_code(&self, m: Move) -> usize {
        self.pos
            .piece_at(m.from())
            .filter(|&(o, _)| o < 4)
            .map_or(0, |(o, t)| o * super::variant::NUM_TYPES + t)
    }
    fn make(&mut self, m: Move) {
        if m.is_leave() {
            let by = if self.pos.in_check() {
                super::end::mater(&self.pos)
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
            Objective::Teams => super::end::draw(&self.pos, 1).map(|_| 0),
            _ => {
                if self.ffa_active().count_ones() <= 1 {
                    Some(self.for_side(self.final_utility(false)))
                } else if super::end::draw(&self.pos, 1).is_some() {
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
        if m.is_leave() {
            "--".into()
        } else {
            self.pos.move_to_string(m)
        }
    }
    fn build_tables(&self, _: &Params, nets: &crate::nnue::NetChoice) -> Eval4 {
        let mut t = Eval4::new(&self.pos);
        t.nnue = nets.evaluator4(&self.pos.v);
        t
    }
    fn attach_eval(&mut self, t: &Eval4) {
        self.pos.attach_nnue(t.nnue.clone());
    }
    #[inline(always)]
    fn settle_eval(&mut self) {
        self.pos.settle_nnue();
    }
    fn tables_variant(&self) -> std::sync::Arc<dyn std::any::Any + Send + Sync> {
        self.pos.v.clone()
    }
    fn evaluate(&self, t: &Eval4, p: &Params) -> i32 {
        match self.objective {
            Objective::Teams => match self.pos.nnue() {
                Some(n) if n.residual() => {
                    evaluate_teams(&self.pos, t, p) + n.evaluate(self.pos.side())
                }
                Some(n) => n.evaluate(self.pos.side()),
                None => evaluate_teams(&self.pos, t, p),
            },
            // Free-For-All: the root player's utility, and a network's
            // correction of it from the root player's view (a
            // Free-For-All network is always residual: the points are
            // the classical evaluation's)
            _ => {
                let u = ffa_utility(&self.pos, t, p, self.root);
                let net = self.pos.nnue().map_or(0, |n| n.evaluate(self.root));
                self.for_side(u + net) + p.tempo
            }
        }
    }
    fn evaluate_bounded(&self, t: &Eval4, p: &Params, alpha: i32, beta: i32) -> (i32, bool) {
        match self.objective {
            Objective::Teams if self.pos.nnue().is_none() => {
                evaluate_teams_bounded(&self.pos, t, p, alpha, beta)
            }
            _ => (self.evaluate(t, p), true),
        }
    }
    fn see_ge(&self, t: &Eval4, m: Move, threshold: i32) -> bool {
        if m.is_leave() {
            return true;
        }
        see_ge(&self.pos, t, m, threshold)
    }
    fn capture_value(&self, t: &Eval4, m: Move, _phase: usize) -> i32 {
        if m.is_leave() {
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

/// Static exchange on a square. Teams: the teams take the square in turn,
/// each time with the first of the occupant's two enemies in turn order
/// that can take (the next player, or the one after the occupant's
/// partner: it moves before the occupant's owner moves again), with its
/// least valuable piece; the occupant's partner never takes its partner's
/// piece. Free-For-All: only the next player's answer is counted (the
/// others may prefer to take each other).
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
    if pos.mode() == Mode::Ffa {
        // the exchange is lost only if the next player can take back
        let next = pos.next_player(us);
        let answer = pos.attackers(to, occ, 1 << next) & occ;
        let king_only = (answer & !pos.type_bb(KING)).is_empty();
        let defended = (pos.attackers(to, occ, 1 << us) & occ).any();
        return answer.is_empty() || (king_only && defended);
    }
    // Teams: `res` flips with each capture, as in the two-player swap
    // algorithm; the teams alternate
    let mut occupant = us;
    let mut res = true;
    loop {
        let first = pos.next_player(occupant);
        let second = pos.next_player(pos.next_player(first));
        let taker = [first, second].into_iter().find_map(|q| {
            let mine = pos.attackers(to, occ, 1 << q) & occ;
            (team(q) != team(occupant) && mine.any()).then_some((q, mine))
        });
        let Some((player, mine)) = taker else { break };
        res = !res;
        let Some((ty, sq)) = [PAWN, 2, 3, 4, 5, KING].into_iter().find_map(|ty| {
            let bb = mine & pos.type_bb(ty);
            bb.any().then(|| (ty, bb.lsb()))
        }) else {
            break;
        };
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
        occupant = player;
    }
    res
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::fourplayer::Variant4;

    /// Red to move; Red's Queen on e5 can take Blue's pawn on f6, which
    /// only Green's pawn on g7 defends (Blue, next to move, cannot take
    /// back; Green, who moves before Red again, can).
    const FAR_DEFENDER: &str = "R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-7,yK,6/14/14/14/14/14/13,gK/bK,5,gP,7/5,bP,8/4,rQ,9/14/14/14/7,rK,6";

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let v = Arc::new(Variant4::new(Mode::Teams));
        let pos = Position4::from_fen4(v, fen).unwrap();
        let t = Eval4::new(&pos);
        let m = pos.parse_move(mv).unwrap();
        see_ge(&pos, &t, m, threshold)
    }

    #[test]
    fn the_far_enemy_takes_back_in_teams() {
        assert!(
            !see(FAR_DEFENDER, "e5-f6", 0),
            "the Queen is lost for a pawn"
        );
        assert!(see(FAR_DEFENDER, "e5-f6", -2000), "within a loss of 2000");
        // without Green's pawn the pawn is free
        let free = FAR_DEFENDER.replace("bK,5,gP,7", "bK,13");
        assert!(see(&free, "e5-f6", 0));
        // Blue's own pawn guard: Blue takes back first
        let blue = FAR_DEFENDER.replace("bK,5,gP,7", "bK,3,bP,9");
        assert!(!see(&blue, "e5-f6", 0));
    }
}
