//! The keep-going book: the child-length bound's exact chances for the positions of a game's
//! first plies, kept small enough to ship beside the table, so that settai can choose its early
//! moves by them (docs/design/kind-coach.md#the-keep-going-book).
//!
//! For each even ply `p` up to the book's last, and every slot a game from the start meets
//! there ([`super::survival`]'s horizon, the coached child to move), the best chance over every
//! policy of the opponent that a game standing there lasts the book's length, quantised to
//! 1/65535. They are the passes [`super::survival_values`] keeps, cut to those plies and slots:
//! about 20.9 million entries, 125 MB, for the first twelve plies of the real game.
//!
//! # Bytes (little-endian), version 1
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `DBTSUBK\0` |
//! | 8 | 4 | format version (1) |
//! | 12 | 3 | material: giraffes, elephants, chicks besides the lions |
//! | 15 | 1 | zero |
//! | 16 | 4 | the length the chances are for, in plies |
//! | 20 | 4 | the child's heed, an `f32` |
//! | 24 | 1 | take-backs (0 or 1) |
//! | 25 | 3 | zero |
//! | 28 | 4 | plies kept, `n` |
//! | 32 | 8 | checksum of everything after the header ([`super::format::checksum`]) |
//! | 40 | 24 | zero |
//! | 64 | 16 × n | per ply kept: the ply (`u32`), zero (`u32`), its entries (`u64`) |
//! | … | | per ply kept, in order: its slots (`u32`, ascending), then their chances (`u16`) |
//!
//! The bytes depend only on the material, the length, the player and the plies: two builds
//! write identical books. Reading and writing files is the caller's.

use rayon::prelude::*;

use super::format::{checksum, FormatError};
use super::index::{Index, Material};
use super::progress::{log, BuildOptions};
use super::survival::{top, CarelessPlayer};
use super::survival_values::kept_passes;
use super::{ProbeError, Table, Value};
use crate::doubutsu::position::{status, Status};
use crate::doubutsu::Position;

/// The book's magic bytes.
pub const BOOK_MAGIC: [u8; 8] = *b"DBTSUBK\0";
/// The book format version this build writes and reads.
pub const BOOK_FORMAT_VERSION: u32 = 1;
/// The header's length.
const BOOK_HEADER_LEN: usize = 64;

/// The length the bot's book is for: the kind coach's target, a game of 20 plies
/// (docs/design/kind-coach.md#measured).
pub const BOT_BOOK_LENGTH: u32 = 20;
/// The child the bot's book is for: the coached child who heeds a mark half the time, as the
/// coach is on by default and take-backs are off.
pub const BOT_BOOK_PLAYER: CarelessPlayer = CarelessPlayer { heed: 0.5, takebacks: false };
/// The last ply the bot's book keeps: settai's moves up to ply 11 choose by it. Two plies more
/// than the first book's ten, for eight times the entries: the coached child's games reach 20
/// plies more often, and the deepest reads of deviation 5, at ply 11, are no longer needed
/// (docs/design/doubutsu-settai.md#deviation-7-choosing-early-moves-by-the-keep-going-book).
pub const BOT_BOOK_LAST_PLY: u32 = 12;

/// The chances kept for one ply.
#[derive(Debug, Clone, PartialEq)]
struct BookPly {
    played: u32,
    slots: Vec<u32>,
    chances: Vec<u16>,
}

/// The bound's chances at the positions of a game's first plies (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct KeepGoingBook {
    material: Material,
    length: u32,
    player: CarelessPlayer,
    plies: Vec<BookPly>,
}

impl KeepGoingBook {
    /// Computes the book for games from `root` (the careless player to move) lasting `length`
    /// plies against `player`, keeping the even plies from 2 to `last_ply`. The bound's passes
    /// run over the whole horizon (three arrays of four bytes a slot alive). A root of another
    /// material is an error.
    pub fn build(
        index: &Index,
        root: &Position,
        length: u32,
        player: CarelessPlayer,
        last_ply: u32,
        opts: &BuildOptions,
    ) -> Result<KeepGoingBook, ProbeError> {
        let top = top(length);
        let mut plies = Vec::new();
        kept_passes(index, root, length, player, opts, |plies_left, pass, horizon| {
            let played = top - plies_left;
            if played < 2 || played > last_ply {
                return;
            }
            let kept: Vec<(u32, u16)> = (0..pass.len())
                .into_par_iter()
                .with_min_len(1 << 14)
                .filter(|&s| horizon.contains(played, s as u64))
                .map(|s| (s as u32, quantise(pass[s][0])))
                .collect();
            log(opts, format_args!("keep-going book: ply {played}, {} positions", kept.len()));
            let (slots, chances) = kept.into_iter().unzip();
            plies.push(BookPly { played, slots, chances });
        })?;
        plies.sort_by_key(|p| p.played);
        Ok(KeepGoingBook { material: index.material(), length, player, plies })
    }

