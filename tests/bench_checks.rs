//! The benches' pass/fail checks (`benches/checks/`: Student's t, the slope and its interval,
//! the creep after warm-up, the moves against the database, the verdict), tested with the tests.
//! Their tests live here, not beside them: `cargo test` only builds the benches (whose `main`
//! is the run itself), and builds them with `cfg(test)` but without the test harness.

#[path = "../benches/checks/mod.rs"]
mod checks;

mod student {
    use crate::checks::student::*;

    #[test]
    fn the_95_percent_points_are_the_tables() {
        // Two-sided 5% points of Student's t, as printed in every statistics table.
        for (df, table) in
            [(1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764), (5, 2.5706), (10, 2.2281), (13, 2.1604), (30, 2.0423)]
        {
            assert!((t95(df) - table).abs() < 5e-4, "df {df}: {} against the table's {table}", t95(df));
        }
        // Many degrees of freedom: the normal distribution's 1.95996.
        assert!((t95(2000) - 1.96).abs() < 2e-3, "{}", t95(2000));
    }

    #[test]
    fn the_distribution_is_a_distribution() {
        for df in 1..40 {
            assert_eq!(within(0.0, df), 0.0);
            assert!(within(1e9, df) > 1.0 - 1e-6, "df {df}");
            let mut last = 0.0;
            for i in 1..200 {
                let p = within(f64::from(i) / 20.0, df);
                assert!(p > last && p < 1.0, "df {df}: not increasing at {i}");
                last = p;
            }
        }
        // One degree of freedom is the Cauchy distribution: ±1 holds half of it.
        assert!((within(1.0, 1) - 0.5).abs() < 1e-12);
    }
}

mod slope {
    use crate::checks::slope::*;
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A standard normal draw (Box-Muller), for noise of a known spread.
    fn normal(rng: &mut StdRng) -> f64 {
        let (u, v): (f64, f64) = (rng.gen_range(f64::EPSILON..1.0), rng.gen());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    #[test]
    fn a_textbook_regression() {
        // x 1..5, y 2, 4, 5, 4, 5: slope 0.6, residual sum of squares 2.4 over 3 degrees of
        // freedom, standard error sqrt(0.8 / 10), and t(3) = 3.182.
        let fit = fit(&[(0, 1.0, 2.0), (0, 2.0, 4.0), (0, 3.0, 5.0), (0, 4.0, 4.0), (0, 5.0, 5.0)]).unwrap();
        assert!((fit.slope - 0.6).abs() < 1e-12, "{fit:?}");
        let half = 3.182446 * (0.8_f64 / 10.0).sqrt();
        assert!((fit.high - fit.slope - half).abs() < 1e-5 && (fit.slope - fit.low - half).abs() < 1e-5, "{fit:?}");
        assert_eq!(fit.readings, 5);
    }

    #[test]
    fn too_few_readings_give_no_interval() {
        assert_eq!(fit(&[]), None);
        assert_eq!(fit(&[(0, 1.0, 1.0), (0, 2.0, 3.0)]), None, "a line through two points has no residual");
        // Two processes of two readings each: two intercepts and a slope leave one degree of freedom.
        assert!(fit(&[(0, 1.0, 1.0), (0, 2.0, 3.0), (1, 3.0, 9.0), (1, 4.0, 10.0)]).is_some());
        assert_eq!(fit(&[(0, 1.0, 1.0), (1, 2.0, 3.0), (2, 3.0, 5.0), (3, 4.0, 4.0)]), None, "one reading a process");
        assert_eq!(fit(&[(0, 1.0, 1.0), (0, 1.0, 3.0), (0, 1.0, 5.0)]), None, "x never moves");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

        /// Readings on lines of one slope, each process at its own level (a restart's drop),
        /// give that slope exactly, with an interval of no width.
        #[test]
        fn lines_of_one_slope_are_read_exactly(
            slope in -50.0..50.0_f64,
            levels in proptest::collection::vec(-500.0..500.0_f64, 1..4),
            days in 3..12_u32,
        ) {
            let readings: Vec<(usize, f64, f64)> = levels
                .iter()
                .enumerate()
                .flat_map(|(g, level)| (0..days).map(move |d| {
                    let x = f64::from(d + g as u32 * days);
                    (g, x, level + slope * x)
                }))
                .collect();
            let fit = fit(&readings).unwrap();
            prop_assert!((fit.slope - slope).abs() < 1e-9, "{:?}", fit);
            prop_assert!(fit.high - fit.low < 1e-6, "{:?}", fit);
        }
    }

    /// A planted slope under normal noise lies within the 95% interval in about 95% of runs: the
    /// interval is as wide as it says (with the normal's 1.96 instead of Student's t, five
    /// readings would hold it in only about 88%). Seeded, so the same every run.
    #[test]
    fn the_interval_holds_a_planted_slope_95_times_in_100() {
        let mut rng = StdRng::seed_from_u64(58);
        for (processes, days) in [(1, 5), (3, 5), (1, 25)] {
            let runs = 4000;
            let mut held = 0;
            for _ in 0..runs {
                let slope = rng.gen_range(-10.0..10.0);
                let spread = rng.gen_range(1.0..30.0);
                let readings: Vec<(usize, f64, f64)> = (0..processes)
                    .flat_map(|g| (0..days).map(move |d| (g, f64::from(d + 10 * g as u32))))
                    .map(|(g, x)| (g, x, 300.0 - 100.0 * g as f64 + slope * x + spread * normal(&mut rng)))
                    .collect();
                let fit = fit(&readings).unwrap();
                held += usize::from(fit.low <= slope && slope <= fit.high);
            }
            let rate = held as f64 / f64::from(runs);
            // The binomial spread of 4,000 runs at 95% is 0.35%: 94-96% is three of them.
            assert!((0.94..=0.96).contains(&rate), "{processes} processes of {days} days: held {rate}");
        }
    }
}

mod creep {
    use crate::checks::creep::*;

