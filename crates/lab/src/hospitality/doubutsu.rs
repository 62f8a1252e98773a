//! Doubutsu shogi guests and the game loop of the hospitality benchmark.
//!
//! The guest is always sente (it moves first, as the human does in the bot); the level under
//! test plays gote. The exact table values every position, so each game also yields its value
//! curve from the guest's side.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::Rng;

use super::{GuestResult, SimulatedGame};
use crate::cpu_clock::CpuWatch;
use settai_core::doubutsu::score;
#[cfg(test)]
use settai_core::doubutsu::Value;
use settai_core::doubutsu::{self as dob, Color, History, Move, Position, Role, Square, Table};
use settai_core::{doubutsu_moves_in_order, doubutsu_offers_takeback};

/// The level under test: the bot's own.
use settai_core::doubutsu::DoubutsuLevel;

/// How often `heeding-child` skips a move marked ⚠ when no probability is given.
pub const DEFAULT_HEED: f64 = 0.5;

/// A simulated guest, from a child who taps anything to a perfect player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DoubutsuGuest {
    /// Any legal move, uniformly.
    Random,
    /// A child who knows how a game is won: takes a win in one (a lion capture or a try that
    /// cannot be answered) when the board offers one, and otherwise taps any legal move.
    Child,
    /// The child helped by the coach (docs/design/kind-coach.md): plays as [`Self::Child`], but
    /// when the move tapped is one the menus mark ⚠ (it loses at once), skips it with this
    /// probability and taps another of the unmarked ones; where take-backs are on, takes the
    /// one the coach offers with the same probability
    /// ([`DoubutsuGuest::takes_offered_takeback`]). `heeding-child(0)` is the child.
    HeedingChild(f64),
    /// The seed's 雑魚: random, but wins in one when it can and avoids losing in one.
    Weakest,
    /// Picks move m with probability ∝ exp(score(m) / τ) over the exact move scores
    /// (−100..100): large τ is careless, small τ nearly perfect.
    Softmax(f64),
    /// Alpha-beta to this depth on material and safety, as a human who reads ahead plays.
    Heuristic(u32),
    /// The table's best move, ties at random.
    Perfect,
}

impl DoubutsuGuest {
    /// Every guest, from the weakest to the strongest (roughly; the benchmark measures it),
    /// except that `child` (added later) comes last: a run's game seeds follow the guest's
    /// place in this list, so the earlier guests keep the games of the runs before it.
    pub fn all() -> Vec<DoubutsuGuest> {
        use DoubutsuGuest::*;
        vec![
            Random,
            Weakest,
            Softmax(30.0),
            Heuristic(2),
            Softmax(10.0),
            Heuristic(4),
            Softmax(3.0),
            Softmax(1.0),
            Perfect,
            Child,
        ]
    }

    /// The name used in reports and on the command line, e.g. `softmax(10)`.
    pub fn name(&self) -> String {
        match self {
            DoubutsuGuest::Random => "random".into(),
            DoubutsuGuest::Child => "child".into(),
            DoubutsuGuest::HeedingChild(q) => format!("heeding-child({q})"),
            DoubutsuGuest::Weakest => "weakest".into(),
            DoubutsuGuest::Softmax(t) => format!("softmax({t})"),
            DoubutsuGuest::Heuristic(d) => format!("heuristic({d})"),
            DoubutsuGuest::Perfect => "perfect".into(),
        }
    }