    /// The bot's book: the real game from the start, [`BOT_BOOK_LENGTH`], [`BOT_BOOK_PLAYER`]
    /// and [`BOT_BOOK_LAST_PLY`] (about 12-20 minutes on two cores, 3.6 GiB of memory at most).
    pub fn build_standard(opts: &BuildOptions) -> KeepGoingBook {
        let index = Index::new(Material::FULL);
        KeepGoingBook::build(&index, &Position::start(), BOT_BOOK_LENGTH, BOT_BOOK_PLAYER, BOT_BOOK_LAST_PLY, opts)
            .expect("the start is of the full material")
    }

    /// Why this book, of the real game's material, is not the one this build makes for the bot
    /// ([`KeepGoingBook::build_standard`]): another length, child or plies, such as a book from
    /// before the book kept ply 12. `None` when it is, or for another material (a test's book).
    pub fn differs_from_the_bots(&self) -> Option<String> {
        if self.material != Material::FULL {
            return None;
        }
        let plies: Vec<u32> = self.plies.iter().map(|p| p.played).collect();
        let wanted: Vec<u32> = (1..=BOT_BOOK_LAST_PLY / 2).map(|i| 2 * i).collect();
        if self.length != BOT_BOOK_LENGTH || self.player != BOT_BOOK_PLAYER || plies != wanted {
            return Some(format!(
                "it keeps plies {plies:?} for games of {} plies, this build's book keeps plies {wanted:?} for games of {BOT_BOOK_LENGTH}",
                self.length
            ));
        }
        None
    }

    /// The length the chances are for.
    pub fn length(&self) -> u32 {
        self.length
    }

    /// The careless player the chances are for.
    pub fn player(&self) -> CarelessPlayer {
        self.player
    }

    /// The material the book is for.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The last ply kept (0 for an empty book).
    pub fn last_ply(&self) -> u32 {
        self.plies.last().map_or(0, |p| p.played)
    }

    /// Positions kept, over every ply.
    pub fn entries(&self) -> usize {
        self.plies.iter().map(|p| p.slots.len()).sum()
    }

    /// The bound's chance (within 1/65535) that a game standing at `pos`, `played` plies from
    /// the start and the careless player to move, lasts [`KeepGoingBook::length`] plies: 0 for
    /// a game over, or one where the careless player can capture the lion at once. `None`
    /// where the book does not know: another material, a ply not kept, a position no game from
    /// the start meets then.
    pub fn chance(&self, index: &Index, pos: &Position, played: u32) -> Option<f64> {
        if Material::of(pos) != self.material || index.material() != self.material {
            return None;
        }
        let ply = self.plies.iter().find(|p| p.played == played)?;
        if status(pos.key()) != Status::Ongoing {
            return Some(0.0);
        }
        // Without a slot the side to move can capture the other lion: the careless player
        // takes it.
        let Some(slot) = index.slot(pos.key()) else { return Some(0.0) };
        // A placement with both lions on the middle file has a slot for each mirror image, and
        // the horizon holds the one its games were expanded through: the chance is the same.
        let kept = |slot: u64| Some(ply.chances[ply.slots.binary_search(&u32::try_from(slot).ok()?).ok()?]);
        let chance = kept(slot).or_else(|| kept(index.slot(pos.mirror().key())?))?;
        Some(f64::from(chance) / f64::from(u16::MAX))
    }

