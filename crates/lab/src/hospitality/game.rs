//! One simulated game as the benchmark records it, and the seed each game is played from.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How a game ended, from the guest's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GuestResult {
    /// The guest won.
    Win,
    /// Nobody won (repetition, or the ply cap).
    #[default]
    Draw,
    /// The level won.
    Loss,
}

/// One simulated game.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SimulatedGame {
    /// The result for the guest.
    pub result: GuestResult,
    /// Plies played.
    pub plies: u32,
    /// Reversi: the guest's final disc margin.
    pub margin: Option<i32>,
    /// Reversi: the guest won with the level left without a disc.
    pub perfect: bool,
    /// The game's value from the guest's side after every ply (index 0 = the start).
    /// Doubutsu: the exact score (−100..100); reversi: the engine's evaluation in discs.
    pub values: Vec<i32>,
    /// Doubutsu: positions the table could not value (play continued after a missed lion
    /// capture); their value is carried over from the previous ply.
    pub unvalued: u32,
    /// How many times the sign of the value flipped between guest-winning and guest-losing.
    pub lead_changes: u32,
    /// The ply from which the guest's win was certain (the value stayed a guest win).
    pub certain_at: Option<u32>,
    /// Moves the level played, and how many of them an observer would call careless.
    pub ai_moves: u32,
    /// See [`SimulatedGame::ai_moves`].
    pub ai_tells: u32,
    /// The same for the guest's own moves, for comparison.
    pub guest_moves: u32,
    /// See [`SimulatedGame::guest_moves`].
    pub guest_tells: u32,
    /// Time the level spent choosing its moves (wall time: load and pauses count too).
    #[serde(serialize_with = "micros", deserialize_with = "from_micros")]
    pub ai_time: Duration,
    /// The same on a CPU, which load and pauses do not inflate; `None` in journals written
    /// before it was recorded, or where the platform does not tell.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_micros",
        deserialize_with = "opt_from_micros"
    )]
    pub ai_cpu_time: Option<Duration>,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// Reversi: (ply, change of the guest's value) for each of the level's moves: what it gave
    /// away (positive) or took back (negative), by the strong engine's judgement.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ai_gifts: Vec<(u32, i32)>,
    /// Reversi: the same for the guest's own moves (negative: what its mistakes cost it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guest_gifts: Vec<(u32, i32)>,
    /// Reversi: how well the guest played by `standard`'s estimate over its last moves (0..1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guest_strength: Option<f64>,
    /// Doubutsu: how the game ended (see [`crate::hospitality::doubutsu::ending`]); reversi games end one way.
    pub ending: Option<String>,
    /// Doubutsu: take-backs the guest asked for (each undid its move and the level's answer;
    /// [`SimulatedGame::plies`] and the moves are the game's record after them).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub takebacks: u32,
    /// Doubutsu: the level's moves, taken back ones included, that left the guest's lion
    /// standing when it could be captured: a gift the guest could see.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lion_ignored: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn micros<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_micros() as u64)
}

fn from_micros<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    u64::deserialize(d).map(Duration::from_micros)
}

fn opt_micros<S: serde::Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_some(&(d.as_micros() as u64)),
        None => s.serialize_none(),
    }
}

fn opt_from_micros<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    Option::<u64>::deserialize(d).map(|m| m.map(Duration::from_micros))
}

impl SimulatedGame {
    /// Derives lead changes and the ply the win became certain from [`SimulatedGame::values`].
    pub fn finish_curve(&mut self) {
        let mut last_sign = 0;
        self.lead_changes = 0;
        for &v in &self.values {
            let sign = v.signum();
            if sign != 0 {
                if last_sign != 0 && sign != last_sign {
                    self.lead_changes += 1;
                }
                last_sign = sign;
            }
        }
        self.certain_at = if self.result == GuestResult::Win {
            let mut from = self.values.len();
            while from > 0 && self.values[from - 1] > 0 {
                from -= 1;
            }
            Some(from as u32)
        } else {
            None
        };
    }
}

/// The seed of game `index` against guest number `guest` in a run seeded with `seed`.
pub fn game_seed(seed: u64, guest: usize, index: usize) -> u64 {
    // splitmix64 of the three, so neighbouring games get unrelated streams.
    let mut x =
        seed ^ (guest as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
