//! Tests: rules as stated in the issue, notation, brute-force cross-checks, the table against
//! an independent solver on sub-games, the file format, and the players' properties.

mod index_tests;
mod keep_going_tests;
mod naive;
mod player_tests;
mod retro_tests;
mod table_tests;

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::position::{canon, child, flip, gen_moves, mirror, status, unmoves, MoveBuf, Status};
use super::*;
use naive::NPos;

pub(crate) fn sq(s: &str) -> Square {
    s.parse().expect("square")
}

pub(crate) fn mv(s: &str) -> Move {
    s.parse().expect("move")
}

pub(crate) fn pos(s: &str) -> Position {
    s.parse().expect("position")
}

pub(crate) fn to_engine(p: &NPos) -> Position {
    p.text().parse().expect("naive text parses")
}

/// Reads a position back through the engine's accessors only.
pub(crate) fn from_engine(p: &Position) -> NPos {
    let mut board = [[None; 3]; 4];
    for s in Square::ALL {
        board[s.row() as usize][s.col() as usize] =
            p.piece_at(s).map(|pc| (if pc.color == Color::Sente { 0 } else { 1 }, pc.role.letter()));
    }
    let mut hands = [[0; 3]; 2];
    for (o, c) in [Color::Sente, Color::Gote].into_iter().enumerate() {
        for (k, r) in Role::HAND.into_iter().enumerate() {
            hands[o][k] = p.hand(c, r);
        }
    }
    NPos { board, hands, to_move: if p.turn() == Color::Sente { 0 } else { 1 } }
}

/// Positions met on random games (naive generator), deterministic per seed.
pub(crate) fn random_positions(seed: u64, games: usize) -> Vec<NPos> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = NPos::start();
        for _ in 0..rng.gen_range(1..60) {
            let moves = p.moves();
            let Some((_, c)) = moves.choose(&mut rng) else { break };
            if c.lion_missing() {
                break;
            }
            p = c.clone();
            out.push(p.clone());
        }
    }
    out
}

fn destinations(p: &Position, from: &str) -> HashSet<String> {
    let from = sq(from);
    p.legal_moves()
        .into_iter()
        .filter_map(|m| match m {
            Move::Normal { from: f, to } if f == from => Some(to.to_string()),
            _ => None,
        })
        .collect()
}

fn set(items: &[&str]) -> HashSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ----------------------------------------------------------------------------- rules

#[test]
fn start_layout_matches_the_rules() {
    let p = Position::start();
    let expect = [
        ("A4", Color::Sente, Role::Elephant),
        ("B4", Color::Sente, Role::Lion),
        ("C4", Color::Sente, Role::Giraffe),
        ("B3", Color::Sente, Role::Chick),
        ("A1", Color::Gote, Role::Giraffe),
        ("B1", Color::Gote, Role::Lion),
        ("C1", Color::Gote, Role::Elephant),
        ("B2", Color::Gote, Role::Chick),
    ];
    for (s, color, role) in expect {
        assert_eq!(p.piece_at(sq(s)), Some(Piece { color, role }), "{s}");
    }
    let occupied = Square::ALL.iter().filter(|&&s| p.piece_at(s).is_some()).count();
    assert_eq!(occupied, 8);
    assert_eq!(p.turn(), Color::Sente);
    for c in [Color::Sente, Color::Gote] {
        for r in Role::HAND {
            assert_eq!(p.hand(c, r), 0);
        }
    }
    assert_eq!(p.outcome(), None);
}

#[test]
fn each_piece_moves_as_the_rules_say() {
    // A sente piece on B3, sente lion A4, gote lion C1.
    let cases = [
        ("G", &["B2", "A3", "C3", "B4"][..]),
        ("E", &["A2", "C2", "C4"][..]), // A4 holds its own lion
        ("C", &["B2"][..]),
        ("H", &["A2", "B2", "C2", "A3", "C3", "B4"][..]),
    ];
    for (letter, want) in cases {
        let p = pos(&format!("2l/3/1{letter}1/L2 b -"));
        assert_eq!(destinations(&p, "B3"), set(want), "{letter}");
    }
    let p = pos("2l/3/1L1/3 b -");
    assert_eq!(destinations(&p, "B3"), set(&["A2", "B2", "C2", "A3", "C3", "A4", "B4", "C4"]));
    // Gote pieces move down the board.
    let p = pos("l2/1c1/2L/3 w -");
    assert_eq!(destinations(&p, "B2"), set(&["B3"]));
    let p = pos("l2/1h1/2L/3 w -");
    assert_eq!(destinations(&p, "B2"), set(&["A3", "B3", "C3", "A2", "C2", "B1"]));
}

