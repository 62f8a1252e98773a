//! Reversi (Othello), by stage: the rules, the engine that searches them, and the levels the
//! bot plays at. Each stage imports only the stages before it.
//!
//! Columns a-h run left to right and rows 1-8 top to bottom; square index = `row * 8 + col`,
//! so a1 is bit 0 and h8 bit 63. Black moves first. Positions are plain `Copy` values and
//! every move returns a new position.
//!
//! The stages are private; what the bot, the lab and the command use is re-exported here, by
//! stage:
//!
//! - the rules (`rules`): [`Color`], [`Square`], [`Move`], [`Position`] and the bitboard
//!   [`moves`], notation and the 64+2 character position format ([`parse_moves`], [`replay`]),
//!   [`perft`], seeded random play ([`random_playout`]);
//! - the engine (`engine`): the shared search ([`Engine`]: PVS, transposition table, move
//!   ordering, a deadline on the [`Clock`] its caller hands in, iterative deepening at the
//!   root); the trained pattern evaluation ([`PatternEval`], which its caller owns and hands in)
//!   and its objective ([`Strong`]); the classic square-table evaluation and its fixed-depth
//!   search ([`search`], [`choose_move`]); the exact endgame solver ([`solve`]); ProbCut's
//!   margins ([`probcut`]);
//! - the levels (`levels`): [`choose_at_level`] (`standard`, `highest`, `none`,
//!   `standard-classic`), the value of a position for charts ([`position_value`]) and the
//!   strength estimate of the human ([`strength`]).

pub(crate) mod engine;
pub(crate) mod levels;
pub(crate) mod rules;

// The rules: colours, squares, moves, positions, notation, perft, seeded random play.
pub use rules::board::{moves, Color, DiscCount, IllegalMove, Move, Position, PositionError, Square};
pub use rules::notation::{parse_moves, replay, MoveListError, ParseMoveError, ParsePositionError, ParseSquareError};
pub use rules::perft::perft;
pub use rules::random_play::random_playout;

// The engine: the shared search, its clock, the pattern evaluation, the classic search, the solver.
pub use engine::classic::{
    choose_move, choose_move_with, eval_pp, search, search_with, simple_eval, square_score, Searched,
    CLASSIC_EXACT_EMPTIES, CLASSIC_TT_BITS, DISC_SCORE,
};
pub use engine::endgame::{solve, Solved};
pub use engine::eval::{phase, PatternEval, WeightsError, DISC, N_PHASES};
pub use engine::patterns::{transform, Layout, N_TYPES};
pub use engine::probcut;
pub use engine::search::{final_margin, Clock, Engine, CORNERS, END_NODE_NS, INF};
pub use engine::strong::Strong;

// The levels the bot plays at.
pub use levels::level::{choose_at_level, position_value, Choice, ReversiLevel, Stage, DEFAULT_BUDGET, TT_BITS};
pub use levels::strength;
