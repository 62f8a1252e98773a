//! How long and how visibly kind a child's doubutsu games are: the figures the kind coach is
//! measured by (docs/design/kind-coach.md#measured), beside each run's main table.

use serde::Serialize;

use super::{quantile, GuestResult, Rate, SimulatedGame};

/// The game length the coach's targets count from: a game of at least this many plies is a
/// game that went on (about ten moves of the child's).
pub const LONG_GAME_PLIES: u32 = 20;

/// One guest's games, as the coach's table shows them.
#[derive(Debug, Clone, Serialize)]
pub struct ChildGames {
    /// The guest.
    pub guest: String,
    /// Games played.
    pub games: u32,
    /// The guest's wins.
    pub wins: u32,
    /// Quartiles of the game length in plies (25%, median, 75%).
    pub plies_quartiles: [f64; 3],
    /// Games of at least [`LONG_GAME_PLIES`] plies, with the interval of their share.
    pub long_games: Rate,
    /// Take-backs per game.
    pub takebacks_per_game: f64,
    /// Wins in which the level, at some move, left the guest's lion standing when it could
    /// take it: a gift the guest could see.
    pub wins_after_ignored_lion: u32,
    /// Wins whose last move was the guest taking the lion of a level that had just left the
    /// guest's own lion standing (the ending `W lion (missed)`).
    pub wins_ending_after_ignored_lion: u32,
}

impl ChildGames {
    /// Sums up one guest's games.
    pub fn of(guest: &str, records: &[SimulatedGame]) -> ChildGames {
        let n = records.len() as u32;
        let won = || records.iter().filter(|g| g.result == GuestResult::Win);
        let mut plies: Vec<f64> = records.iter().map(|g| f64::from(g.plies)).collect();
        plies.sort_by(f64::total_cmp);
        let long = records.iter().filter(|g| g.plies >= LONG_GAME_PLIES).count() as u32;
        ChildGames {
            guest: guest.into(),
            games: n,
            wins: won().count() as u32,
            plies_quartiles: [quantile(&plies, 0.25), quantile(&plies, 0.5), quantile(&plies, 0.75)],
            long_games: Rate::wilson(long, n),
            takebacks_per_game: records.iter().map(|g| f64::from(g.takebacks)).sum::<f64>() / f64::from(n.max(1)),
            wins_after_ignored_lion: won().filter(|g| g.lion_ignored > 0).count() as u32,
            wins_ending_after_ignored_lion: won()
                .filter(|g| g.ending.as_deref().is_some_and(|e| e.ends_with("(missed)")))
                .count() as u32,
        }
    }
}

/// The coach's table (valid Markdown, for BENCHMARKS.md).
pub fn markdown_table(rows: &[ChildGames]) -> String {
    let mut out = format!(
        "| guest | games | guest wins | plies q1/med/q3 | games ≥ {LONG_GAME_PLIES} plies (95% CI) | take-backs per game | wins where the bot had left the guest's lion standing | … on the last move |\n\
         |---|---|---|---|---|---|---|---|\n"
    );
    let share = |k: u32, of: u32| if of == 0 { 0.0 } else { 100.0 * f64::from(k) / f64::from(of) };
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} ({:.1}%) | {:.0}/{:.0}/{:.0} | {:.1}% ({:.1}–{:.1}) | {:.2} | {} ({:.1}%) | {} ({:.1}%) |\n",
            r.guest,
            r.games,
            r.wins,
            share(r.wins, r.games),
            r.plies_quartiles[0],
            r.plies_quartiles[1],
            r.plies_quartiles[2],
            r.long_games.value * 100.0,
            r.long_games.low * 100.0,
            r.long_games.high * 100.0,
            r.takebacks_per_game,
            r.wins_after_ignored_lion,
            share(r.wins_after_ignored_lion, r.wins),
            r.wins_ending_after_ignored_lion,
            share(r.wins_ending_after_ignored_lion, r.wins),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(result: GuestResult, plies: u32, takebacks: u32, lion_ignored: u32, ending: &str) -> SimulatedGame {
        SimulatedGame { result, plies, takebacks, lion_ignored, ending: Some(ending.into()), ..Default::default() }
    }

    #[test]
    fn the_figures_count_what_they_say() {
        let games = [
            game(GuestResult::Win, 25, 1, 2, "W lion (missed)"),
            game(GuestResult::Win, 12, 0, 1, "W lion (chosen)"),
            game(GuestResult::Win, 20, 2, 0, "W try (chosen)"),
            game(GuestResult::Loss, 7, 0, 0, "L lion (chosen)"),
        ];
        let r = ChildGames::of("heeding-child(0.5)", &games);
        assert_eq!((r.games, r.wins), (4, 3));
        assert_eq!(r.long_games.value, 0.5, "25 and 20 plies reach {LONG_GAME_PLIES}");
        assert_eq!(r.takebacks_per_game, 0.75);
        assert_eq!(r.wins_after_ignored_lion, 2);
        assert_eq!(r.wins_ending_after_ignored_lion, 1);
        assert_eq!(r.plies_quartiles[1], 16.0);
        let table = markdown_table(&[r]);
        assert!(table.contains("| heeding-child(0.5) | 4 | 3 (75.0%) | 11/16/21 | 50.0% ("), "{table}");
        assert!(table.contains("| 0.75 | 2 (66.7%) | 1 (33.3%) |"), "{table}");
    }
}