#[test]
fn chick_promotes_on_the_far_row_and_hen_reverts_when_captured() {
    let p = pos("2l/C2/3/1L1 b -").play(mv("A2A1")).unwrap();
    assert_eq!(p.piece_at(sq("A1")), Some(Piece { color: Color::Sente, role: Role::Hen }));
    // Gote chick promotes on row 4.
    let p = pos("3/1l1/c1L/3 w -").play(mv("A3A4")).unwrap();
    assert_eq!(p.piece_at(sq("A4")), Some(Piece { color: Color::Gote, role: Role::Hen }));
    // A giraffe takes a hen: a chick goes to hand.
    let p = pos("2l/h2/G2/1L1 b -").play(mv("A3A2")).unwrap();
    assert_eq!(p.hand(Color::Sente, Role::Chick), 1);
    assert_eq!(p.hand(Color::Sente, Role::Hen), 0);
    assert_eq!(p.piece_at(sq("A2")), Some(Piece { color: Color::Sente, role: Role::Giraffe }));
}

#[test]
fn drops_go_anywhere_empty_and_a_dropped_chick_does_not_promote() {
    let p = pos("2l/3/3/1L1 b C");
    let drops: Vec<Move> = p.legal_moves().into_iter().filter(|m| matches!(m, Move::Drop { .. })).collect();
    assert_eq!(drops.len(), 10, "every empty square");
    let q = p.play(mv("C*A1")).unwrap();
    assert_eq!(q.piece_at(sq("A1")), Some(Piece { color: Color::Sente, role: Role::Chick }));
    assert_eq!(q.hand(Color::Sente, Role::Chick), 0);
    assert!(p.play(mv("C*B4")).is_err(), "occupied square");
    assert!(p.play(mv("G*A1")).is_err(), "not in hand");
    assert!(p.play(mv("L*A1")).is_err(), "a lion is never in hand");
}

#[test]
fn moving_into_attack_is_legal_and_lion_capture_ends_the_game() {
    // Sente lion B3 may step next to / into the reach of gote's lion on B1.
    let p = pos("1l1/3/1L1/3 b -");
    assert!(p.is_legal(mv("B3B2")));
    let q = p.play(mv("B3B2")).unwrap();
    assert_eq!(q.outcome(), None);
    let r = q.play(mv("B1B2")).unwrap();
    assert_eq!(r.outcome(), Some(Ending::Win { winner: Color::Gote, reason: WinReason::LionCaptured }));
    assert!(r.legal_moves().is_empty());
    assert!(r.play(mv("A1A2")).is_err());
}

#[test]
fn lion_in_check_matches_the_brute_force_generator() {
    // After B3B2 the sente chick on B2 attacks gote's lion on B1.
    let p = Position::start().play(mv("B3B2")).unwrap();
    assert_eq!(p.lion_in_check(), Some(sq("B1")));
    assert_eq!(Position::start().lion_in_check(), None);
    let mut checks = 0;
    for n in random_positions(11, 300) {
        let expected = n.lion_in_check().map(|(r, c)| Square::from_coords(c as u8, r as u8).unwrap());
        assert_eq!(to_engine(&n).lion_in_check(), expected, "{}", n.text());
        checks += usize::from(expected.is_some());
    }
    assert!(checks > 10, "the sample must contain checks");
}

