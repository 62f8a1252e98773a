//! The end of a game is linear in its length (docs/design/storage.md#the-end-of-a-game): a
//! finished game's positions are computed once, in place, into a `Line` that its story and
//! every size of its replay read. Measured by the bytes this thread allocates, which are the
//! same on every run: four times the moves must cost about four times the bytes, where a game
//! copied per position (a doubutsu history per move) costs sixteen.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use settai_core::{doubutsu, story, Game, GameKind, GameMove, Line, Side, Thinker};

/// The system allocator, counting the bytes each thread asks for.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed to the system allocator unchanged; the count is a thread-local
// cell with a constant initializer, which allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + layout.size()));
        // SAFETY: the caller's layout, passed on as it came.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + new_size));
        // SAFETY: as for `dealloc`, with the caller's new size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The bytes this thread allocates while `work` runs.
fn allocated_by(work: impl FnOnce()) -> usize {
    let before = ALLOCATED.with(Cell::get);
    work();
    ALLOCATED.with(Cell::get) - before
}

/// A doubutsu game of `plies` seeded random moves that neither end it nor lose at once.
fn long_game(plies: usize) -> Vec<GameMove> {
    (0..200u64)
        .find_map(|seed| {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let (mut game, mut moves) = (Game::new(GameKind::Doubutsu), Vec::new());
            while moves.len() < plies {
                let mut legal = game.legal_moves();
                legal.shuffle(&mut rng);
                let going_on = legal
                    .into_iter()
                    .find(|&mv| !game.loses_at_once(mv) && game.play(mv).is_ok_and(|next| next.outcome().is_none()))?;
                game.play_in_place(going_on).unwrap();
                moves.push(going_on);
            }
            Some(moves)
        })
        .expect("a seed whose game lasts that long")
}

/// The line of a finished game and its story (without the table: the values are then unknown,
/// so what is measured is the walk over the positions) cost bytes linear in its length.
#[test]
fn a_finished_games_line_and_story_cost_linear_bytes() {
    let start = Game::new(GameKind::Doubutsu);
    let cost = |moves: &[GameMove]| {
        allocated_by(|| {
            let line = Line::new(&start, moves).unwrap();
            let told =
                story::<doubutsu::BuiltTable>(&line, Side::First, None, &mut Thinker::new(std::time::Instant::now));
            assert_eq!(told.values.len(), moves.len() + 1);
        })
    };
    let game = long_game(200);
    let (short, long) = (cost(&game[..50]), cost(&game));
    let ratio = long as f64 / short as f64;
    assert!(ratio < 8.0, "{short} bytes for 50 moves, {long} for 200: ×{ratio:.1}, not linear");

    // The same measure sees a game copied per position: the check can fail.
    let copied = |moves: &[GameMove]| {
        allocated_by(|| {
            let mut games = vec![start.clone()];
            for &mv in moves {
                games.push(games.last().unwrap().play(mv).unwrap());
            }
        })
    };
    let ratio = copied(&game) as f64 / copied(&game[..50]) as f64;
    assert!(ratio > 8.0, "a history per position grows with the square: ×{ratio:.1}");
}