    /// Readings of `processes` processes of `days` days each, `value(process, day of process)`.
    fn month(processes: usize, days: u32, value: impl Fn(usize, u32) -> f64) -> Vec<Reading> {
        (0..processes)
            .flat_map(|p| (1..=days).map(move |d| (p, d)))
            .map(|(process, d)| Reading {
                process,
                days_played: d,
                day: process as u32 * days + d,
                value: value(process, d),
            })
            .collect()
    }

    #[test]
    fn warm_up_is_left_out() {
        // Steep growth while warming up, flat after: no creep.
        let readings = month(3, 10, |p, d| 300.0 - 50.0 * p as f64 + 40.0 * f64::from(d.min(WARM_UP_DAYS)));
        let Creep::Judged(fit) = creep(&readings) else { panic!("15 readings after warm-up are judged") };
        assert_eq!(fit.readings, 15);
        assert!(fit.slope.abs() < 1e-9 && !creep(&readings).exceeds(0.5), "{fit:?}");
    }

    #[test]
    fn a_steady_creep_exceeds_a_lower_threshold_only() {
        // 3 MiB a day in every process, a day-to-day wobble of ±2.
        let readings =
            month(3, 10, |p, d| 300.0 + 3.0 * f64::from(d) + if (d + p as u32).is_multiple_of(2) { 2.0 } else { -2.0 });
        let judged = creep(&readings);
        assert!(judged.exceeds(OWN_MEMORY_MIB_PER_DAY), "{judged:?}");
        assert!(!judged.exceeds(3.0), "3 MiB a day is inside the interval: {judged:?}");
    }

    #[test]
    fn a_short_run_is_not_judged() {
        // Four days, a restart each: all warm-up, however steep.
        let short = creep(&month(3, 4, |_, d| 100.0 * f64::from(d)));
        assert_eq!(short, Creep::TooShort { readings: 0, fit: None });
        assert!(!short.exceeds(0.0));
        // Nine readings after warm-up that climb: fitted, printed, not judged.
        let nine = creep(&month(3, 8, |_, d| 100.0 * f64::from(d) + f64::from(d % 2)));
        let Creep::TooShort { readings: 9, fit: Some(fit) } = nine else { panic!("{nine:?}") };
        assert!(fit.low > OWN_MEMORY_MIB_PER_DAY && !nine.exceeds(OWN_MEMORY_MIB_PER_DAY), "{nine:?}");
    }
}

mod moves {
    use crate::checks::moves::*;

    fn tap(game: i64, ply: u32, notation: &str) -> Tap {
        Tap { game, ply, notation: notation.into() }
    }

    #[test]
    fn taps_stored_as_seen_pass() {
        let taps = [tap(1, 1, "B3B2"), tap(1, 3, "c1c2"), tap(2, 1, "f5")];
        let stored = [(1, 1, "b3b2".into()), (1, 3, "C1C2".into()), (2, 1, "F5".into())];
        assert_eq!(compare(&taps, &[], &stored), MoveCheck { taps: 3, ..MoveCheck::default() });
    }

    #[test]
    fn a_lost_a_changed_a_doubled_and_an_untapped_move_are_each_named() {
        let taps = [tap(1, 1, "b3b2"), tap(1, 3, "c1c2"), tap(1, 5, "a1a2"), tap(2, 1, "f5"), tap(2, 1, "d3")];
        let stored = [(1, 1, "b3b2".into()), (1, 3, "b1b2".into()), (2, 1, "f5".into()), (3, 1, "c4".into())];
        let check = compare(&taps, &[], &stored);
        assert_eq!(check.taps, 5);
        assert_eq!(
            check.lost,
            [
                "game 1 ply 3: tapped c1c2, stored b1b2",
                "game 1 ply 5: tapped a1a2, nothing stored",
                "game 2 ply 1: tapped d3, stored f5"
            ]
        );
        assert_eq!(check.twice, ["game 2 ply 1 accepted twice: f5, then d3"]);
        assert_eq!(check.untapped, ["game 3 ply 1: c4 stored, never tapped"]);
    }

