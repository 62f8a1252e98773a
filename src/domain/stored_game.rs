//! A game as one request finds it: its stored record with the moves that led there, read
//! together with the settings of its place, so that a request reads the database once.

use super::{GameRecord, GameStatus, InEffect, MoveRecord, NewMove, Settings};
use settai_core::{Game, GameMove};

/// A move played, with the position it was played from (for highlighting on the board).
#[derive(Debug, Clone)]
pub struct PlayedMove {
    /// The position before the move.
    pub before: Game,
    /// The move.
    pub mv: GameMove,
    /// True for the bot's moves.
    pub by_bot: bool,
    /// The player who chose it (`None` for the bot and for forced passes).
    pub user_id: Option<u64>,
}

impl PlayedMove {
    /// The move without its position.
    pub fn stored(&self) -> NewMove {
        NewMove { mv: self.mv, by_bot: self.by_bot, user_id: self.user_id }
    }
}

/// Where the last two turns begin among moves whose being the player's own `own` tells: at the
/// player's second-to-last own move, or at the first move when the player has made fewer.
fn last_two_turns_start(own: impl DoubleEndedIterator<Item = bool> + ExactSizeIterator) -> usize {
    own.enumerate().rev().filter(|&(_, own)| own).nth(1).map_or(0, |(i, _)| i)
}

/// A stored game with the moves that lead from its start to its stored position, checked to
/// lead there when it was read. Only the last two turns keep their positions: what the board
/// shows and what a take-back undoes and then shows (a position per move would copy a
/// doubutsu history per move, growing with the square of the game's length).
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// The game as stored.
    pub record: GameRecord,
    /// Its moves from the start, in order.
    pub moves: Vec<NewMove>,
    /// Its last moves with their positions: from the player's second-to-last own move on (from
    /// the start when the player has made fewer).
    recent: Vec<PlayedMove>,
}

/// Why a stored move list cannot be trusted (the store reports the game as corrupt).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Untrusted(pub String);

impl StoredGame {
    /// A game just created: no moves yet.
    pub fn new(record: GameRecord) -> StoredGame {
        StoredGame { record, moves: Vec::new(), recent: Vec::new() }
    }

    /// Replays `moves` (as stored, in ply order) from `start`, each position from the one
    /// before, in place; they must read and be legal. The game they lead to (for the record
    /// read with them to be checked against) and the game's moves.
    pub fn replay(start: Game, moves: &[MoveRecord]) -> Result<(Game, Replayed), Untrusted> {
        // Only the last two turns' positions are kept.
        let keep_from = last_two_turns_start(moves.iter().map(|m| !m.by_bot && m.user_id.is_some()));
        let mut game = start;
        let mut stored = Vec::with_capacity(moves.len());
        let mut recent = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            if m.ply as usize != i + 1 {
                return Err(Untrusted(format!("ply {} stored as ply {}", i + 1, m.ply)));
            }
            let mv = game.parse_move(&m.notation).map_err(|e| Untrusted(format!("ply {}: {e}", m.ply)))?;
            if i >= keep_from {
                recent.push(PlayedMove { before: game.clone(), mv, by_bot: m.by_bot, user_id: m.user_id });
            }
            game.play_in_place(mv).map_err(|e| Untrusted(format!("ply {}: {e}", m.ply)))?;
            stored.push(NewMove { mv, by_bot: m.by_bot, user_id: m.user_id });
        }
        Ok((game, Replayed { moves: stored, recent }))
    }

    /// The stored game of `record` and its `replayed` moves, which must be as many as its plies
    /// (the caller checked that they lead to its position).
    pub fn of_replay(record: GameRecord, replayed: Replayed) -> Result<StoredGame, Untrusted> {
        if replayed.moves.len() as u32 != record.ply {
            return Err(Untrusted(format!("{} moves stored for ply {}", replayed.moves.len(), record.ply)));
        }
        Ok(StoredGame { record, moves: replayed.moves, recent: replayed.recent })
    }

    /// The last move on the board, if any.
    pub fn last_move(&self) -> Option<&PlayedMove> {
        self.recent.last()
    }

    /// The moves from the start, without their positions.
    pub fn history(&self) -> Vec<GameMove> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// How many moves stay when the player's last own move is taken back (待った): the ply
    /// just before it. Forced passes and the bot's moves are nobody's choice; `None` when the
    /// player has made no move yet (a game the bot opened starts with the bot's move).
    pub fn takeback_ply(&self) -> Option<u32> {
        self.moves.iter().rposition(NewMove::is_players_own).map(|i| i as u32)
    }

    /// The move at 0-based `index` with the position before it, when that position is kept
    /// (the last two turns).
    pub fn played(&self, index: usize) -> Option<&PlayedMove> {
        let first_kept = self.moves.len() - self.recent.len();
        index.checked_sub(first_kept).and_then(|i| self.recent.get(i))
    }

    /// The game after `played` (stored as `record`): these moves follow the ones it had.
    pub fn advanced(mut self, record: GameRecord, played: &[PlayedMove]) -> StoredGame {
        self.record = record;
        self.moves.extend(played.iter().map(PlayedMove::stored));
        self.recent.extend_from_slice(played);
        // Keep the last two turns only.
        let from = last_two_turns_start(self.recent.iter().map(|m| m.stored().is_players_own()));
        self.recent.drain(..from);
        self
    }

    /// The game as it was after its first `ply` moves (stored now as `record`).
    pub fn truncated(mut self, record: GameRecord, ply: u32) -> StoredGame {
        let first_kept = self.moves.len() - self.recent.len();
        self.record = record;
        self.moves.truncate(ply as usize);
        self.recent.truncate((ply as usize).saturating_sub(first_kept));
        self
    }
}

