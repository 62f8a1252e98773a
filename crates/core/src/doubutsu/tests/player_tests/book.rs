//! Deviation 7: before the guest's first blunder, settai's early moves by the keep-going book
//! (docs/design/doubutsu-settai.md#deviation-7-choosing-early-moves-by-the-keep-going-book).

use super::super::super::table::index::Index;
use super::super::super::table::keep_going_book::{KeepGoingBook, WithBook};
use super::super::super::table::survival::CarelessPlayer;
use rand::Rng;

use super::*;

/// A root of the sub-game's pieces where settai, the second to move, wins (in 12 plies with
/// perfect play): the book applies where the seed's choice wins.
pub(super) const BOOK_ROOT: &str = "1l1/gc1/1C1/1L1 b g";

/// The last ply the sub-game's book keeps, and the length it is for.
pub(super) const LAST_PLY: u32 = 8;
const LENGTH: u32 = 12;

/// The sub-game's table with its keep-going book (for the coached child, as the bot's).
pub(super) fn booked() -> &'static WithBook<&'static Tablebase> {
    static B: OnceLock<WithBook<&'static Tablebase>> = OnceLock::new();
    B.get_or_init(|| {
        let root = pos(BOOK_ROOT);
        let player = CarelessPlayer { heed: 0.5, takebacks: false };
        let index = Index::new(Material::of(&root));
        let book = KeepGoingBook::build(&index, &root, LENGTH, player, LAST_PLY, &BuildOptions::default()).unwrap();
        WithBook::new(table(), book)
    })
}

/// The book's chance after `m` in `g`.
fn book_chance(g: &History, m: super::super::Move) -> f64 {
    let after = g.position().play(m).unwrap();
    booked().keep_going_chance(&after, g.moves().len() as u32 + 1).expect("the book knows every early position")
}

/// The moves the divergence rule allows settai in `g` (of the seed's candidates, before a
/// blunder): those within the guest's divergence, or the lowest-scored when none is.
fn allowed(g: &History) -> Vec<(super::super::Move, i32)> {
    let t = table();
    let p = *g.position();
    let evals = evaluate_moves(t, &p).unwrap();
    let best = evals.iter().map(|e| score(e.1)).max().unwrap();
    let (before, guest_move) = g.last_move().unwrap();
    let guest = analyze(t, &before, guest_move).unwrap().divergence;
    let pool = candidates(&p, &evals, false, false);
    let qualifying: Vec<_> = pool.iter().copied().filter(|c| divergence(c.1, best) <= guest + 1e-12).collect();
    if !qualifying.is_empty() {
        return qualifying;
    }
    let lowest = pool.iter().map(|c| c.1).min().unwrap();
    pool.into_iter().filter(|c| c.1 == lowest).collect()
}

/// The moves of the seed's outcome that deviation 7 may choose among in `g` after a guest move
/// that was not its best, those that do not corner the guest (all of them when each does),
/// before the book narrows them: where the seed's choice among `allowed` wins, the winning
/// ones; where it loses, the losses at most `BOOK_LOSS_WINDOW` points faster; `None` elsewhere
/// and after the guest's best move.
fn of_the_outcome_and_open(
    g: &History,
    allowed: &[(super::super::Move, i32)],
) -> Option<Vec<(super::super::Move, i32)>> {
    if guest_played_its_best(g) {
        return None;
    }
    let seeds = allowed.iter().map(|c| c.1).max().unwrap();
    let pool: Vec<_> = if seeds > 0 {
        allowed.iter().copied().filter(|c| c.1 > 0).collect()
    } else if seeds < 0 {
        allowed.iter().copied().filter(|c| c.1 >= seeds - players::BOOK_LOSS_WINDOW).collect()
    } else {
        return None;
    };
    let open: Vec<_> = pool.iter().copied().filter(|c| !corners(g.position(), c.0)).collect();
    Some(if open.is_empty() { pool } else { open })
}

