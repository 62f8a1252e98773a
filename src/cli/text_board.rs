//! Games as plain text in a terminal: the board and the line that ends a game.

use settai_core::{reversi, Game, GameKind, Side};

use crate::i18n::{side_name, Lang, Msg};

/// The end of a terminal game from the human's side, through the catalogue ("you win", "I win").
pub fn game_over_line(outcome: &settai_core::Outcome, human: Side) -> String {
    let human_won = outcome.winner.map(|w| w == human);
    Msg::GameOver { human_won, score: outcome.score, reason: Some(outcome.reason) }.text(Lang::En)
}

/// A plain text board: `X` black, `O` white, `*` legal moves for the side to move.
pub fn text_board(game: &Game) -> String {
    match game {
        Game::Reversi(p) => {
            let legal = p.legal_mask();
            let mut out = String::from("   a b c d e f g h\n");
            for row in 0..8 {
                out.push_str(&format!(" {}", row + 1));
                for col in 0..8 {
                    let bit = 1u64 << (row * 8 + col);
                    let c = if p.black() & bit != 0 {
                        'X'
                    } else if p.white() & bit != 0 {
                        'O'
                    } else if legal & bit != 0 {
                        '*'
                    } else {
                        '.'
                    };
                    out.push(' ');
                    out.push(c);
                }
                out.push('\n');
            }
            out.push_str(&format!("X {}  O {}", p.count(reversi::Color::Black), p.count(reversi::Color::White)));
            if let Some(side) = game.to_move() {
                let mark = if side == Side::First { "X" } else { "O" };
                out.push_str(&format!("  — {} ({mark}) to move", side_name(GameKind::Reversi, side, Lang::En)));
            }
            out
        }
        Game::Doubutsu(g) => super::doubutsu::text_board(g.history()),
    }
}