    /// Parses a name as [`DoubutsuGuest::name`] writes it.
    pub fn parse(s: &str) -> Option<DoubutsuGuest> {
        let s = s.trim().to_ascii_lowercase();
        let arg =
            |prefix: &str| s.strip_prefix(prefix).and_then(|r| r.strip_prefix('(')).and_then(|r| r.strip_suffix(')'));
        match s.as_str() {
            "random" => Some(DoubutsuGuest::Random),
            "child" => Some(DoubutsuGuest::Child),
            "heeding-child" => Some(DoubutsuGuest::HeedingChild(DEFAULT_HEED)),
            "weakest" => Some(DoubutsuGuest::Weakest),
            "perfect" => Some(DoubutsuGuest::Perfect),
            _ => {
                if let Some(q) = arg("heeding-child").and_then(|a| a.parse::<f64>().ok()) {
                    return (0.0..=1.0).contains(&q).then_some(DoubutsuGuest::HeedingChild(q));
                }
                if let Some(t) = arg("softmax").and_then(|a| a.parse::<f64>().ok()).filter(|t| *t > 0.0) {
                    Some(DoubutsuGuest::Softmax(t))
                } else {
                    arg("heuristic")
                        .and_then(|a| a.parse().ok())
                        .filter(|d| (1..=6).contains(d))
                        .map(DoubutsuGuest::Heuristic)
                }
            }
        }
    }

    /// Whether the guest, just answered by the level in `game`, takes the take-back the coach
    /// offers: only `heeding-child(q)`, with probability q, where take-backs are on and the
    /// coach offers one after the guest's move ([`doubutsu_offers_takeback`], the bot's
    /// own rule).
    pub fn takes_offered_takeback<R: Rng>(&self, game: &History, takebacks: Takebacks, rng: &mut R) -> bool {
        let DoubutsuGuest::HeedingChild(q) = *self else { return false };
        let Some(guest_ply) = game.moves().len().checked_sub(2) else { return false };
        let (before, mv) = (game.positions()[guest_ply], game.moves()[guest_ply]);
        // Moves alternate: the guest (sente) made the move before the level's answer exactly
        // when it is to move again.
        let guest_to_move = game.outcome().is_none() && game.position().turn() == Color::Sente;
        takebacks == Takebacks::On
            && before.turn() == Color::Sente
            && doubutsu_offers_takeback(&before, mv, game, guest_to_move)
            && rng.gen_bool(q)
    }

    /// The guest's move in `game` (which must not be over).
    pub fn choose<T: Table, R: Rng>(&self, table: &T, game: &History, rng: &mut R) -> Result<Move, dob::PlayerError> {
        let pos = game.position();
        match *self {
            DoubutsuGuest::Random => pos.legal_moves().choose(rng).copied().ok_or(dob::PlayerError::GameOver),
            DoubutsuGuest::Child => match pos.winning_moves().choose(rng) {
                Some(&m) => Ok(m),
                None => pos.legal_moves().choose(rng).copied().ok_or(dob::PlayerError::GameOver),
            },
            DoubutsuGuest::HeedingChild(q) => {
                let tapped = DoubutsuGuest::Child.choose(table, game, rng)?;
                // The menus as the bot shows them with hints on: the marks are the coach's.
                let menu = doubutsu_moves_in_order(game, true);
                let unmarked: Vec<Move> = menu.iter().filter(|&&(_, risky)| !risky).map(|&(m, _)| m).collect();
                if menu.contains(&(tapped, true)) && !unmarked.is_empty() && rng.gen_bool(q) {
                    return Ok(*unmarked.choose(rng).expect("non-empty"));
                }
                Ok(tapped)
            }
            DoubutsuGuest::Weakest => dob::weakest(game, rng),
            DoubutsuGuest::Softmax(tau) => {
                // Outside the table (after someone missed a lion capture) the guest reads
                // ahead by hand instead.
                let Ok(evals) = dob::evaluate_moves(table, pos) else {
                    return Ok(dob::heuristic(pos, 2, rng));
                };
                let top = evals.iter().map(|e| score(e.1)).max().ok_or(dob::PlayerError::GameOver)?;
                let weights: Vec<f64> = evals.iter().map(|e| ((score(e.1) - top) as f64 / tau).exp()).collect();
                let total: f64 = weights.iter().sum();
                let mut pick = rng.gen::<f64>() * total;
                for (e, w) in evals.iter().zip(&weights) {
                    if pick < *w {
                        return Ok(e.0);
                    }
                    pick -= w;
                }
                Ok(evals.last().expect("non-empty").0)
            }
            DoubutsuGuest::Heuristic(depth) => Ok(dob::heuristic(pos, depth, rng)),
            DoubutsuGuest::Perfect => {
                let Ok(evals) = dob::evaluate_moves(table, pos) else {
                    return Ok(dob::heuristic(pos, dob::FALLBACK_HEURISTIC_DEPTH, rng));
                };
                let best = evals.iter().map(|e| dob::preference(e.1)).max().ok_or(dob::PlayerError::GameOver)?;
                let top: Vec<Move> = evals.iter().filter(|e| dob::preference(e.1) == best).map(|e| e.0).collect();
                Ok(*top.choose(rng).expect("non-empty"))
            }
        }
    }
}