/// Whether the guest's last move in `g` was one of its best by the table.
fn guest_played_its_best(g: &History) -> bool {
    let (before, guest_move) = g.last_move().unwrap();
    let best = evaluate_moves(table(), &before).unwrap().iter().map(|e| score(e.1)).max().unwrap();
    move_score(table(), &before, guest_move) == best
}

/// The moves deviation 7 chooses among, as its doc states it: [`of_the_outcome_and_open`]
/// narrowed to the book's best chance where it applies; elsewhere the seed's own.
fn by_the_book_reference(g: &History) -> Vec<(super::super::Move, i32)> {
    let allowed = allowed(g);
    let Some(open) = of_the_outcome_and_open(g, &allowed) else {
        let seeds = allowed.iter().map(|c| c.1).max().unwrap();
        return allowed.into_iter().filter(|c| c.1 == seeds).collect();
    };
    let top = open.iter().map(|c| book_chance(g, c.0)).fold(0.0, f64::max);
    open.into_iter().filter(|c| book_chance(g, c.0) >= top - 1e-9).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn before_a_blunder_early_moves_keep_the_rule_and_the_seeds_outcome_and_take_the_books_best(
        choices in prop::collection::vec(any::<u32>(), 1..(LAST_PLY as usize)),
        seed in any::<u64>(),
    ) {
        let g = history_from(BOOK_ROOT, &choices);
        let played = g.moves().len();
        // Settai (gote) to move within the book's plies, before any blunder of the guest's.
        prop_assume!(played % 2 == 1 && (played as u32) < LAST_PLY && g.outcome().is_none());
        prop_assume!(!tactics::guest_was_careless(&g));
        prop_assume!(!g.legal_moves().iter().any(|&m| g.position().captures_lion(m)));
        prop_assume!(g.legal_moves().iter().all(|&m| tactics::seen_before(&g, m) == 0));
        let reply = players::settai_keeping_going(booked(), &g, &mut StdRng::seed_from_u64(seed), TEST_KEEP_GOING).unwrap();
        let chosen = by_the_book_reference(&g);
        let s = move_score(table(), g.position(), reply);
        // Among the book's best, the highest-scored: the seed's rule over what is left.
        let aim = chosen.iter().map(|c| c.1).max().unwrap();
        prop_assert!(chosen.iter().any(|c| c.0 == reply), "{} not among {:?}", reply, chosen);
        prop_assert_eq!(s, aim);
    }
}

/// Plays `games` games of the sub-game up to `plies` plies, a guest who never blunders (any
/// move that does not lose at once, at random) against settai with the book, and shows `each`
/// every position settai moves in with its reply with the book and without it (same seed).
fn against_a_safe_guest(
    rng: &mut StdRng,
    games: usize,
    plies: usize,
    mut each: impl FnMut(&History, super::super::Move, super::super::Move),
) {
    for _ in 0..games {
        let mut g = History::from_position(pos(BOOK_ROOT));
        while g.outcome().is_none() && g.moves().len() < plies {
            let p = *g.position();
            if g.legal_moves().iter().any(|&m| p.captures_lion(m)) {
                break;
            }
            let mv = if g.moves().len() % 2 == 0 {
                let safe: Vec<_> = g.legal_moves().into_iter().filter(|&m| !p.loses_at_once(m)).collect();
                match safe.choose(rng) {
                    Some(&m) => m,
                    None => break,
                }
            } else {
                let seed = rng.gen::<u64>();
                let with =
                    players::settai_keeping_going(booked(), &g, &mut StdRng::seed_from_u64(seed), TEST_KEEP_GOING)
                        .unwrap();
                let without =
                    players::settai_keeping_going(table(), &g, &mut StdRng::seed_from_u64(seed), TEST_KEEP_GOING)
                        .unwrap();
                each(&g, with, without);
                with
            };
            g.play(mv).unwrap();
        }
    }
}

