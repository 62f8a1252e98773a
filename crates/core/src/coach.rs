//! The kind coach's rules (docs/design/kind-coach.md), one source for the bot and the
//! benchmark's coached child: which of the player's moves are marked ⚠ and in what order the
//! menus list them, and when the board after the player's move offers the take-back.
//!
//! With hints on, a move that loses at once is marked and listed last, never hidden or refused,
//! and a winning move is never flagged or promoted (the child finds it). Only doubutsu shogi has
//! moves that lose at once, so in reversi the coach stays quiet. The switches (hints,
//! take-backs) are the caller's: the settings in effect in the bot, turned on the rules by a
//! [`Coach`]; the run's in the benchmark.

use crate::doubutsu::{History, Move, Position};
use crate::{Game, GameMove};

/// The legal moves of `game` in the order the menus offer them, each with whether the coach
/// marks it ⚠ (it loses at once): with `hints`, the safe ones first and the risky ones after,
/// each group in the game's own order; without, the game's order and no mark.
pub fn moves_in_order(game: &Game, hints: bool) -> Vec<(GameMove, bool)> {
    match game {
        Game::Doubutsu(g) => doubutsu_moves_in_order(g.history(), hints)
            .into_iter()
            .map(|(mv, risky)| (GameMove::Doubutsu(mv), risky))
            .collect(),
        Game::Reversi(_) => game.legal_moves().into_iter().map(|mv| (mv, false)).collect(),
    }
}

/// [`moves_in_order`] over a doubutsu shogi game's history.
pub fn doubutsu_moves_in_order(game: &History, hints: bool) -> Vec<(Move, bool)> {
    let pos = game.position();
    let mut moves: Vec<(Move, bool)> =
        game.legal_moves().into_iter().map(|mv| (mv, marks_risky_at(pos, mv, hints))).collect();
    // A stable sort: within each group the order stays the game's.
    moves.sort_by_key(|&(_, risky)| risky);
    moves
}

/// Whether the coach marks `mv`, a legal move of `game`, ⚠: with `hints`, when it loses at
/// once ([`Game::loses_at_once`]; a move that wins at once never does).
pub fn marks_risky(game: &Game, mv: GameMove, hints: bool) -> bool {
    match (game, mv) {
        (Game::Doubutsu(g), GameMove::Doubutsu(mv)) => marks_risky_at(g.history().position(), mv, hints),
        _ => false,
    }
}

/// The mark itself, over the position the move is played from.
fn marks_risky_at(pos: &Position, mv: Move, hints: bool) -> bool {
    hints && pos.loses_at_once(mv)
}

/// Whether the board after the player's move `mv` from `before`, and the opponent's answer that
/// led to `after`, offers the take-back (where hints and take-backs are on: the caller's
/// switches): the move lost at once where another did not (a take-back could not help
/// otherwise), and the game goes on with the player to move (`player_to_move`: the ↩ button is
/// then under the board) and no win at once on the board for them (the coach never points a
/// win out, nor talks a player out of one).
pub fn offers_takeback(before: &Game, mv: GameMove, after: &Game, player_to_move: bool) -> bool {
    match (before, mv, after) {
        (Game::Doubutsu(before), GameMove::Doubutsu(mv), Game::Doubutsu(after)) => {
            doubutsu_offers_takeback(before.history().position(), mv, after.history(), player_to_move)
        }
        _ => false,
    }
}

/// [`offers_takeback`] over doubutsu shogi's position before the move and the game after the
/// answer.
pub fn doubutsu_offers_takeback(before: &Position, mv: Move, after: &History, player_to_move: bool) -> bool {
    let win_at_once = after.outcome().is_none() && !after.position().winning_moves().is_empty();
    before.loses_needlessly(mv) && player_to_move && !win_at_once
}

/// The kind coach with its switches as the caller has them (the settings in effect in the bot):
/// hints (the ⚠ marks, the word about the lion) and take-backs. What it says follows the rules
/// above, and only of the player's own position and moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coach {
    /// The coach's hints on.
    pub hints: bool,
    /// Take-backs allowed.
    pub takeback: bool,
}

impl Coach {
    /// The legal moves of `game` as the menus list them, each with whether it is marked ⚠:
    /// [`moves_in_order`] with this coach's hints.
    pub fn moves_in_order(self, game: &Game) -> Vec<(GameMove, bool)> {
        moves_in_order(game, self.hints)
    }