    /// A tap whose answer failed may be stored or not, but only where it was tapped: it
    /// explains its own move, not another at its place, and not a move already seen accepted.
    #[test]
    fn a_tap_of_unknown_fate_explains_its_own_move_only() {
        let taps = [tap(1, 1, "b3b2")];
        let unknown = [tap(1, 3, "c1c2"), tap(1, 5, "a1a2"), tap(2, 1, "f5"), tap(1, 1, "b3b2")];
        let stored = [(1, 1, "b3b2".into()), (1, 3, "C1C2".into()), (2, 1, "d3".into())];
        let check = compare(&taps, &unknown, &stored);
        assert_eq!((check.taps, check.unknown, check.unknown_stored), (1, 4, 1));
        assert!(check.lost.is_empty() && check.twice.is_empty(), "{check:?}");
        assert_eq!(check.untapped, ["game 2 ply 1: d3 stored, never tapped"]);
    }

    #[test]
    fn a_board_names_its_game_and_ply() {
        assert_eq!(board_place("t:42:7:p.B2"), Some((42, 7)));
        assert_eq!(board_place("t:42:7:c.E*"), Some((42, 7)));
        assert_eq!(board_place("m:42:7"), None);
        assert_eq!(board_place("t:x:7:p.B2"), None);
    }
}

mod boards {
    use crate::checks::boards::*;

    fn game(game: i64, players_turn: bool, ply: u32) -> GameNow {
        GameNow { game, players_turn, ply }
    }

    fn board(message: u64, game: i64, ply: u32) -> LiveBoard {
        LiveBoard { message, game, ply }
    }

    #[test]
    fn one_board_where_the_player_is_to_move_passes() {
        let games = [game(1, true, 4), game(2, false, 9), game(3, false, 3)];
        assert!(troubles(&games, &[board(10, 1, 4)]).is_empty());
    }

    #[test]
    fn a_board_twice_a_stale_board_and_a_stuck_game_are_each_named() {
        let games = [game(1, true, 4), game(2, true, 6), game(3, false, 9), game(4, true, 2)];
        let live =
            [board(10, 1, 4), board(11, 1, 4), board(12, 2, 4), board(13, 3, 8), board(14, 4, 2), board(15, 5, 1)];
        let found = troubles(&games, &live);
        assert_eq!(
            found,
            [
                "game 1: ply 4 offered on 2 boards (10, 11)",
                "game 2: the player is to move at ply 6 and no board offers it (stuck)",
                "game 2: board 12 still offers ply 4 (the game is at ply 6)",
                "game 3: board 13 still offers ply 8 (not the player's turn)",
                "game 5: 1 board(s) offer moves of a game the database does not hold",
            ]
        );
    }
}

mod verdict {
    use crate::checks::creep::Creep;
    use crate::checks::moves::MoveCheck;
    use crate::checks::slope::Fit;
    use crate::checks::verdict::*;

    fn fit(low: f64, high: f64) -> Fit {
        Fit { slope: (low + high) / 2.0, low, high, readings: 15 }
    }

    #[test]
    fn a_clean_run_passes() {
        let clean = Findings {
            moves: MoveCheck { taps: 120, ..MoveCheck::default() },
            creeps: vec![
                ("own memory MiB".into(), Creep::Judged(fit(-4.0, 6.0)), 1.5),
                // A short run's steep warm-up decides nothing.
                ("resident MiB".into(), Creep::TooShort { readings: 3, fit: Some(fit(20.0, 30.0)) }, 1.5),
            ],
            ..Findings::default()
        };
        assert_eq!(failures(&clean), Vec::<Failure>::new());
        assert!(conclude("test", &clean).is_ok());
    }

    /// Findings of a run that played: one tap, stored as seen.
    fn played() -> Findings {
        Findings { moves: tapped(MoveCheck::default()), ..Findings::default() }
    }

    /// `check` of a run with one tap.
    fn tapped(check: MoveCheck) -> MoveCheck {
        MoveCheck { taps: 1, ..check }
    }

