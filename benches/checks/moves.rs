//! The moves players saw accepted against the moves the database holds: none lost, none played
//! twice, none stored that nobody tapped. A tap whose answer never came whole (Discord failed a
//! call of its exchange) may or may not be stored: either is right, so long as it is stored at
//! most once and where it was tapped.

use std::collections::BTreeMap;

/// A move a player saw accepted: the game, the ply it was stored at, the move as tapped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tap {
    pub game: i64,
    pub ply: u32,
    pub notation: String,
}

/// The game and ply a board of buttons offers moves at, read from a button's custom id
/// (`t:{game}:{ply}:{tap}`): a move tapped there is stored at `ply + 1`.
pub fn board_place(custom_id: &str) -> Option<(i64, u32)> {
    let mut parts = custom_id.strip_prefix("t:")?.split(':');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// How the taps compare with the stored moves, each list naming the moves concerned.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct MoveCheck {
    /// Taps the player saw accepted.
    pub taps: usize,
    /// Taps whose answer failed, so that the player could not tell whether they were played.
    pub unknown: usize,
    /// Of those, the ones stored (where they were tapped).
    pub unknown_stored: usize,
    /// Taps not stored where the player saw them: nothing there, or another move.
    pub lost: Vec<String>,
    /// The same game and ply accepted twice (or stored twice): a move played twice.
    pub twice: Vec<String>,
    /// Moves of a player's stored that no player saw accepted.
    pub untapped: Vec<String>,
}

/// Compares the `taps` players saw accepted, and the `unknown` ones whose answer failed, with
/// the `stored` players' moves (game, ply, notation), notation compared without case.
pub fn compare(taps: &[Tap], unknown: &[Tap], stored: &[(i64, u32, String)]) -> MoveCheck {
    let mut check = MoveCheck { taps: taps.len(), unknown: unknown.len(), ..MoveCheck::default() };
    let mut held: BTreeMap<(i64, u32), String> = BTreeMap::new();
    for (game, ply, notation) in stored {
        if held.insert((*game, *ply), notation.to_ascii_lowercase()).is_some() {
            check.twice.push(format!("game {game} ply {ply} stored twice"));
        }
    }
    let mut tapped: BTreeMap<(i64, u32), String> = BTreeMap::new();
    for tap in taps {
        let notation = tap.notation.to_ascii_lowercase();
        let place = format!("game {} ply {}", tap.game, tap.ply);
        if let Some(before) = tapped.insert((tap.game, tap.ply), notation.clone()) {
            check.twice.push(format!("{place} accepted twice: {before}, then {notation}"));
        }
        match held.get(&(tap.game, tap.ply)) {
            Some(kept) if *kept == notation => {}
            Some(kept) => check.lost.push(format!("{place}: tapped {notation}, stored {kept}")),
            None => check.lost.push(format!("{place}: tapped {notation}, nothing stored")),
        }
    }
    // An unknown tap explains a stored move only where nothing seen accepted is stored.
    let mut maybe: BTreeMap<(i64, u32), Vec<String>> = BTreeMap::new();
    for tap in unknown {
        maybe.entry((tap.game, tap.ply)).or_default().push(tap.notation.to_ascii_lowercase());
    }
    for ((game, ply), notation) in &held {
        if tapped.contains_key(&(*game, *ply)) {
            continue;
        }
        if maybe.get(&(*game, *ply)).is_some_and(|tries| tries.contains(notation)) {
            check.unknown_stored += 1;
        } else {
            check.untapped.push(format!("game {game} ply {ply}: {notation} stored, never tapped"));
        }
    }
    check
}

/// The moves players chose, as stored: a person's moves, not the bot's nor the forced passes
/// the bot plays for a player (stored without a user).
pub async fn stored_players_moves(pool: &sqlx::PgPool) -> anyhow::Result<Vec<(i64, u32, String)>> {
    let rows: Vec<(i64, i32, String)> = sqlx::query_as(
        "SELECT game_id, ply, notation FROM moves WHERE actor = 'human' AND user_id IS NOT NULL ORDER BY game_id, ply",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|(game, ply, notation)| (game, ply as u32, notation)).collect())
}