    /// Whether the board marks `mv`, a legal move of `game`, ⚠: [`marks_risky`] with this
    /// coach's hints.
    pub fn marks_risky(self, game: &Game, mv: GameMove) -> bool {
        marks_risky(game, mv, self.hints)
    }

    /// Whether the board after the move `mv` from `before`, answered into `after`, offers the
    /// take-back: hints and take-backs are on, the move was the player's own (`by_player`: not
    /// the bot's) and [`offers_takeback`] holds (`player_to_move` as there).
    pub fn offers_takeback(
        self,
        before: &Game,
        mv: GameMove,
        by_player: bool,
        after: &Game,
        player_to_move: bool,
    ) -> bool {
        self.hints && self.takeback && by_player && offers_takeback(before, mv, after, player_to_move)
    }

    /// Whether the board of `game` warns that the player's lion is in danger: with hints, on the
    /// player's turn only (`player_to_move`), when the side to move has its lion attacked
    /// ([`Game::lion_in_danger`]; never in reversi).
    pub fn warns_lion_in_danger(self, game: &Game, player_to_move: bool) -> bool {
        self.hints && player_to_move && game.lion_in_danger()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DoubutsuGame, GameKind};

    fn doubutsu(fen: &str) -> Game {
        Game::Doubutsu(DoubutsuGame::new(History::from_position(fen.parse().unwrap())))
    }

    #[test]
    fn risky_moves_come_last_and_only_with_hints() {
        // Sente's lion on C3 is attacked by gote's giraffe on B3: some moves save it.
        let game = doubutsu("1l1/3/1gL/E2 b -");
        let hinted = moves_in_order(&game, true);
        let plain = moves_in_order(&game, false);
        assert_eq!(hinted.len(), game.legal_moves().len());
        assert!(hinted.iter().any(|m| m.1) && hinted.iter().any(|m| !m.1), "safe and risky moves: {hinted:?}");
        assert!(plain.iter().all(|&(_, risky)| !risky), "no marks without hints");
        assert_eq!(plain.iter().map(|m| m.0).collect::<Vec<_>>(), game.legal_moves(), "the game's order");
        let first_risky = hinted.iter().position(|m| m.1).unwrap_or(hinted.len());
        assert!(hinted[first_risky..].iter().all(|m| m.1), "every risky move after every safe one");
        for &(mv, risky) in &hinted {
            assert_eq!(risky, game.loses_at_once(mv));
            assert_eq!(risky, marks_risky(&game, mv, true), "the menus' mark is the board's");
            assert!(!marks_risky(&game, mv, false));
        }
        // Within each group, the game's order.
        let safe: Vec<_> = game.legal_moves().into_iter().filter(|&m| !game.loses_at_once(m)).collect();
        assert_eq!(hinted[..first_risky].iter().map(|m| m.0).collect::<Vec<_>>(), safe);
    }

    #[test]
    fn reversi_has_no_mark_and_no_offer() {
        let game = Game::new(GameKind::Reversi);
        let moves = moves_in_order(&game, true);
        assert_eq!(moves.iter().map(|m| m.0).collect::<Vec<_>>(), game.legal_moves());
        assert!(moves.iter().all(|&(_, risky)| !risky));
        for mv in game.legal_moves() {
            assert!(!offers_takeback(&game, mv, &game.play(mv).unwrap(), true));
        }
    }