    #[test]
    fn each_kind_of_trouble_fails_and_is_named() {
        let one = |what: &str| vec![what.to_string()];
        let cases: [(&str, Findings); 11] = [
            ("without a tapped move", Findings::default()),
            (
                "moves lost",
                Findings { moves: tapped(MoveCheck { lost: one("game 1 ply 1"), ..MoveCheck::default() }), ..played() },
            ),
            (
                "played twice",
                Findings {
                    moves: tapped(MoveCheck { twice: one("game 1 ply 1"), ..MoveCheck::default() }),
                    ..played()
                },
            ),
            (
                "nobody tapped",
                Findings {
                    moves: tapped(MoveCheck { untapped: one("game 1 ply 1"), ..MoveCheck::default() }),
                    ..played()
                },
            ),
            ("boards posted twice", Findings { boards: one("game 1: ply 4 offered on 2 boards"), ..played() }),
            ("refused", Findings { refused_calls: one("PATCH 50035"), ..played() }),
            ("unknown routes", Findings { unknown_routes: one("GET /nowhere"), ..played() }),
            ("anomalies", Findings { anomalies: one("tap: timed out"), ..played() }),
            ("bot's log", Findings { log_troubles: one("WARN could not"), ..played() }),
            (
                "creeps",
                Findings { creeps: vec![("own memory MiB".into(), Creep::Judged(fit(2.0, 9.0)), 1.5)], ..played() },
            ),
            (
                "read 0",
                Findings {
                    memory: vec![("day 1: its own MiB".into(), 0.0), ("day 1: resident MiB".into(), 310.0)],
                    ..played()
                },
            ),
        ];
        for (named, findings) in cases {
            let failed = failures(&findings);
            assert_eq!(failed.len(), 1, "{named}: {failed:?}");
            assert!(failed[0].what.contains(named) && failed[0].count == 1, "{named}: {failed:?}");
            let err = conclude("test", &findings).expect_err(named).to_string();
            assert!(err.contains(named), "{named}: {err}");
        }
    }

    /// A run that tapped nothing cannot pass, whatever else it shows (or fails to show); nor
    /// can one whose memory figure is missing (read as 0) or unreadable, on any day.
    #[test]
    fn a_run_that_shows_no_work_fails() {
        let idle = Findings { moves: MoveCheck::default(), ..Findings::default() };
        let failed = failures(&idle);
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert!(failed[0].what.contains("without a tapped move"), "{failed:?}");
        assert!(conclude("soak", &idle).is_err());
        for unread in [0.0, -1.0, f64::NAN] {
            let memory = vec![("day 1: resident MiB".into(), 300.0), ("day 2: resident MiB".into(), unread)];
            let failed = failures(&Findings { memory, ..played() });
            assert_eq!(failed.len(), 1, "{unread}: {failed:?}");
            assert!(failed[0].examples[0].starts_with("day 2: resident MiB"), "{failed:?}");
        }
        let memory = vec![("day 1: resident MiB".into(), 300.0), ("day 1: its own MiB".into(), 0.5)];
        assert!(failures(&Findings { memory, ..played() }).is_empty());
    }

    /// A short run passes without judging memory's trend, and its verdict says so.
    #[test]
    fn a_pass_says_what_it_did_not_judge() {
        let short = Findings {
            creeps: vec![("its own MiB".into(), Creep::TooShort { readings: 3, fit: None }, 1.5)],
            ..played()
        };
        assert!(failures(&short).is_empty());
        assert!(unjudged(&short).contains("its own MiB"), "{}", unjudged(&short));
        let long = Findings { creeps: vec![("its own MiB".into(), Creep::Judged(fit(-1.0, 1.0)), 1.5)], ..played() };
        assert_eq!(unjudged(&long), "");
    }

    #[test]
    fn a_slope_whose_interval_reaches_the_threshold_passes() {
        let findings =
            Findings { creeps: vec![("own memory MiB".into(), Creep::Judged(fit(1.5, 9.0)), 1.5)], ..played() };
        assert!(failures(&findings).is_empty(), "not surely above 1.5 a day");
    }

    #[test]
    fn long_lists_show_three_short_examples() {
        let anomalies: Vec<String> = (1..=5).map(|i| format!("anomaly {i}")).collect();
        let failed = failures(&Findings { anomalies, ..played() });
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].count, 5);
        assert_eq!(failed[0].examples, ["anomaly 1", "anomaly 2", "anomaly 3"]);
        assert_eq!(failed[0].to_string(), "anomalies: 5\n    anomaly 1\n    anomaly 2\n    anomaly 3\n    …");
        // A refused call shows its first line, cut short; the body below it is left out.
        let call = format!("#7 ChannelMessage -> 400 REFUSED: 50035 {}\n      body: {{...}}", "x".repeat(400));
        let failed = failures(&Findings { refused_calls: vec![call], ..played() });
        let shown = &failed[0].examples[0];
        assert!(shown.starts_with("#7 ChannelMessage") && !shown.contains("body"), "{shown}");
        assert_eq!(shown.chars().count(), EXAMPLE_CHARS + 1, "cut at {EXAMPLE_CHARS} characters and an ellipsis");
    }
}
