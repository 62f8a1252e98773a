//! `settai-classic`: the divergence rule as published
//! (docs/design/doubutsu-settai.md#settai-classic-the-rule-as-published), checked against the
//! rule written out here from the design text: the seed's unclamped score, the +300 offset,
//! "at most", moves that lose at once left out, nothing remembered but the guest's last move,
//! and the one point the repetition draw adds.

use super::super::super::classic::{classic_choices, classic_score, settai_classic};
use super::super::super::game::REPETITION_DRAW;
use super::super::super::Move;
use super::*;

/// The published score: `100 - n` for a win in `n`, `-100 + n` for a loss, 0 for a draw.
fn published(v: Value) -> i32 {
    match v {
        Value::Win(n) => 100 - n as i32,
        Value::Loss(n) => n as i32 - 100,
        Value::Draw => 0,
    }
}

/// Every legal move of the side to move in `g`, with its published score.
fn published_moves(t: &BuiltTable, g: &History) -> Vec<(Move, i32)> {
    let p = *g.position();
    p.legal_moves().into_iter().map(|m| (m, published(t.probe(&p.play(m).unwrap()).unwrap().parent()))).collect()
}

/// The rule's target in `g` (the bot to move) and the moves that reach it: the guest's
/// divergence `(own + 300) / (best + 300)` over the position before its move (1 without one);
/// among the moves that do not lose at once (all when every one does), those whose divergence
/// is at most the guest's, compared exactly; the lowest-scored when none is.
fn published_rule(t: &BuiltTable, g: &History) -> (i32, Vec<Move>) {
    let (num, den) = match g.last_move() {
        None => (1, 1),
        Some((before, mv)) => {
            let moves = published_moves(t, &History::from_position(before));
            let best = moves.iter().map(|c| c.1).max().unwrap();
            (moves.iter().find(|c| c.0 == mv).unwrap().1 + 300, best + 300)
        }
    };
    let p = *g.position();
    let all = published_moves(t, g);
    let best = all.iter().map(|c| c.1).max().unwrap();
    let safe: Vec<_> = all.iter().copied().filter(|c| !p.loses_at_once(c.0)).collect();
    let pool = if safe.is_empty() { all } else { safe };
    let within: Vec<_> = pool
        .iter()
        .copied()
        .filter(|c| i64::from(c.1 + 300) * i64::from(den) <= i64::from(num) * i64::from(best + 300))
        .collect();
    let target = if within.is_empty() {
        pool.iter().map(|c| c.1).min().unwrap()
    } else {
        within.iter().map(|c| c.1).max().unwrap()
    };
    (target, pool.into_iter().filter(|c| c.1 == target).map(|c| c.0).collect())
}

/// A history from the root, settai-classic to move (an odd number of plies played), every
/// reply valued by the table; `None` where the game is over or a move cannot be valued.
fn classic_to_move(choices: &[u32]) -> Option<History> {
    let mut g = history(choices);
    if g.moves().len().is_multiple_of(2) {
        let p = *g.position();
        let m = *p.legal_moves().first()?;
        g.play(m).ok()?;
    }
    let p = *g.position();
    let valued = p.legal_moves().iter().all(|&m| players::value_of(table(), &p.play(m).unwrap()).is_ok());
    (g.outcome().is_none() && valued).then_some(g)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_reply_is_the_published_rules_choice(choices in prop::collection::vec(any::<u32>(), 0..40), seed in any::<u64>()) {
        let Some(g) = classic_to_move(&choices) else { return Ok(()) };
        let t = table();
        let (target, reaching) = published_rule(t, &g);
        let reply = settai_classic(t, &g, &mut StdRng::seed_from_u64(seed)).unwrap();
        prop_assert!(reaching.contains(&reply), "{reply} after {:?}: not among {reaching:?} (target {target})", g.moves());
        // What the repetition draw adds: not a third occurrence while an equal choice avoids one.
        let ends = |m: Move| tactics::seen_before(&g, m) + 1 >= REPETITION_DRAW as usize;
        if reaching.iter().any(|&m| !ends(m)) {
            prop_assert!(!ends(reply), "{reply} ends the game by repetition after {:?}", g.moves());
        }
        let going: Vec<Move> = reaching.iter().copied().filter(|&m| !ends(m) || reaching.iter().all(|&m| ends(m))).collect();
        let most_natural = going.iter().map(|&m| tactics::naturalness(g.position(), m)).max().unwrap();
        prop_assert_eq!(tactics::naturalness(g.position(), reply), most_natural);
    }

    #[test]
    fn nothing_but_the_guests_last_move_counts(choices in prop::collection::vec(any::<u32>(), 2..40)) {
        let Some(g) = classic_to_move(&choices) else { return Ok(()) };
        let (before, mv) = g.last_move().unwrap();
        let mut fresh = History::from_position(before);
        fresh.play(mv).unwrap();
        let mut long: Vec<Move> = classic_choices(table(), &g).unwrap().into_iter().map(|c| c.0).collect();
        let mut short: Vec<Move> = classic_choices(table(), &fresh).unwrap().into_iter().map(|c| c.0).collect();
        long.sort_by_key(|m| m.to_string());
        short.sort_by_key(|m| m.to_string());
        prop_assert_eq!(long, short);
    }
}

#[test]
fn a_guests_best_move_gets_the_best_move_back_that_does_not_lose_at_once() {
    // The note's central claim, over whole games where the guest always plays a best move.
    let t = table();
    let mut rng = StdRng::seed_from_u64(6);
    let mut checked = 0;
    for _ in 0..60 {
        let mut g = History::from_position(pos(ROOT));
        while g.outcome().is_none() && g.moves().len() < 80 {
            let p = *g.position();
            let moves = published_moves(t, &g);
            let best = moves.iter().map(|c| c.1).max().unwrap();
            let mv = if g.moves().len().is_multiple_of(2) {
                let bests: Vec<Move> = moves.iter().filter(|c| c.1 == best).map(|c| c.0).collect();
                *bests.choose(&mut rng).unwrap()
            } else {
                let reply = settai_classic(t, &g, &mut rng).unwrap();
                let safe: Vec<i32> = moves.iter().filter(|c| !p.loses_at_once(c.0)).map(|c| c.1).collect();
                let best_safe = safe.into_iter().max().unwrap_or(best);
                let got = moves.iter().find(|c| c.0 == reply).unwrap().1;
                assert_eq!(got, best_safe, "{reply} after {:?}", g.moves());
                checked += 1;
                reply
            };
            g.play(mv).unwrap();
        }
    }
    assert!(checked > 200, "only {checked} replies checked");
}

#[test]
fn the_published_score_is_unclamped() {
    // A win past 100 plies scores below a draw, as published; settai's own score clamps.
    assert!(classic_score(Value::Win(130)) < classic_score(Value::Draw));
    assert!(classic_score(Value::Loss(130)) > classic_score(Value::Draw));
    assert!(score(Value::Win(130)) > score(Value::Draw));
    for n in 1..=173 {
        assert_eq!(classic_score(Value::Win(n)), published(Value::Win(n)));
        assert_eq!(classic_score(Value::Loss(n)), published(Value::Loss(n)));
    }
}
