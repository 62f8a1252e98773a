//! The catalogue checked in both languages: every [`Msg`](super::Msg), and every label and name a player
//! reads outside it, said in English and Japanese with sample arguments, one sample at least for
//! each branch that chooses a different sentence. No text may be empty, keep a placeholder
//! unfilled, or fall back to English in Japanese.
//!
//! The samples ([`samples`]) are listed by variant through [`samples_of_every`], whose match
//! has no wildcard arm: a variant added to `Msg` (or to an enum a message branches on) does not
//! compile until its samples are written there.

use samples::{everything_said, Said};

/// Every sample of an enum, named by its variant: `samples_of_every!(E { A => vec![..], .. })`.
/// The match names each listed variant and has no wildcard arm, so a variant added to `E` does
/// not compile until it is listed with its samples; a variant listed without a sample, or with
/// a sample of another variant, fails.
macro_rules! samples_of_every {
    ($enum:ident { $($variant:ident => $samples:expr),* $(,)? }) => {{
        let listed: Vec<(&'static str, Vec<_>)> = vec![$((stringify!($variant), $samples)),*];
        let mut samples = Vec::new();
        for (name, of_variant) in listed {
            assert!(!of_variant.is_empty(), "{name} is listed without a sample");
            for sample in of_variant {
                let variant = match &sample {
                    $($enum::$variant { .. } => stringify!($variant)),*
                };
                assert_eq!(variant, name, "a sample listed under {name} is a {variant}");
                samples.push((name, sample));
            }
        }
        samples
    }};
}

/// Every variant of an enum without fields, through a match with no wildcard arm (see
/// [`samples_of_every`]).
macro_rules! every {
    ($enum:ident { $($variant:ident),* $(,)? }) => {
        samples_of_every!($enum { $($variant => vec![$enum::$variant]),* })
            .into_iter()
            .map(|(_, value)| value)
            .collect::<Vec<$enum>>()
    };
}

/// What is said: the samples, in both languages.
mod samples;

/// Texts that are the same in both languages on purpose, with the reason: a sign or the
/// games' notation, which Japanese boards write the same way.
const LANGUAGE_NEUTRAL: [(&str, &str); 3] = [
    ("RiskyMark", "⚠ marks a risky move in the menus, a sign read the same in every language"),
    ("move_label(Step)", "an animal's emoji and its squares in the board's notation (🐥 B3 → B2)"),
    ("move_label(None)", "a move's notation (d3, B3B2) where no words describe it"),
];

/// Japanese words the Japanese texts write in Latin letters, as Japanese Discord does.
const LATIN_IN_JAPANESE: [&str; 3] = ["Discord", "DM", "ID"];

/// English texts quote the Japanese name of a take-back, as the README does.
const JAPANESE_IN_ENGLISH: &str = "待った";

/// Whether `c` is written only in Japanese: kana or a kanji.
fn is_japanese(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '々')
}

