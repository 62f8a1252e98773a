//! Where a level and the child-length bound part ways: each of the level's moves in a game
//! against a careless guest, scored by the bound's exact chances
//! (docs/design/kind-coach.md#where-settai-and-the-bound-part-ways).
//!
//! The bound's chance after a move is that of the position it leaves; the position's own is
//! that of its best move. Over a game the shortfalls of the level's moves add up, in
//! expectation, to exactly what the level loses against the bound's best policy (the guest
//! being the bound's careless player and no game ending by repetition before the length): the
//! performance-difference identity of a finite game against a fixed player. Each shortfall is
//! split where the divergence rule forbade the bound's best move (the part no policy that keeps
//! the rule could avoid at that move) and where the level chose worse than the rule allowed.

use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;

use super::doubutsu::DoubutsuGuest;
use settai_core::doubutsu::table::{Index, SurvivalValues};
use settai_core::doubutsu::{self as dob, guest_was_careless, Color, History, Move, Position, Table};
use settai_core::doubutsu::{divergence_allowed, guest_divergence, loses_at_once, score};

/// One of the level's moves, scored by the bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ScoredMove {
    /// Plies played before it.
    pub ply: u32,
    /// Whether the guest had already made a needless loss-in-one this game.
    pub after_blunder: bool,
    /// The bound's chance after its best move (the position's own).
    pub best: f64,
    /// The best chance among the moves the divergence rule allows (before the first blunder
    /// only: after it, the deviations for a careless guest choose from other moves).
    pub best_allowed: Option<f64>,
    /// The chance after the level's move.
    pub chosen: f64,
}

/// One game against the guest, up to the length the bound is for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoredGame {
    /// Plies played (at most the bound's length).
    pub plies: u32,
    /// Whether the game reached the bound's length.
    pub reached: bool,
    /// Whether it ended by repetition before that (the bound does not model it).
    pub repetition: bool,
    /// The level's moves.
    pub moves: Vec<ScoredMove>,
}

/// The moves the seed's divergence rule lets the level choose from in `game` before the guest's
/// first blunder (the level to move): those that do not lose at once (every move when all do)
/// whose divergence is at most the guest's; the lowest-scored of them when none is
/// (docs/design/doubutsu-settai.md). After a blunder the deviations for a careless guest choose
/// from other moves.
pub fn allowed_by_the_rule<T: Table>(table: &T, game: &History) -> Result<Vec<Move>, dob::PlayerError> {
    let evals = dob::evaluate_moves(table, game.position())?;
    let best = evals.iter().map(|e| score(e.1)).max().ok_or(dob::PlayerError::GameOver)?;
    let safe: Vec<(Move, i32)> = evals.iter().filter(|e| !loses_at_once(e.1)).map(|e| (e.0, score(e.1))).collect();
    let pool: Vec<(Move, i32)> = if safe.is_empty() { evals.iter().map(|e| (e.0, score(e.1))).collect() } else { safe };
    Ok(divergence_allowed(&pool, best, guest_divergence(table, game)?).into_iter().map(|c| c.0).collect())
}

/// Which of the moves the divergence rule allows [`within_the_rule_by_the_bound`] may choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Among {
    /// Every move the rule allows.
    Allowed,
    /// Those whose value has the same outcome (win, draw or loss by the table) as the level's
    /// own move: the game's course against a perfect guest stays the level's.
    SameOutcome,
    /// Those scored as the level's own move (its ties).
    SameScore,
}

/// The level with its moves before the guest's first blunder, up to ply `before_ply`, chosen
/// by the bound among the moves the divergence rule allows (narrowed as `among` says; its own
/// move when that is among the best, otherwise one of them at random): what a level that keeps
/// the rule could reach with exact knowledge of the bound's chances. An experiment's player,
/// not the bot's.
#[allow(clippy::too_many_arguments)]
pub fn within_the_rule_by_the_bound<T: Table, R: Rng>(
    table: &T,
    index: &Index,
    values: &SurvivalValues,
    before_ply: u32,
    among: Among,
    game: &History,
    own: Move,
    rng: &mut R,
) -> Result<Move, dob::ChooseError> {
    let ply = game.moves().len() as u32;
    if ply >= before_ply || guest_was_careless(game) {
        return Ok(own);
    }
    let pos = game.position();
    let chance = |m: Move| values.chance(index, &pos.play(m).expect("legal move"), ply + 1).unwrap_or(0.0);
    let evals = dob::evaluate_moves(table, pos).map_err(dob::PlayerError::from)?;
    let score_of = |m: Move| evals.iter().find(|e| e.0 == m).map(|e| score(e.1));
    let own_score = score_of(own);
    let allowed: Vec<Move> = allowed_by_the_rule(table, game)?
        .into_iter()
        .filter(|&m| match among {
            Among::Allowed => true,
            Among::SameOutcome => score_of(m).map(i32::signum) == own_score.map(i32::signum),
            Among::SameScore => score_of(m) == own_score,
        })
        .collect();
    if allowed.is_empty() {
        return Ok(own);
    }
    let top = allowed.iter().map(|&m| chance(m)).fold(0.0, f64::max);
    let best: Vec<Move> = allowed.into_iter().filter(|&m| chance(m) >= top - 1e-6).collect();
    if best.contains(&own) {
        return Ok(own);
    }
    Ok(*best.choose(rng).expect("the rule allows a move"))
}

