//! The in-place retrograde builder over the perfect index, on small materials: every slot
//! against the brute-force solver, what follows a missed lion capture, and determinism.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::super::table::index::{Index, Material};
use super::super::table::retro::{solve, BuiltTable};
use super::super::table::BuildOptions;
use super::super::{Color, Position, Table, Value};
use super::table_tests::naive_value;
use super::{from_engine, naive, pos, to_engine};

fn solved(m: [u8; 3]) -> BuiltTable {
    solve(&Index::new(Material(m)), &BuildOptions::default()).expect("small materials fit")
}

/// Solves material `m` with the new builder and with the brute-force solver rooted at every
/// slot's position, and compares every position the brute force valued (every slot, both
/// mirror halves, both sides to move).
fn check_against_brute_force(m: [u8; 3]) -> BuiltTable {
    let t = solved(m);
    let index = t.index();
    let roots: Vec<_> = (0..index.len())
        .map(|s| from_engine(&Position::from_key(index.key(s), Color::Sente).expect("slots hold legal keys")))
        .collect();
    let brute = naive::solve(&roots);
    assert!(brute.values.len() as u64 >= index.len());
    let mut decided = 0;
    for (p, v) in &brute.values {
        assert_eq!(t.probe(&to_engine(p)), Ok(naive_value(*v)), "{} ({m:?})", p.text());
        decided += v.is_some() as usize;
    }
    assert!(decided > 0);
    // The bytes themselves, slot by slot (holes included: they hold their mirror's value).
    for s in 0..index.len() {
        let p = Position::from_key(index.key(s), Color::Sente).unwrap();
        let want = naive_value(brute.values[&from_engine(&p)]);
        assert_eq!(Value::from_byte(t.values()[s as usize]), want, "slot {s}: {p}");
    }
    t
}

#[test]
fn lions_and_chicks_match_the_brute_force_solver_in_every_slot() {
    let t = check_against_brute_force([0, 0, 2]);
    let wins = t.values().iter().filter(|&&b| matches!(Value::from_byte(b), Value::Win(_))).count();
    let losses = t.values().iter().filter(|&&b| matches!(Value::from_byte(b), Value::Loss(_))).count();
    assert!(wins > 0 && losses > 0, "{wins} {losses}");
}

#[test]
fn a_giraffe_and_a_chick_match_the_brute_force_solver_in_every_slot() {
    check_against_brute_force([1, 0, 1]);
}

#[test]
fn a_giraffe_and_an_elephant_match_the_brute_force_solver_in_every_slot() {
    let t = check_against_brute_force([1, 1, 0]);
    assert!(t.levels > 3, "{}", t.levels);
}

/// Random legal moves from `root` until the game ends, going on past missed lion captures.
fn playout(root: Position, rng: &mut StdRng) -> Vec<Position> {
    let mut out = vec![root];
    let mut p = root;
    for _ in 0..80 {
        let moves = p.legal_moves();
        let Some(&mv) = moves.choose(rng) else { break };
        p = p.play(mv).expect("legal");
        out.push(p);
    }
    out
}

#[test]
fn what_follows_a_missed_capture_is_valued_as_the_brute_force_solver_values_it() {
    let cases: [(&[&str], [u8; 3]); 3] = [
        (&["1l1/1c1/1C1/1L1 b -"], [0, 0, 2]),
        (&["1l1/3/1C1/1L1 b g", "l2/3/3/2L w Gc"], [1, 0, 1]),
        (&["gle/1c1/3/1L1 b -", "1l1/3/1C1/ELG w -"], [1, 1, 1]),
    ];
    let mut rng = StdRng::seed_from_u64(7);
    for (roots, m) in cases {
        let roots: Vec<Position> = roots.iter().map(|r| pos(r)).collect();
        let table = solved(m);
        let mut missed = Vec::new();
        for _ in 0..200 {
            let game = playout(*roots.choose(&mut rng).unwrap(), &mut rng);
            for w in game.windows(2) {
                // The mover could have taken the lion and did not.
                if w[0].legal_moves().iter().any(|&mv| w[0].captures_lion(mv)) && w[1].outcome().is_none() {
                    missed.push(w[1]);
                }
            }
            for p in &game {
                assert!(table.probe(p).is_ok(), "{p} ({m:?})");
            }
        }
        // Random play misses captures; the brute force, rooted there, agrees on what follows.
        assert!(missed.len() > 20, "{} {m:?}", missed.len());
        missed.truncate(60);
        let brute = naive::solve(&missed.iter().map(from_engine).collect::<Vec<_>>());
        for (p, v) in &brute.values {
            assert_eq!(table.probe(&to_engine(p)), Ok(naive_value(*v)), "{} ({m:?})", p.text());
        }
    }
}

#[test]
fn the_build_is_deterministic_whatever_the_threads() {
    let index = Index::new(Material([1, 0, 1]));
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| solve(&index, &BuildOptions::default()).unwrap().values().to_vec())
    };
    let one = run(1);
    assert_eq!(one, run(3));
    assert!(one.iter().any(|&b| b != 0));
}

#[test]
fn positions_of_another_material_are_a_typed_error() {
    let t = solved([0, 0, 2]);
    let err = t.probe(&Position::start()).unwrap_err();
    assert!(err.to_string().contains("gle/1c1/1C1/ELG b -"), "{err}");
    // Finished positions are valued by the rules.
    assert_eq!(t.probe(&pos("L1l/3/3/3 w -")), Ok(Value::Loss(0)));
}