/// How many of `owner`'s pieces (the lion aside) the other side attacks and `owner` does not
/// defend: pieces left to be taken for nothing.
pub fn hanging(pos: &Position, owner: Color) -> usize {
    (0..12)
        .filter_map(Square::new)
        .filter(|&sq| {
            pos.piece_at(sq).is_some_and(|p| p.color == owner && p.role != Role::Lion)
                && pos.attacks(owner.opposite(), sq)
                && !pos.attacks(owner, sq)
        })
        .count()
}

/// Whether `mv` in `pos` is a "tell": it leaves a piece hanging while another move would
/// leave none, and it does not simply win the game.
pub fn is_tell(pos: &Position, mv: Move) -> bool {
    let me = pos.turn();
    let after = pos.play(mv).expect("legal move");
    if after.outcome().is_some() || hanging(&after, me) == 0 {
        return false;
    }
    pos.legal_moves()
        .into_iter()
        .any(|m| m != mv && pos.play(m).is_ok_and(|q| q.outcome().is_none() && hanging(&q, me) == 0))
}

/// Plies after which an unfinished game is scored a draw (repetition ends real games first).
pub const MAX_PLIES: usize = 400;

/// Whether the place the games are played in allows take-backs (`/settings takeback`): the
/// coach then offers one after a move that lost at once while another did not, and
/// `heeding-child(q)` takes it with probability q (docs/design/kind-coach.md#measured).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Takebacks {
    /// As servers start.
    #[default]
    Off,
    /// Allowed.
    On,
}

/// Plays one game from `start` (sente to move: the official start in the benchmark), the
/// guest as sente against `level` as gote.
pub fn play_game<T: Table, R: Rng>(
    table: &T,
    start: Position,
    level: DoubutsuLevel,
    guest: DoubutsuGuest,
    takebacks: Takebacks,
    rng: &mut R,
) -> Result<SimulatedGame, dob::ChooseError> {
    let mut game = History::from_position(start);
    let mut record = SimulatedGame::default();
    let (mut ai_time, mut ai_cpu_time) = (Duration::ZERO, Some(Duration::ZERO));
    // Positions the table cannot value (only a table of other pieces has any) keep the last
    // known value and are counted.
    let value_for_guest = |pos: &Position, record: &mut SimulatedGame| {
        let v = match dob::value_of(table, pos) {
            Ok(v) => {
                let s = score(v);
                if pos.turn() == Color::Sente {
                    s
                } else {
                    -s
                }
            }
            Err(_) => {
                record.unvalued += 1;
                record.values.last().copied().unwrap_or(0)
            }
        };
        record.values.push(v);
    };
    value_for_guest(game.position(), &mut record);
    // Whether each ply of the record was a tell, to undo a take-back's count.
    let mut tells: Vec<bool> = Vec::new();
    while game.outcome().is_none() && game.moves().len() < MAX_PLIES {
        let pos = *game.position();
        let guest_to_move = pos.turn() == Color::Sente;
        let mv = if guest_to_move {
            guest.choose(table, &game, rng)?
        } else {
            let (started, cpu) = (Instant::now(), CpuWatch::start());
            let mv = level.choose_move(Some(table), &game, rng)?;
            ai_time += started.elapsed();
            ai_cpu_time = ai_cpu_time.zip(cpu.elapsed()).map(|(sum, t)| sum + t);
            if !pos.captures_lion(mv) && pos.legal_moves().into_iter().any(|c| pos.captures_lion(c)) {
                record.lion_ignored += 1;
            }
            mv
        };
        let tell = is_tell(&pos, mv);
        tells.push(tell);
        if guest_to_move {
            record.guest_moves += 1;
            record.guest_tells += tell as u32;
        } else {
            record.ai_moves += 1;
            record.ai_tells += tell as u32;
        }
        record.moves.push(mv.to_string());
        game.play(mv).expect("players choose legal moves");
        value_for_guest(game.position(), &mut record);
        if !guest_to_move && guest.takes_offered_takeback(&game, takebacks, rng) {
            // Both moves undone, from the game and from its record.
            for _ in 0..2 {
                game.undo();
                record.moves.pop();
                record.values.pop();
                let tell = tells.pop().expect("a move per ply") as u32;
                if game.position().turn() == Color::Sente {
                    record.guest_moves -= 1;
                    record.guest_tells -= tell;
                } else {
                    record.ai_moves -= 1;
                    record.ai_tells -= tell;
                }
            }
            record.takebacks += 1;
        }
    }
    record.result = match game.outcome() {
        Some(dob::Ending::Win { winner: Color::Sente, .. }) => GuestResult::Win,
        Some(dob::Ending::Win { .. }) => GuestResult::Loss,
        Some(dob::Ending::Draw) | None => GuestResult::Draw,
    };
    record.plies = game.moves().len() as u32;
    record.ending = Some(ending(&game));
    record.ai_time = ai_time;
    record.ai_cpu_time = ai_cpu_time;
    record.finish_curve();
    Ok(record)
}