/// Plays one game from `start` (the root `values` were computed from, sente to move), `guest`
/// as sente against the level `choose` plays (e.g. [`dob::DoubutsuLevel::choose_move`]), to the
/// bound's length or the end, scoring each of the level's moves by `values` (take-backs off, as
/// the bound's player must be the guest: `heeding-child(q)` for a bound of heed q without
/// take-backs).
pub fn play_scored<T: Table, R: Rng>(
    table: &T,
    index: &Index,
    values: &SurvivalValues,
    start: Position,
    mut choose: impl FnMut(&History, &mut R) -> Result<Move, dob::ChooseError>,
    guest: DoubutsuGuest,
    rng: &mut R,
) -> Result<ScoredGame, dob::ChooseError> {
    let length = values.length();
    let mut game = History::from_position(start);
    let mut moves = Vec::new();
    // The game lasts `length` plies once none of the first `length - 1` has ended it.
    while game.outcome().is_none() && game.moves().len() + 1 < length as usize {
        let pos = *game.position();
        let ply = game.moves().len() as u32;
        let mv = if pos.turn() == Color::Sente {
            guest.choose(table, &game, rng)?
        } else {
            let chance = |m: Move| {
                values.chance(index, &pos.play(m).expect("legal move"), ply + 1).expect("the guest moves next")
            };
            let best = pos.legal_moves().into_iter().map(chance).fold(0.0, f64::max);
            let after_blunder = guest_was_careless(&game);
            let best_allowed = if after_blunder {
                None
            } else {
                Some(allowed_by_the_rule(table, &game)?.into_iter().map(chance).fold(0.0, f64::max))
            };
            let mv = choose(&game, rng)?;
            moves.push(ScoredMove { ply, after_blunder, best, best_allowed, chosen: chance(mv) });
            mv
        };
        game.play(mv).expect("players choose legal moves");
    }
    let plies = game.moves().len() as u32;
    Ok(ScoredGame {
        plies,
        reached: game.outcome().is_none(),
        repetition: game.outcome() == Some(dob::Ending::Draw),
        moves,
    })
}

/// What a run of scored games says, per game (means over the games).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Regret {
    /// Games played.
    pub games: u32,
    /// The bound: the best chance over every policy that a game lasts the length.
    pub bound: f64,
    /// The share of the games that lasted the length.
    pub reached: f64,
    /// Games that ended by repetition before the length.
    pub repetitions: u32,
    /// The shortfall summed over a game's moves before the guest's first blunder: the part the
    /// rule forced (its best allowed move below the best) and the part the level chose.
    pub before_forced: f64,
    /// See [`Regret::before_forced`].
    pub before_chosen: f64,
    /// The shortfall summed over a game's moves after the guest's first blunder.
    pub after: f64,
    /// The level's moves before the first blunder, and how many of them had the bound's best
    /// move forbidden by the rule (its best allowed chance lower by more than a millionth).
    pub before_moves: u32,
    /// See [`Regret::before_moves`].
    pub before_forbidden: u32,
    /// The level's moves after the first blunder, and how many fell short of the best.
    pub after_moves: u32,
    /// See [`Regret::after_moves`].
    pub after_short: u32,
}

impl Regret {
    /// Sums up `games` against the bound `bound`.
    pub fn of(bound: f64, games: &[ScoredGame]) -> Regret {
        Regret::of_moves(bound, games, |_| true)
    }