/// The words of two Latin letters or more in `text` that a reader reads as words: not in a
/// code span (a command or a move typed as is), a link, or a slash command.
fn latin_words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let prose = text.split('`').step_by(2);
    for token in prose.flat_map(str::split_whitespace).filter(|token| !token.contains("://")) {
        let mut start = None;
        // A sentinel space ends a word at the token's end.
        for (i, c) in token.char_indices().chain([(token.len(), ' ')]) {
            match (c.is_ascii_alphabetic(), start) {
                (true, None) => start = Some(i),
                (false, Some(from)) => {
                    let command = token[..from].ends_with('/');
                    if i - from >= 2 && !command {
                        words.push(&token[from..i]);
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    words
}

/// Every `{` or `}` of `text`. Nothing the bot says holds a brace (a mention is `<@id>`,
/// Discord's markdown has none), so each is a format placeholder that was never filled: a
/// `{name}` in a plain string, or an escaped `{{`.
fn braces(text: &str) -> Vec<char> {
    text.chars().filter(|c| matches!(c, '{' | '}')).collect()
}

/// The names of the samples of `said` that fail `fails`, with why.
fn failures(said: &[Said], fails: impl Fn(&Said) -> Option<String>) -> Vec<String> {
    said.iter()
        .filter_map(|s| fails(s).map(|why| format!("{}: {why}\n  en: {}\n  ja: {}", s.name, s.en, s.ja)))
        .collect()
}

/// Whether texts of `kind` may be the same in both languages ([`LANGUAGE_NEUTRAL`]).
fn neutral(kind: &str) -> bool {
    LANGUAGE_NEUTRAL.iter().any(|(name, _)| *name == kind)
}

#[test]
fn no_text_is_empty() {
    let found = failures(&everything_said(), |s| {
        (s.en.trim().is_empty() || s.ja.trim().is_empty()).then(|| "an empty text".to_string())
    });
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_placeholder_is_left_unfilled() {
    let found = failures(&everything_said(), |s| {
        let (en, ja) = (braces(&s.en), braces(&s.ja));
        (!en.is_empty() || !ja.is_empty()).then(|| format!("braces left in the text: en {en:?}, ja {ja:?}"))
    });
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn japanese_never_falls_back_to_english() {
    let found = failures(&everything_said(), |s| {
        let english_words: Vec<&str> =
            latin_words(&s.ja).into_iter().filter(|w| !LATIN_IN_JAPANESE.contains(w)).collect();
        if neutral(s.kind) && s.ja == s.en {
            None
        } else if s.ja == s.en {
            Some("the Japanese text is the English one".into())
        } else if !latin_words(&s.en).is_empty() && !s.ja.chars().any(is_japanese) {
            Some("the English has words, the Japanese not one Japanese character".into())
        } else {
            (!english_words.is_empty()).then(|| format!("English words in the Japanese text: {english_words:?}"))
        }
    });
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn english_says_no_japanese_but_the_name_of_a_take_back() {
    let found = failures(&everything_said(), |s| {
        let english = s.en.replace(JAPANESE_IN_ENGLISH, "");
        english.chars().any(is_japanese).then(|| "Japanese in the English text".to_string())
    });
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_language_neutral_text_is_one() {
    let said = everything_said();
    for (kind, why) in LANGUAGE_NEUTRAL {
        let same = said.iter().filter(|s| s.kind == kind && s.en == s.ja);
        let words: Vec<&str> = same.clone().flat_map(|s| latin_words(&s.en)).collect();
        assert!(same.count() > 0, "{kind} is listed as language-neutral ({why}) but says something in each language");
        assert!(words.is_empty(), "{kind} is listed as language-neutral ({why}) but has words: {words:?}");
    }
}

#[test]
fn the_checks_see_what_they_look_for() {
    assert_eq!(braces("Games close after {days} days"), ['{', '}']);
    assert!(braces("<@1>, your move: **d3** (`/play board`)").is_empty());
    assert_eq!(latin_words("これは `/play board` と /play と DM、d3 と B3B2 と E*B2。"), ["DM"]);
    assert_eq!(latin_words("リバーシ is ready: https://discord.com/x"), ["is", "ready"]);
    assert!(
        "ひよこ".chars().all(is_japanese) && "ニワトリ".chars().all(is_japanese) && "千日手".chars().all(is_japanese)
    );
    assert!(!"+3 (40-24)！、。⚠🦁".chars().any(is_japanese));
}

/// The snippets of `text` between backticks.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn a_refusal_shows_examples_of_its_own_game() {
    use crate::domain::Lang;
    use settai_core::{GameKind, GameMove};
    for kind in GameKind::ALL {
        for lang in [Lang::En, Lang::Ja] {
            let text = super::Msg::BadMove { kind, input: "zz", reason: "no" }.text(lang);
            for example in quoted(&text).into_iter().filter(|q| *q != "zz") {
                assert!(GameMove::parse(kind, example).is_ok(), "{text:?} shows {example:?}, not a move of {kind}");
            }
        }
    }
    // Reversi places a disc (打つ, 場所); doubutsu moves an animal (指す): the Japanese differs.
    let illegal = |kind| super::Msg::IllegalMove { kind, input: "x", legal: "y" }.text(Lang::Ja);
    assert_ne!(illegal(GameKind::Reversi), illegal(GameKind::Doubutsu));
    assert!(!illegal(GameKind::Doubutsu).contains("場所"), "{}", illegal(GameKind::Doubutsu));
}
