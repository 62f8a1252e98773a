//! Game history: the moves played, the positions they led to and the repetition draw.

use std::collections::HashMap;

use super::position::{Color, Ending, IllegalMove, Move, Position};

/// How many times the same position (board, hands, side to move) must occur for a draw.
pub const REPETITION_DRAW: u8 = 3;

/// A game's history: the start, every move and position since, and occurrence counts.
#[derive(Debug, Clone)]
pub struct History {
    positions: Vec<Position>,
    moves: Vec<Move>,
    counts: HashMap<Position, u8>,
    /// Per side (sente, gote): whether it took back a move that lost at once while another
    /// did not ([`History::withdrew_blunder`]).
    withdrew_blunder: [bool; 2],
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// A game from the official start.
    pub fn new() -> History {
        History::from_position(Position::start())
    }

    /// A game from any position (the first occurrence of it).
    pub fn from_position(start: Position) -> History {
        History {
            positions: vec![start],
            moves: Vec::new(),
            counts: HashMap::from([(start, 1)]),
            withdrew_blunder: [false; 2],
        }
    }

    /// Replays `moves` from the official start.
    pub fn replay(moves: &[Move]) -> Result<History, IllegalMove> {
        let mut g = History::new();
        for &m in moves {
            g.play(m)?;
        }
        Ok(g)
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("never empty")
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The last move and the position it was played in.
    pub fn last_move(&self) -> Option<(Position, Move)> {
        let m = *self.moves.last()?;
        Some((self.positions[self.positions.len() - 2], m))
    }

    /// How often the current position has occurred (1 the first time).
    pub fn occurrences(&self) -> u8 {
        self.counts.get(self.position()).copied().unwrap_or(0)
    }

    /// The result: a rules ending of the current position, or a draw when it has occurred
    /// [`REPETITION_DRAW`] times.
    pub fn outcome(&self) -> Option<Ending> {
        self.position().outcome().or_else(|| (self.occurrences() >= REPETITION_DRAW).then_some(Ending::Draw))
    }

    /// Legal moves now (none once the game is over, repetition included).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.position().legal_moves()
    }

    /// Plays `mv`; refused when illegal or when the game is over.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome() == Some(Ending::Draw) {
            return Err(IllegalMove { mv: mv.to_string(), reason: "the game is over" });
        }
        let next = self.position().play(mv)?;
        self.positions.push(next);
        self.moves.push(mv);
        *self.counts.entry(next).or_insert(0) += 1;
        Ok(())
    }

    /// Takes back the last move, remembering whether it was a blunder of its side's
    /// ([`History::withdrew_blunder`]).
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        let p = self.positions.pop().expect("one position per move");
        let before = self.position();
        if before.loses_needlessly(m) {
            self.withdrew_blunder[side_index(before.turn())] = true;
        }
        if let Some(c) = self.counts.get_mut(&p) {
            *c -= 1;
            if *c == 0 {
                self.counts.remove(&p);
            }
        }
        Some(m)
    }

    /// Whether `side` took back, in this game, a move that lost at once while another move did
    /// not ([`Position::loses_needlessly`]): the record no longer shows that blunder, but the
    /// player made it (docs/design/doubutsu-settai.md#deviation-5-keeping-a-careless-guests-game-going).
    pub fn withdrew_blunder(&self, side: Color) -> bool {
        self.withdrew_blunder[side_index(side)]
    }

    /// Records that `side` took back such a move, for a game rebuilt from a record that no
    /// longer holds it.
    pub fn note_withdrawn_blunder(&mut self, side: Color) {
        self.withdrew_blunder[side_index(side)] = true;
    }
}

fn side_index(side: Color) -> usize {
    match side {
        Color::Sente => 0,
        Color::Gote => 1,
    }
}