    /// As [`Regret::of`], the losses and move counts only over the moves `counted` keeps (e.g.
    /// one ply's), still per game.
    pub fn of_moves(bound: f64, games: &[ScoredGame], counted: impl Fn(&ScoredMove) -> bool) -> Regret {
        let n = games.len().max(1) as f64;
        let mut r = Regret {
            games: games.len() as u32,
            bound,
            reached: games.iter().filter(|g| g.reached).count() as f64 / n,
            repetitions: games.iter().filter(|g| g.repetition).count() as u32,
            before_forced: 0.0,
            before_chosen: 0.0,
            after: 0.0,
            before_moves: 0,
            before_forbidden: 0,
            after_moves: 0,
            after_short: 0,
        };
        for m in games.iter().flat_map(|g| &g.moves).filter(|m| counted(m)) {
            match m.best_allowed {
                Some(allowed) => {
                    r.before_forced += (m.best - allowed) / n;
                    r.before_chosen += (allowed - m.chosen) / n;
                    r.before_moves += 1;
                    r.before_forbidden += u32::from(m.best - allowed > 1e-6);
                }
                None => {
                    r.after += (m.best - m.chosen) / n;
                    r.after_moves += 1;
                    r.after_short += u32::from(m.best - m.chosen > 1e-6);
                }
            }
        }
        r
    }