#[test]
fn try_rules() {
    // Safe try: sente lion to A1 where nothing of gote reaches.
    let p = pos("2l/L2/3/3 b -");
    let q = p.play(mv("A2A1")).unwrap();
    assert_eq!(q.outcome(), Some(Ending::Win { winner: Color::Sente, reason: WinReason::Try }));
    assert!(q.legal_moves().is_empty());
    // Unsafe try: gote's lion on B1 reaches A1; the game goes on and gote may capture.
    let p = pos("1l1/L2/3/3 b -");
    let q = p.play(mv("A2A1")).unwrap();
    assert_eq!(q.outcome(), None);
    assert_eq!(q.play(mv("B1A1")).unwrap().outcome().unwrap().winner(), Some(Color::Gote));
    // Not capturing the lion loses: the try is complete.
    let r = q.play(mv("B1C1")).unwrap();
    assert_eq!(r.outcome(), Some(Ending::Win { winner: Color::Sente, reason: WinReason::Try }));
    assert!(q.loses_at_once(mv("B1C1")));
    assert!(!q.loses_at_once(mv("B1A1")));
    assert_eq!(q.winning_moves(), vec![mv("B1A1")]);
}

#[test]
fn third_occurrence_is_a_draw() {
    let mut g = History::new();
    let cycle = ["C4C3", "A1A2", "C3C4", "A2A1"];
    for (i, m) in cycle.iter().cycle().take(8).enumerate() {
        assert_eq!(g.outcome(), None, "before move {i}");
        g.play(mv(m)).unwrap();
    }
    // The start has now occurred three times.
    assert_eq!(g.occurrences(), 3);
    assert_eq!(g.outcome(), Some(Ending::Draw));
    assert!(g.legal_moves().is_empty());
    assert!(g.play(mv("C4C3")).is_err());
    g.undo();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.last_move().unwrap().1, mv("C3C4"));
}

#[test]
fn illegal_moves_are_typed_errors() {
    let p = Position::start();
    let e = p.play(mv("B2B1")).unwrap_err();
    assert_eq!(e.mv, "B2B1");
    assert!(p.play(mv("B4B3")).is_err(), "own piece");
    assert!(p.play(mv("A4A2")).is_err(), "too far");
    assert!(p.play(mv("E*A3")).is_err(), "empty hand");
}

// ----------------------------------------------------------------------------- notation

#[test]
fn move_notation_parses_tolerantly_and_prints_canonically() {
    assert_eq!(mv("b3b2"), Move::Normal { from: sq("B3"), to: sq("B2") });
    assert_eq!(mv(" B3 b2 "), mv("B3B2"));
    assert_eq!(mv("e*b2"), Move::Drop { role: Role::Elephant, to: sq("B2") });
    assert_eq!(mv(" E * B2"), mv("E*B2"));
    assert_eq!(mv("b3b2").to_string(), "B3B2");
    assert_eq!(mv("c*a1").to_string(), "C*A1");
    assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
    assert!(matches!("D3B2".parse::<Move>(), Err(ParseMoveError::Square(_))));
    assert!(matches!("B5B2".parse::<Move>(), Err(ParseMoveError::Square(_))));
    assert_eq!("X*B2".parse::<Move>(), Err(ParseMoveError::Role('X')));
    assert_eq!("H*B2".parse::<Move>(), Err(ParseMoveError::Role('H')));
    assert!(matches!("B3".parse::<Move>(), Err(ParseMoveError::Shape(_))));
    assert!(matches!("B3B2B1".parse::<Move>(), Err(ParseMoveError::Shape(_))));
    assert_eq!(parse_moves("b3b2, B1 B2 c*a3").unwrap(), vec![mv("B3B2"), mv("B1B2"), mv("C*A3")]);
}

#[test]
fn legal_moves_match_the_brute_force_generator() {
    for p in random_positions(1, 300).iter().chain([NPos::start()].iter()) {
        let e = to_engine(p);
        let mut want: Vec<(String, NPos)> = p.moves();
        want.sort_by(|a, b| a.0.cmp(&b.0));
        let mut got: Vec<(String, NPos)> =
            e.legal_moves().into_iter().map(|m| (m.to_string(), from_engine(&e.play(m).unwrap()))).collect();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(got, want, "{}", p.text());
        assert_eq!(e.outcome().is_some(), p.terminal().is_some() || p.lion_missing(), "{}", p.text());
    }
}