    #[test]
    fn a_move_that_wins_at_once_is_never_flagged() {
        // Brute force over random games: a move that ends the game in the mover's favour is
        // never marked, and a marked move always lets the opponent win on the next move.
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..200 {
            let mut game = Game::new(GameKind::Doubutsu);
            while game.outcome().is_none() {
                let mover = game.to_move();
                for (mv, risky) in moves_in_order(&game, true) {
                    let next = game.play(mv).unwrap();
                    let wins = next.outcome().is_some_and(|o| o.winner == mover);
                    assert!(!(wins && risky), "{mv} wins at once but is flagged");
                    if risky && next.outcome().is_none() {
                        let opponent_wins = next.legal_moves().into_iter().any(|r| {
                            next.play(r).unwrap().outcome().is_some_and(|o| o.winner.is_some() && o.winner != mover)
                        });
                        assert!(opponent_wins, "{mv} is flagged but the opponent cannot win at once");
                    }
                    checked += 1;
                }
                let legal = game.legal_moves();
                game = game.play(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
        }
        assert!(checked > 1000, "{checked} moves checked");
    }

    #[test]
    fn the_take_back_is_offered_only_after_an_unpunished_needless_blunder() {
        // Sente's lion on A4 stepping to A3, next to gote's lone lion on B2: a needless blunder
        // gote may answer quietly (stepping away), with a gift (a win at once for sente) or by
        // taking the lion.
        let before = doubutsu("3/1l1/3/LHC b -");
        let blunder = before.parse_move("A4A3").unwrap();
        assert!(before.loses_needlessly(blunder));
        let safe = before.legal_moves().into_iter().find(|&m| !before.loses_at_once(m)).expect("a safe move");
        // Every answer to `mv`, with the game after it.
        let answers = |mv: GameMove| {
            let after_move = before.play(mv).unwrap();
            after_move.legal_moves().into_iter().map(move |r| after_move.play(r).unwrap()).collect::<Vec<_>>()
        };
        let (mut quiet, mut gift, mut punished) = (0, 0, 0);
        for after in answers(blunder) {
            let offered = offers_takeback(&before, blunder, &after, after.to_move().is_some());
            if after.outcome().is_some() {
                punished += 1;
                assert!(!offered, "the game is over: nothing to take back");
            } else if after.can_win_at_once() {
                gift += 1;
                assert!(!offered, "a win at once on the board: the coach keeps quiet");
            } else {
                quiet += 1;
                assert!(offered, "a quiet answer to a needless blunder");
                assert!(!offers_takeback(&before, blunder, &after, false), "only with the player to move");
            }
        }
        assert!(quiet > 0 && gift > 0 && punished > 0, "every kind of answer: {quiet} {gift} {punished}");
        for after in answers(safe) {
            assert!(!offers_takeback(&before, safe, &after, after.to_move().is_some()), "a safe move");
        }
    }

    #[test]
    fn the_coach_offers_the_take_back_only_with_both_switches_and_for_the_players_own_move() {
        // The needless blunder of the test above, answered quietly.
        let before = doubutsu("3/1l1/3/LHC b -");
        let blunder = before.parse_move("A4A3").unwrap();
        let after_move = before.play(blunder).unwrap();
        let after = after_move
            .legal_moves()
            .into_iter()
            .map(|r| after_move.play(r).unwrap())
            .find(|g| g.outcome().is_none() && !g.can_win_at_once())
            .expect("a quiet answer");
        assert!(offers_takeback(&before, blunder, &after, true), "the rule holds");
        for hints in [false, true] {
            for takeback in [false, true] {
                let coach = Coach { hints, takeback };
                assert_eq!(coach.offers_takeback(&before, blunder, true, &after, true), hints && takeback);
                assert!(!coach.offers_takeback(&before, blunder, false, &after, true), "never after the bot's move");
                assert!(!coach.offers_takeback(&before, blunder, true, &after, false), "only on the player's turn");
            }
        }
    }

    #[test]
    fn the_coach_marks_and_orders_by_its_hints_only() {
        let game = doubutsu("1l1/3/1gL/E2 b -");
        for takeback in [false, true] {
            let (on, off) = (Coach { hints: true, takeback }, Coach { hints: false, takeback });
            assert_eq!(on.moves_in_order(&game), moves_in_order(&game, true));
            assert_eq!(off.moves_in_order(&game), moves_in_order(&game, false));
            assert!(on.moves_in_order(&game).iter().any(|m| m.1), "a risky move is marked");
            for mv in game.legal_moves() {
                assert_eq!(on.marks_risky(&game, mv), game.loses_at_once(mv));
                assert!(!off.marks_risky(&game, mv));
            }
        }
    }

    #[test]
    fn the_coach_warns_of_the_lion_with_hints_on_the_players_turn_only() {
        // Sente's lion on C3 attacked by gote's giraffe on B3; elsewhere, a quiet start.
        let attacked = doubutsu("1l1/3/1gL/E2 b -");
        assert!(attacked.lion_in_danger());
        let on = Coach { hints: true, takeback: false };
        assert!(on.warns_lion_in_danger(&attacked, true));
        assert!(!on.warns_lion_in_danger(&attacked, false), "not while the bot is to move");
        assert!(!Coach { hints: false, takeback: true }.warns_lion_in_danger(&attacked, true), "not without hints");
        for quiet in [Game::new(GameKind::Doubutsu), Game::new(GameKind::Reversi)] {
            assert!(!on.warns_lion_in_danger(&quiet, true), "{quiet:?}");
        }
    }
}