    /// The level's chance of the length as the bound less the shortfalls: an estimate of the
    /// same quantity as [`Regret::reached`], with less noise.
    pub fn estimate(&self) -> f64 {
        self.bound - self.before_forced - self.before_chosen - self.after
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;
    use settai_core::doubutsu::table::{build, survival_values, BuildOptions, BuiltTable, CarelessPlayer, Material};
    use settai_core::doubutsu::DoubutsuLevel;
    use settai_core::doubutsu::{settai_keeping_going, KeepGoing};

    use super::*;

    /// A sub-game small enough to build in a test, with room for careless play.
    const ROOT: &str = "1l1/1c1/1C1/1L1 b Gg";

    /// Settai with a short read for a careless guest (the bot's reads up to 1.5 million
    /// positions a move; the shortfalls do not depend on how far it reads).
    fn settai(
        table: &BuiltTable,
        _: &Index,
        _: &SurvivalValues,
        game: &History,
        rng: &mut StdRng,
    ) -> Result<Move, dob::ChooseError> {
        let keep = KeepGoing { horizon: 4, node_budget: 20_000, ..KeepGoing::BOT };
        Ok(settai_keeping_going(table, game, rng, keep)?)
    }

    /// The sub-game's table, index and the bound's chances for games of 12 plies against the
    /// child heeding with probability `heed`, take-backs off.
    fn fixture(heed: f32) -> (Position, BuiltTable, Index, SurvivalValues) {
        fixture_from(ROOT, heed)
    }

    /// [`fixture`] from another root.
    fn fixture_from(root: &str, heed: f32) -> (Position, BuiltTable, Index, SurvivalValues) {
        let root: Position = root.parse().unwrap();
        let table = build(Material::of(&root), &BuildOptions::default()).unwrap();
        let index = Index::new(Material::of(&root));
        let player = CarelessPlayer { heed, takebacks: false };
        let values = survival_values(&index, &root, 12, player, &BuildOptions::default()).unwrap();
        (root, table, index, values)
    }

    /// The bound and `games` games of `level` against `guest`, scored.
    fn scored(
        level: impl Fn(&BuiltTable, &Index, &SurvivalValues, &History, &mut StdRng) -> Result<Move, dob::ChooseError>,
        guest: DoubutsuGuest,
        heed: f32,
        games: u64,
    ) -> (f64, Vec<ScoredGame>) {
        let (root, table, index, values) = fixture(heed);
        let bound = values.chance(&index, &root, 0).unwrap();
        let games = (0..games)
            .map(|i| {
                let mut rng = StdRng::seed_from_u64(i);
                let choose = |g: &History, r: &mut StdRng| level(&table, &index, &values, g, r);
                play_scored(&table, &index, &values, root, choose, guest, &mut rng).unwrap()
            })
            .collect();
        (bound, games)
    }

    #[test]
    fn shortfalls_are_never_negative_and_add_up_to_the_games_lost_against_the_bound() {
        for (guest, heed) in [(DoubutsuGuest::Child, 0.0), (DoubutsuGuest::HeedingChild(0.5), 0.5)] {
            let (bound, games) = scored(settai, guest, heed, 2000);
            for m in games.iter().flat_map(|g| &g.moves) {
                assert!(m.best + 1e-6 >= m.chosen, "{m:?}");
                if let Some(allowed) = m.best_allowed {
                    assert!(m.best + 1e-6 >= allowed, "{m:?}");
                }
            }
            let regret = Regret::of(bound, &games);
            assert!(regret.repetitions < 30, "{regret:?}");
            // The identity holds in expectation: the estimate and the plain share agree within
            // the noise of 2000 games (the share's standard error is about 0.011).
            assert!((regret.estimate() - regret.reached).abs() < 0.035, "{regret:?}");
            // And it means something: settai falls short of the bound here, before and after
            // the first blunder, and the rule forbids the bound's best move somewhere.
            assert!(regret.reached < bound - 0.02, "{regret:?}");
            assert!(regret.before_moves > 0 && regret.after_moves > 0 && regret.before_forbidden > 0, "{regret:?}");
        }
    }

    #[test]
    fn a_level_playing_the_bounds_best_moves_loses_nothing_and_lasts_as_often_as_the_bound_says() {
        let best_move = |_: &BuiltTable, index: &Index, values: &SurvivalValues, game: &History, _: &mut StdRng| {
            let (pos, ply) = (game.position(), game.moves().len() as u32);
            let chance = |m: &Move| values.chance(index, &pos.play(*m).unwrap(), ply + 1).unwrap();
            Ok(pos.legal_moves().into_iter().max_by(|a, b| chance(a).total_cmp(&chance(b))).unwrap())
        };
        let (bound, games) = scored(best_move, DoubutsuGuest::HeedingChild(0.5), 0.5, 2000);
        let regret = Regret::of(bound, &games);
        assert!(regret.before_chosen + regret.before_forced < 1e-9 && regret.after < 1e-9, "{regret:?}");
        assert!((regret.estimate() - bound).abs() < 1e-9, "{regret:?}");
        // The simulated games against the bound's own chances: 2000 games, a standard error
        // of about 0.011.
        assert!((regret.reached - bound).abs() < 0.035, "{regret:?}");
        assert!(bound > 0.2 && bound < 0.95, "{bound}: the games must be at risk for this to mean anything");
    }

    #[test]
    fn choosing_by_the_bound_within_the_rule_loses_nothing_by_choice_before_the_first_blunder() {
        let by_the_bound = |table: &BuiltTable, index: &Index, values: &SurvivalValues, g: &History, r: &mut StdRng| {
            let own = settai(table, index, values, g, r)?;
            within_the_rule_by_the_bound(table, index, values, 12, Among::Allowed, g, own, r)
        };
        let guest = DoubutsuGuest::HeedingChild(0.5);
        let (bound, games) = scored(by_the_bound, guest, 0.5, 1000);
        let regret = Regret::of(bound, &games);
        // Ties within a millionth count as the best.
        assert!(regret.before_chosen.abs() < 1e-5 && regret.before_moves > 500, "{regret:?}");
        // Settai's own choices within the rule do lose something here, or the test shows nothing.
        let (_, own) = scored(settai, guest, 0.5, 1000);
        assert!(Regret::of(bound, &own).before_chosen > 0.005, "{:?}", Regret::of(bound, &own));
    }

    #[test]
    fn before_any_blunder_settai_plays_a_move_the_rule_allows() {
        let root: Position = ROOT.parse().unwrap();
        let table = build(Material::of(&root), &BuildOptions::default()).unwrap();
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..300 {
            let mut game = History::from_position(root);
            while game.outcome().is_none() && game.moves().len() < 16 {
                let mv = if game.position().turn() == Color::Sente {
                    DoubutsuGuest::HeedingChild(0.5).choose(&table, &game, &mut rng).unwrap()
                } else {
                    // Only the moves before the guest's first blunder are checked.
                    if guest_was_careless(&game) {
                        break;
                    }
                    let mv = DoubutsuLevel::Settai.choose_move(Some(&table), &game, &mut rng).unwrap();
                    let fresh = game.legal_moves().iter().all(|&m| dob::seen_before(&game, m) == 0);
                    if fresh {
                        assert!(
                            allowed_by_the_rule(&table, &game).unwrap().contains(&mv),
                            "{mv} after {:?}",
                            game.moves()
                        );
                        checked += 1;
                    }
                    mv
                };
                game.play(mv).unwrap();
            }
        }
        assert!(checked > 300, "{checked}");
    }
}