#[test]
fn the_book_changes_early_moves_for_better_chances_and_nothing_past_its_plies() {
    let (mut differed, mut compared, mut past) = (0, 0, 0);
    against_a_safe_guest(&mut StdRng::seed_from_u64(17), 400, 12, |g, with, without| {
        let all_fresh = g.legal_moves().iter().all(|&m| tactics::seen_before(g, m) == 0);
        if (g.moves().len() as u32) < LAST_PLY && all_fresh {
            compared += 1;
            let (a, b) = (book_chance(g, with), book_chance(g, without));
            assert!(a >= b - 1e-9, "{with} ({a}) vs {without} ({b}) after {:?}", g.moves());
            differed += usize::from(a > b + 1e-9);
        } else if (g.moves().len() as u32) >= LAST_PLY {
            // Past the book, settai is the seed's again.
            assert_eq!(with, without, "after {:?}", g.moves());
            past += 1;
        }
    });
    assert!(compared > 400 && past > 50, "{compared} compared, {past} past the book");
    assert!(differed > 20, "the book bettered only {differed} of {compared} early moves");
}

#[test]
fn the_book_does_not_lead_back_to_a_position_already_seen_while_a_fresh_one_is_allowed() {
    // A guest who shuffles its lion back and forth, never blundering, so that positions recur.
    let mut rng = StdRng::seed_from_u64(23);
    let mut checked = 0;
    for _ in 0..600 {
        let mut g = History::from_position(pos(BOOK_ROOT));
        while g.outcome().is_none() && (g.moves().len() as u32) < LAST_PLY {
            let p = *g.position();
            if g.legal_moves().iter().any(|&m| p.captures_lion(m)) {
                break;
            }
            let mv = if g.moves().len() % 2 == 0 {
                let safe: Vec<_> = g.legal_moves().into_iter().filter(|&m| !p.loses_at_once(m)).collect();
                let back: Vec<_> = safe.iter().copied().filter(|&m| tactics::seen_before(&g, m) > 0).collect();
                match (back.choose(&mut rng), safe.choose(&mut rng)) {
                    (Some(&m), _) | (None, Some(&m)) => m,
                    (None, None) => break,
                }
            } else {
                let reply = players::settai_keeping_going(booked(), &g, &mut rng, TEST_KEEP_GOING).unwrap();
                let by_the_book = of_the_outcome_and_open(&g, &allowed(&g)).unwrap_or_default();
                let fresh = by_the_book.iter().any(|c| tactics::seen_before(&g, c.0) == 0);
                let repeats = by_the_book.iter().any(|c| tactics::seen_before(&g, c.0) > 0);
                if fresh && repeats && !tactics::guest_was_careless(&g) {
                    assert_eq!(tactics::seen_before(&g, reply), 0, "{reply} after {:?}", g.moves());
                    checked += 1;
                }
                reply
            };
            g.play(mv).unwrap();
        }
    }
    assert!(checked >= 10, "only {checked} positions with both fresh and repeated allowed moves");
}

#[test]
fn where_the_seeds_choice_loses_the_book_waits_for_a_guest_move_that_was_not_its_best() {
    // A guest who never blunders and taps at random: the rule makes settai hand it wins.
    let (mut after_its_best, mut after_a_poorer_move, mut moved) = (0, 0, 0);
    against_a_safe_guest(&mut StdRng::seed_from_u64(29), 1500, LAST_PLY as usize, |g, with, without| {
        let allowed = allowed(g);
        let seeds = allowed.iter().map(|c| c.1).max().unwrap();
        if seeds < 0 && !tactics::guest_was_careless(g) {
            if guest_played_its_best(g) {
                assert_eq!(with, without, "after {:?}", g.moves());
                after_its_best += 1;
            } else {
                let s = move_score(table(), g.position(), with);
                assert!(s < 0 && s >= seeds - players::BOOK_LOSS_WINDOW, "{with} ({s}) after {:?}", g.moves());
                after_a_poorer_move += 1;
                moved += usize::from(with != without);
            }
        }
    });
    assert!(after_its_best >= 10, "only {after_its_best} lost positions after the guest's best move");
    assert!(after_a_poorer_move >= 10, "only {after_a_poorer_move} lost positions after a poorer move");
    assert!(moved >= 1, "the book never moved settai off the seed's loss ({after_a_poorer_move} positions)");
}
