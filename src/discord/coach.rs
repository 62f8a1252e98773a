//! The kind coach (docs/design/kind-coach.md): with hints on, the player's moves that lose at
//! once are marked and listed last, never hidden or refused, and a winning move is never
//! flagged or promoted (the child finds it). Its words speak of the player's own position only,
//! never of the bot's intentions.

use crate::domain::{PlayedMove, Settings, StoredGame};
use settai_core::{Game, GameMove};

/// The legal moves of `game` in the order the menus offer them, each with whether it loses at
/// once: with `hints`, the safe ones first and the risky ones after, each group in the game's
/// own order; without, the game's order and no mark.
pub(super) fn moves_in_order(game: &Game, hints: bool) -> Vec<(GameMove, bool)> {
    let mut moves: Vec<(GameMove, bool)> =
        game.legal_moves().into_iter().map(|mv| (mv, hints && game.loses_at_once(mv))).collect();
    // A stable sort: within each group the order stays the game's.
    moves.sort_by_key(|&(_, risky)| risky);
    moves
}

/// Whether the board after the player's move `played` offers the take-back: hints and
/// take-backs are on, the move lost at once where another did not (a take-back could not
/// help otherwise), and the game goes on with the player to move (the ↩ button is then
/// under the board) and no win at once on the board for them (the coach never points a win
/// out, nor talks a player out of one).
pub(super) fn offers_takeback(settings: &Settings, played: Option<&PlayedMove>, game: &StoredGame) -> bool {
    let risky = played.is_some_and(|m| !m.by_bot && m.before.loses_needlessly(m.mv));
    settings.hints && settings.takeback && risky && game.record.human_to_move() && !game.record.game.can_win_at_once()
}

#[cfg(test)]
mod tests {
    use super::*;
    use settai_core::GameKind;

    #[test]
    fn risky_moves_come_last_and_only_with_hints() {
        // Sente's lion on C3 is attacked by gote's giraffe on B3: some moves save it.
        let start: settai_core::doubutsu::Position = "1l1/3/1gL/E2 b -".parse().unwrap();
        let game = Game::Doubutsu(settai_core::DoubutsuGame::new(settai_core::doubutsu::History::from_position(start)));
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
}