/// A stored move list replayed ([`StoredGame::replay`]): its moves, and the last two turns'
/// with their positions.
#[derive(Debug)]
pub struct Replayed {
    moves: Vec<NewMove>,
    recent: Vec<PlayedMove>,
}

/// What a request reads of its place, once and consistently: the settings in effect there and
/// the active game, if any.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The settings in effect for the request, as the service worked them out.
    pub settings: InEffect,
    /// The place's active game.
    pub game: Option<StoredGame>,
    /// When no game is active and the place's last game was in a private channel (where its end
    /// was silent): how it ended.
    pub last_ended: Option<GameStatus>,
}

/// What the store reads of a place in one statement, before the service works out the settings
/// in effect from it (a [`Snapshot`]).
#[derive(Debug, Clone)]
pub struct PlaceRead {
    /// The server's settings with the channel's overrides (the defaults outside servers).
    pub settings: Settings,
    /// The place's active game.
    pub game: Option<StoredGame>,
    /// The reader's own choice of the coach's hints, if they made one (`/play hints`); the
    /// reader is the player the request answers, if any.
    pub hints_choice: Option<bool>,
    /// As [`Snapshot::last_ended`].
    pub last_ended: Option<GameStatus>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use settai_core::GameKind;

    /// A doubutsu game of `plies` moves, the player's own and the bot's in turn, stored.
    fn stored(plies: usize) -> (Vec<MoveRecord>, Vec<Game>) {
        let mut game = Game::new(GameKind::Doubutsu);
        let (mut moves, mut positions) = (Vec::new(), vec![game.clone()]);
        for i in 0..plies {
            let mv = game.legal_moves().into_iter().find(|&m| !game.loses_at_once(m)).expect("a quiet move");
            game = game.play(mv).unwrap();
            let by_bot = i % 2 == 1;
            moves.push(MoveRecord {
                ply: i as u32 + 1,
                notation: mv.to_string(),
                by_bot,
                user_id: (!by_bot).then_some(3),
            });
            positions.push(game.clone());
        }
        (moves, positions)
    }

    /// The positions kept are those of the last two turns, each the one its move was played
    /// from, through a replay, moves added and a take-back.
    #[test]
    fn the_last_two_turns_keep_their_positions() {
        let (moves, positions) = stored(9);
        let (game, replayed) = StoredGame::replay(Game::new(GameKind::Doubutsu), &moves).unwrap();
        assert_eq!(&game, positions.last().unwrap());
        let mut stored = StoredGame::of_replay(GameRecord::sample(game, 9), replayed).unwrap();
        let kept = |s: &StoredGame| (0..s.moves.len()).filter(|&i| s.played(i).is_some()).collect::<Vec<_>>();
        // The player's own moves are plies 1, 3, 5, 7 and 9 (indices 0, 2, ...): the last two turns begin at index 6.
        assert_eq!(kept(&stored), [6, 7, 8]);
        for i in kept(&stored) {
            assert_eq!(stored.played(i).unwrap().before, positions[i], "the position before move {i}");
        }
        assert_eq!(stored.last_move().unwrap().mv, stored.moves[8].mv);
        assert!(
            StoredGame::of_replay(
                GameRecord::sample(positions[9].clone(), 8),
                StoredGame::replay(Game::new(GameKind::Doubutsu), &moves).unwrap().1
            )
            .is_err(),
            "plies must match"
        );

        // The bot's reply and the player's next move: the kept turns move on.
        let (more, more_positions) = stored_after(&positions[9], 2);
        stored = stored.advanced(GameRecord::sample(more_positions[2].clone(), 11), &more);
        assert_eq!(stored.moves.len(), 11);
        assert_eq!(kept(&stored), [8, 9, 10]);
        assert_eq!(stored.played(9).unwrap().before, positions[9]);

        // A take-back to before the player's last move shows the turn before it, positions kept.
        assert_eq!(stored.takeback_ply(), Some(10));
        let back = stored.truncated(GameRecord::sample(more_positions[1].clone(), 10), 10);
        assert_eq!(kept(&back), [8, 9]);
        assert_eq!(back.last_move().unwrap().before, positions[9]);
    }

    /// `n` moves from `game`, the bot's first, with the positions they pass through.
    fn stored_after(game: &Game, n: usize) -> (Vec<PlayedMove>, Vec<Game>) {
        let (mut game, mut played, mut positions) = (game.clone(), Vec::new(), vec![game.clone()]);
        for i in 0..n {
            let mv = game.legal_moves().into_iter().find(|&m| !game.loses_at_once(m)).expect("a quiet move");
            let by_bot = i % 2 == 0;
            played.push(PlayedMove { before: game.clone(), mv, by_bot, user_id: (!by_bot).then_some(3) });
            game = game.play(mv).unwrap();
            positions.push(game.clone());
        }
        (played, positions)
    }
}