/// How a finished (or capped) game ended, as a label for the report's endings table:
/// `W` (the guest won), `L` (it lost) or `D`, then how, then what the loser's last move was.
///
/// - `W lion (...)`, `W try (...)`, `L lion (...)`, `L try (...)`: the winner captured the lion
///   or completed a try; in brackets the loser's last move (every such move lost at once):
///   `in kind` (the winner's move before it had itself lost at once while a safe move existed:
///   the loser answered a blunder with one), `chosen` (a move that did not lose at once was
///   there and nothing provoked it), `forced` (every move lost at once) or `missed` (it failed
///   to capture the winner's lion, which stood capturable).
/// - `D repetition (guest)` / `D repetition (bot)`: the third occurrence, completed by that side's
///   move; `D cap`: [`MAX_PLIES`] reached.
pub fn ending(game: &History) -> String {
    let Some((before, _)) = game.last_move() else { return "D cap".into() };
    let last_by = if before.turn() == Color::Sente { "guest" } else { "bot" };
    match game.outcome() {
        None => "D cap".into(),
        Some(dob::Ending::Draw) => format!("D repetition ({last_by})"),
        Some(dob::Ending::Win { winner, reason }) => {
            let side = if winner == Color::Sente { "W" } else { "L" };
            let how = match reason {
                dob::WinReason::LionCaptured => "lion",
                dob::WinReason::Try => "try",
                dob::WinReason::NoMoves => "no moves",
            };
            // The loser's last move: the one before the winning move, or the last move itself
            // when it was a try left uncaptured (the game ends on the loser's own move then).
            let moves = game.moves();
            let n = moves.len();
            let loser_ply = if before.turn() == winner { n.checked_sub(2) } else { Some(n - 1) };
            let why = loser_ply.map_or("forced", |i| {
                let p = game.positions()[i];
                let m = moves[i];
                let provoked = i > 0 && dob::guest_lost_at_once(&game.positions()[i - 1], moves[i - 1]);
                if p.legal_moves().iter().any(|&c| p.captures_lion(c)) && !p.captures_lion(m) {
                    "missed"
                } else if p.legal_moves().iter().all(|&c| p.loses_at_once(c)) {
                    "forced"
                } else if provoked {
                    "in kind"
                } else {
                    "chosen"
                }
            });
            format!("{side} {how} ({why})")
        }
    }
}

#[cfg(test)]
mod tests;