    /// The book's bytes (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.entries() * 6 + 16 * self.plies.len());
        for p in &self.plies {
            body.extend_from_slice(&p.played.to_le_bytes());
            body.extend_from_slice(&0u32.to_le_bytes());
            body.extend_from_slice(&(p.slots.len() as u64).to_le_bytes());
        }
        for p in &self.plies {
            body.extend(p.slots.iter().flat_map(|s| s.to_le_bytes()));
            body.extend(p.chances.iter().flat_map(|c| c.to_le_bytes()));
        }
        let mut out = vec![0u8; BOOK_HEADER_LEN];
        out[0..8].copy_from_slice(&BOOK_MAGIC);
        out[8..12].copy_from_slice(&BOOK_FORMAT_VERSION.to_le_bytes());
        out[12..15].copy_from_slice(&self.material.0);
        out[16..20].copy_from_slice(&self.length.to_le_bytes());
        out[20..24].copy_from_slice(&self.player.heed.to_le_bytes());
        out[24] = u8::from(self.player.takebacks);
        out[28..32].copy_from_slice(&(self.plies.len() as u32).to_le_bytes());
        out[32..40].copy_from_slice(&checksum(&[&body]).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a book's bytes, checking the header, the sizes, the checksum and that the slots
    /// ascend within the index of its material.
    pub fn from_bytes(bytes: &[u8]) -> Result<KeepGoingBook, FormatError> {
        let corrupt = |why: String| FormatError::Corrupt(why);
        let actual = bytes.len() as u64;
        if bytes.len() < BOOK_HEADER_LEN {
            return Err(FormatError::Truncated { expected: BOOK_HEADER_LEN as u64, actual });
        }
        if bytes[0..8] != BOOK_MAGIC {
            return Err(corrupt("not a keep-going book (bad magic)".into()));
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
        if u32_at(8) != BOOK_FORMAT_VERSION {
            return Err(corrupt(format!("format version {} (this build reads {BOOK_FORMAT_VERSION})", u32_at(8))));
        }
        let material = Material([bytes[12], bytes[13], bytes[14]]);
        if material.0.iter().any(|&c| c > 2) {
            return Err(corrupt(format!("material {:?}", material.0)));
        }
        let heed = f32::from_le_bytes(bytes[20..24].try_into().expect("4 bytes"));
        if !(0.0..=1.0).contains(&heed) || bytes[24] > 1 {
            return Err(corrupt(format!("player heed {heed}, take-backs {}", bytes[24])));
        }
        let player = CarelessPlayer { heed, takebacks: bytes[24] == 1 };
        let n = u32_at(28) as u64;
        let directory_end = BOOK_HEADER_LEN as u64 + 16 * n;
        if actual < directory_end {
            return Err(FormatError::Truncated { expected: directory_end, actual });
        }
        let mut sizes = Vec::new();
        let mut expected = directory_end;
        for i in 0..n as usize {
            let at = BOOK_HEADER_LEN + 16 * i;
            let entries = u64_at(at + 8);
            sizes.push((u32_at(at), entries));
            expected = expected.saturating_add(entries.saturating_mul(6));
        }
        if actual != expected {
            return Err(FormatError::Truncated { expected, actual });
        }
        let body = &bytes[BOOK_HEADER_LEN..];
        if checksum(&[body]) != u64_at(32) {
            return Err(corrupt("checksum does not match the header's".into()));
        }
        let index = Index::new(material);
        let mut plies: Vec<BookPly> = Vec::new();
        let mut at = directory_end as usize;
        for (played, entries) in sizes {
            let entries = entries as usize;
            let slots: Vec<u32> = bytes[at..at + 4 * entries]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect();
            at += 4 * entries;
            let chances: Vec<u16> = bytes[at..at + 2 * entries]
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes(c.try_into().expect("2 bytes")))
                .collect();
            at += 2 * entries;
            if slots.windows(2).any(|w| w[0] >= w[1]) || slots.last().is_some_and(|&s| u64::from(s) >= index.len()) {
                return Err(corrupt(format!("ply {played}: slots out of order or beyond the index")));
            }
            if plies.last().is_some_and(|p| p.played >= played) {
                return Err(corrupt(format!("ply {played} out of order")));
            }
            plies.push(BookPly { played, slots, chances });
        }
        Ok(KeepGoingBook { material, length: u32_at(16), player, plies })
    }
}

/// A table with a keep-going book beside it: probes go to the table, the book's chances to
/// the book (what the bot's table file does with the book file next to it).
pub struct WithBook<T> {
    /// The table.
    pub table: T,
    /// The book, of the table's material.
    pub book: KeepGoingBook,
    index: Index,
}

impl<T: Table> WithBook<T> {
    /// `table` with `book` beside it.
    pub fn new(table: T, book: KeepGoingBook) -> WithBook<T> {
        let index = Index::new(book.material());
        WithBook { table, book, index }
    }
}

impl<T: Table> Table for WithBook<T> {
    fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        self.table.probe(pos)
    }

    fn keep_going_chance(&self, pos: &Position, played: u32) -> Option<f64> {
        self.book.chance(&self.index, pos, played)
    }
}