#[test]
fn position_text_round_trips_and_rejects_garbage() {
    assert_eq!(Position::start().to_text(), "gle/1c1/1C1/ELG b -");
    assert_eq!(pos("gle/1c1/1C1/ELG b -"), Position::start());
    for p in random_positions(2, 100) {
        let e = to_engine(&p);
        assert_eq!(e.to_text(), p.text());
        assert_eq!(from_engine(&e), p);
        assert_eq!(e.to_text().parse::<Position>().unwrap(), e);
    }
    let bad = [
        ("", ParsePositionError::Fields),
        ("gle/1c1/1C1 b -", ParsePositionError::Board("gle/1c1/1C1".into())),
        ("gle/1c1/1C1/ELG x -", ParsePositionError::Side("x".into())),
        ("gle/1c1/1C1/ELX b -", ParsePositionError::Piece('X')),
        ("gle/1c1/1C1/EL1 b 3C", ParsePositionError::Hands("3C".into())),
    ];
    for (text, err) in bad {
        assert_eq!(text.parse::<Position>(), Err(err), "{text:?}");
    }
    assert!(matches!("gle/1c1/1C1/E1G b -".parse::<Position>(), Err(ParsePositionError::Impossible(_))));
    assert!(matches!("gle/1c1/1C1/ELG b 2C".parse::<Position>(), Err(ParsePositionError::Impossible(_))));
}

// ----------------------------------------------------------------------------- perft

#[test]
fn perft_matches_the_brute_force_generator_from_the_start() {
    let start = NPos::start();
    for d in 0..=5 {
        assert_eq!(perft(&Position::start(), d), naive::perft(&start, d), "depth {d}");
    }
    assert_eq!(perft_parallel(&Position::start(), 5), naive::perft(&start, 5));
    let divide: u64 = perft_divide(&Position::start(), 4).iter().map(|x| x.1).sum();
    assert_eq!(divide, naive::perft(&start, 4));
}

#[test]
fn perft_matches_the_brute_force_generator_from_random_positions() {
    for p in random_positions(3, 40).iter().step_by(7) {
        assert_eq!(perft(&to_engine(p), 3), naive::perft(p, 3), "{}", p.text());
    }
}

// ----------------------------------------------------------------------------- packed core

#[test]
fn flip_and_mirror_are_involutions_that_preserve_the_game() {
    for p in random_positions(4, 100) {
        let e = to_engine(&p);
        let k = e.key();
        assert_eq!(flip(flip(k)), k);
        assert_eq!(mirror(mirror(k)), k);
        assert_eq!(canon(k), canon(mirror(k)));
        // The flipped key is the same board seen by the other side, i.e. the other side to move.
        let other = Position::from_key(flip(k), e.turn().opposite()).unwrap();
        for s in Square::ALL {
            assert_eq!(e.piece_at(s), other.piece_at(s));
        }
        for c in [Color::Sente, Color::Gote] {
            for r in Role::HAND {
                assert_eq!(e.hand(c, r), other.hand(c, r));
            }
        }
        // Mirrored positions have mirrored move lists.
        let m = e.mirror();
        assert_eq!(perft(&m, 2), perft(&e, 2));
        let col = |s: Square| Square::from_coords(2 - s.col(), s.row()).unwrap();
        for s in Square::ALL {
            assert_eq!(m.piece_at(col(s)), e.piece_at(s));
        }
    }
}

#[test]
fn unmoves_are_exactly_the_inverse_of_moves() {
    for p in random_positions(5, 150) {
        let k = to_engine(&p).key();
        if status(k) != Status::Ongoing {
            continue;
        }
        let mut buf = MoveBuf::new();
        gen_moves(k, &mut buf);
        for &m in buf.as_slice() {
            let c = child(k, m);
            if status(c) == Status::MoverLost(WinReason::LionCaptured) {
                continue;
            }
            let mut preds = Vec::new();
            unmoves(c, &mut preds);
            assert!(preds.contains(&k), "{m:?} from {}", p.text());
        }
        // Every predecessor that is still in play really has k as a child.
        let mut preds = Vec::new();
        unmoves(k, &mut preds);
        for q in preds {
            assert!(Position::from_key(q, Color::Sente).is_some());
            if status(q) != Status::Ongoing {
                continue;
            }
            let mut buf = MoveBuf::new();
            gen_moves(q, &mut buf);
            assert!(buf.as_slice().iter().any(|&m| child(q, m) == k), "{}", p.text());
        }
    }
}
