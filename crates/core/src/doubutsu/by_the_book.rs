//! Settai's keep-going book choice (its deviation 7,
//! docs/design/doubutsu-settai.md#deviation-7-choosing-early-moves-by-the-keep-going-book): which
//! of the moves settai may play the book's exact chances pick, where the table has a book beside
//! it ([`Table::keep_going_chance`]).

use super::game::History;
use super::players::{divergence_allowed, leaves_a_way_out, seen_before};
use super::position::Move;
use super::table::Table;

/// Deviation 7's candidates
/// (docs/design/doubutsu-settai.md#deviation-7-choosing-early-moves-by-the-keep-going-book): among
/// the moves of `candidates` the divergence rule allows (`best` the position's best score,
/// `guest` the guest's divergence) that win by the table, as the seed's choice (the
/// highest-scored of them) must, and do not corner the guest ([`leaves_a_way_out`], while one does
/// not), those after which `table`'s keep-going book gives the best chance that the game lasts
/// ([`most_likely_by_the_book`]); `None` where the book does not know them.
pub fn by_the_book<T: Table>(
    table: &T,
    game: &History,
    candidates: &[(Move, i32)],
    best: i32,
    guest: (i32, i32),
) -> Option<Vec<(Move, i32)>> {
    let allowed = divergence_allowed(candidates, best, guest);
    // Only while the seed's choice wins: where it draws or hands the guest a win, a faster
    // loss the book might prefer would shorten a good player's game.
    if allowed.iter().map(|c| c.1).max()? <= 0 {
        return None;
    }
    let winning: Vec<(Move, i32)> = allowed.into_iter().filter(|c| c.1 > 0).collect();
    // The book's chances let the opponent decline a lion a cornered child must hang, which
    // settai does not: no move that corners the guest while another remains (as deviation 6).
    let pos = game.position();
    let open: Vec<(Move, i32)> = winning.iter().copied().filter(|c| leaves_a_way_out(pos, c.0)).collect();
    most_likely_by_the_book(table, game, if open.is_empty() { &winning } else { &open })
}

/// The moves of `moves` after which `table`'s keep-going book gives the best chance that the
/// game lasts, among those to a position not seen yet in `game` when there are any (the book,
/// as the bound, knows nothing of the repetition draw, and would shuffle back and forth); `None`
/// where the book does not know every one of them, or there are none
/// (docs/design/doubutsu-settai.md#deviation-7-choosing-early-moves-by-the-keep-going-book).
pub fn most_likely_by_the_book<T: Table>(table: &T, game: &History, moves: &[(Move, i32)]) -> Option<Vec<(Move, i32)>> {
    if moves.is_empty() {
        return None;
    }
    let pos = game.position();
    let fresh: Vec<(Move, i32)> = moves.iter().copied().filter(|c| seen_before(game, c.0) == 0).collect();
    let moves = if fresh.is_empty() { moves } else { &fresh };
    let after = u32::try_from(game.moves().len() + 1).ok()?;
    let chances =
        moves.iter().map(|c| table.keep_going_chance(&pos.play(c.0).ok()?, after)).collect::<Option<Vec<f64>>>()?;
    let top = chances.iter().copied().fold(0.0, f64::max);
    // The book's chances are multiples of 1/65535: equal within half of that.
    Some(moves.iter().zip(chances).filter(|(_, c)| *c >= top - 0.5 / 65535.0).map(|(m, _)| *m).collect())
}