fn quantise(chance: f32) -> u16 {
    (chance.clamp(0.0, 1.0) * f32::from(u16::MAX)).round() as u16
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    use super::super::survival::tests::{random_root, Reference};
    use super::*;

    const HEEDING: CarelessPlayer = CarelessPlayer { heed: 0.5, takebacks: false };

    #[test]
    fn the_book_holds_the_bounds_exact_chances_at_its_plies_and_nothing_past_them() {
        let mut rng = StdRng::seed_from_u64(41);
        let mut compared = 0;
        for material in [[0, 0, 1], [1, 0, 1]] {
            let index = Index::new(Material(material));
            for _ in 0..2 {
                let root = random_root(&index, &mut rng);
                let book = KeepGoingBook::build(&index, &root, 10, HEEDING, 4, &BuildOptions::default()).unwrap();
                assert_eq!(book.last_ply(), 4);
                // Every position two and four plies from the root, against the kept passes.
                let mut frontier = vec![root];
                for played in 1..=5u32 {
                    // The careless player (to move at even plies) takes a win at once: the
                    // book need not know what follows a missed one.
                    let careless = played % 2 == 1;
                    frontier = frontier
                        .iter()
                        .filter(|p| p.outcome().is_none() && !(careless && !p.winning_moves().is_empty()))
                        .flat_map(|p| p.legal_moves().into_iter().map(|m| p.play(m).unwrap()))
                        .collect();
                    frontier.sort_by_key(|p| p.key());
                    frontier.dedup();
                    if played % 2 == 1 {
                        assert!(frontier.iter().all(|p| book.chance(&index, p, played).is_none()));
                        continue;
                    }
                    for pos in &frontier {
                        let got = book.chance(&index, pos, played);
                        if played > 4 {
                            assert_eq!(got, None);
                            continue;
                        }
                        let want = Reference::new(10, HEEDING).chance(pos, played);
                        let got = got.unwrap_or_else(|| panic!("{pos:?} at ply {played} not in the book"));
                        assert!((got - want).abs() <= 1e-4, "{pos:?}: {got} vs {want}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn a_real_game_book_of_other_plies_is_not_the_bots_and_a_small_one_is_not_judged() {
        let book = |plies: &[u32], material: Material| KeepGoingBook {
            material,
            length: BOT_BOOK_LENGTH,
            player: BOT_BOOK_PLAYER,
            plies: plies.iter().map(|&played| BookPly { played, slots: vec![], chances: vec![] }).collect(),
        };
        let bots: Vec<u32> = (2..=BOT_BOOK_LAST_PLY).step_by(2).collect();
        assert_eq!(book(&bots, Material::FULL).differs_from_the_bots(), None);
        // The first book kept plies 2-10: read from its bytes as a bot reads it.
        let first = KeepGoingBook::from_bytes(&book(&[2, 4, 6, 8, 10], Material::FULL).to_bytes()).unwrap();
        let why = first.differs_from_the_bots().expect("a ten-ply book is not this build's");
        assert!(why.contains("[2, 4, 6, 8, 10]"), "{why}");
        let other_child = KeepGoingBook { player: CarelessPlayer::CHILD, ..book(&bots, Material::FULL) };
        assert!(other_child.differs_from_the_bots().is_some());
        assert_eq!(book(&[2, 4], Material([0, 0, 1])).differs_from_the_bots(), None);
    }

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let index = Index::new(Material([0, 0, 1]));
        let root = random_root(&index, &mut StdRng::seed_from_u64(3));
        let book = KeepGoingBook::build(&index, &root, 8, HEEDING, 6, &BuildOptions::default()).unwrap();
        assert!(book.entries() > 10);
        let bytes = book.to_bytes();
        assert_eq!(KeepGoingBook::from_bytes(&bytes).unwrap(), book);
        assert!(matches!(KeepGoingBook::from_bytes(&bytes[..bytes.len() - 1]), Err(FormatError::Truncated { .. })));
        assert!(matches!(KeepGoingBook::from_bytes(&bytes[..10]), Err(FormatError::Truncated { .. })));
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(KeepGoingBook::from_bytes(&flipped), Err(FormatError::Corrupt(_))));
        let mut other = bytes.clone();
        other[0] = b'X';
        assert!(matches!(KeepGoingBook::from_bytes(&other), Err(FormatError::Corrupt(_))));
        let mut version = bytes;
        version[8] = 9;
        assert!(matches!(KeepGoingBook::from_bytes(&version), Err(FormatError::Corrupt(_))));
        // Another material's positions are not known.
        assert_eq!(book.chance(&index, &Position::start(), 2), None);
    }
}
