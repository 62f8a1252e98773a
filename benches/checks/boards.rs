//! The boards left in the channels at the end of a run against the games the database holds:
//! every game the player is to move in has exactly one board offering its moves, at the ply it
//! is at, and no other board offers moves (docs/design/bot-reliability.md#when-discord-fails). A
//! board posted twice, a stale board whose menu was never taken off, and a game left without a
//! board to tap (stuck) each fail it.

use std::collections::BTreeMap;

/// A game as the database holds it at the end of the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameNow {
    pub game: i64,
    /// Whether it is on and the player is to move: then a board must offer its moves.
    pub players_turn: bool,
    /// The plies played.
    pub ply: u32,
}

/// A message in a channel whose buttons offer moves (not disabled), at the game and ply its
/// buttons name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveBoard {
    pub message: u64,
    pub game: i64,
    pub ply: u32,
}

/// What is wrong with the boards left: one line per game concerned.
pub fn troubles(games: &[GameNow], live: &[LiveBoard]) -> Vec<String> {
    let mut by_game: BTreeMap<i64, Vec<&LiveBoard>> = BTreeMap::new();
    for board in live {
        by_game.entry(board.game).or_default().push(board);
    }
    let mut found = Vec::new();
    for game in games {
        let boards = by_game.remove(&game.game).unwrap_or_default();
        let (current, stale): (Vec<&LiveBoard>, Vec<&LiveBoard>) =
            boards.into_iter().partition(|b| game.players_turn && b.ply == game.ply);
        let g = game.game;
        if game.players_turn && current.is_empty() {
            found.push(format!("game {g}: the player is to move at ply {} and no board offers it (stuck)", game.ply));
        }
        if current.len() > 1 {
            let ids: Vec<String> = current.iter().map(|b| b.message.to_string()).collect();
            found.push(format!("game {g}: ply {} offered on {} boards ({})", game.ply, current.len(), ids.join(", ")));
        }
        for b in stale {
            let now = if game.players_turn {
                format!("the game is at ply {}", game.ply)
            } else {
                "not the player's turn".into()
            };
            found.push(format!("game {g}: board {} still offers ply {} ({now})", b.message, b.ply));
        }
    }
    for (g, boards) in by_game {
        found.push(format!("game {g}: {} board(s) offer moves of a game the database does not hold", boards.len()));
    }
    found
}

/// Every game of the run, as stored now.
pub async fn games_now(pool: &sqlx::PgPool) -> anyhow::Result<Vec<GameNow>> {
    let rows: Vec<(i64, bool, i32)> =
        sqlx::query_as("SELECT id, status = 'active' AND bot_to_move IS FALSE, ply FROM games ORDER BY id")
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().map(|(game, players_turn, ply)| GameNow { game, players_turn, ply: ply as u32 }).collect())
}
