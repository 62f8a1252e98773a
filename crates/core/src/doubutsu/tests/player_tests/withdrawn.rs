//! A take-back does not hide a blunder (docs/design/kind-coach.md#take-backs-and-the-careless-sign):
//! a guest who took back a move that lost at once is met as a guest who made it.

use rand::Rng;

use super::*;

#[test]
fn a_blunder_taken_back_still_marks_the_guest_careless() {
    let mut rng = StdRng::seed_from_u64(71);
    let (mut checked, mut only_by_the_take_back) = (0, 0);
    for _ in 0..400 {
        let choices: Vec<u32> = (0..rng.gen_range(0..12)).map(|_| rng.gen()).collect();
        let Some(GuestBlunder { game, .. }) = guest_blunder(&choices, rng.gen()) else { continue };
        let guest = game.position().turn().opposite();
        let mut taken_back = game.clone();
        taken_back.undo();
        assert!(taken_back.withdrew_blunder(guest) && !taken_back.withdrew_blunder(guest.opposite()));
        // Instead, a move that does not lose at once.
        let p = *taken_back.position();
        let Some(&fine) = p.legal_moves().iter().find(|&&m| !p.loses_at_once(m)) else { continue };
        let mut never = history(&choices);
        never.play(fine).unwrap();
        taken_back.play(fine).unwrap();
        if taken_back.outcome().is_some() {
            continue;
        }
        checked += 1;
        assert!(tactics::guest_was_careless(&taken_back), "{:?}", taken_back.moves());
        only_by_the_take_back += usize::from(!tactics::guest_was_careless(&never));
        // Taking back a move that did not lose at once marks nothing.
        let mut fine_back = never.clone();
        fine_back.undo();
        assert!(!fine_back.withdrew_blunder(guest));
    }
    assert!(
        checked >= 50 && only_by_the_take_back >= 20,
        "{checked} games, {only_by_the_take_back} careless only by the take-back"
    );
}
