//! What the bot says, as its message catalogue (`settai::i18n`) words it: the tests compare
//! replies with these, so a change of wording is one edit in `src/i18n`, not one per test.

use settai::domain::PlayerResults;
use settai::i18n::{Lang, Msg};
use settai_core::Moment;
use settai_core::{Game, GameKind, GameMove, MoveError};

/// `msg` in English.
pub fn en(msg: Msg<'_>) -> String {
    msg.text(Lang::En)
}

/// `msg` in Japanese.
pub fn ja(msg: Msg<'_>) -> String {
    msg.text(Lang::Ja)
}

/// A move of `kind`, from its notation.
pub fn mv(kind: GameKind, text: &str) -> GameMove {
    GameMove::parse(kind, text).expect("a move in the notation")
}

/// The words of a message before the move it names ("I play **" of "I play **d3**."): for a
/// move the test cannot know (the bot's).
pub fn before_move(msg: fn(GameMove) -> Msg<'static>, lang: Lang) -> String {
    let text = msg(mv(GameKind::Reversi, "d3")).text(lang);
    text[..text.find("d3").expect("the message names the move")].to_string()
}

/// A confirmation of a change made for this channel only: `msg` and the words saying so.
pub fn for_this_channel(msg: Msg<'_>, lang: Lang) -> String {
    format!("{} {}", msg.text(lang), Msg::ForThisChannel.text(lang))
}

/// What every one of `texts` starts with (the words of a message that hold whatever its values,
/// e.g. "Game over: " of a win, a loss and a draw).
pub fn shared_start(texts: impl IntoIterator<Item = String>) -> String {
    let mut texts = texts.into_iter();
    let mut start = texts.next().expect("a text");
    for text in texts {
        let same = start.chars().zip(text.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8()).sum();
        start.truncate(same);
    }
    assert!(!start.is_empty(), "the texts share no words");
    start
}

/// The words of a game's end whoever won ("Game over: "), for a game whose result the test
/// cannot know.
pub fn game_over(lang: Lang) -> String {
    let verdict = |human_won| Msg::GameOver { human_won, score: None, reason: None }.text(lang);
    shared_start([Some(true), Some(false), None].map(verdict))
}

/// The words a message says whether it links to the board or brings a fresh one (`msg` of
/// the link, `None` for none): what a reminder says whatever its board.
pub fn whatever_the_link(msg: impl Fn(Option<&str>) -> Msg<'_>, lang: Lang) -> String {
    shared_start([msg(Some("https://discord.com/channels/1/2/3")).text(lang), msg(None).text(lang)])
}

/// `/play stats` of `human` with `reversi` as their reversi results and nothing yet in the other
/// games (every game kind is listed, in `GameKind::ALL` order).
pub fn stats(human: u64, reversi: PlayerResults, lang: Lang) -> String {
    let results = GameKind::ALL
        .iter()
        .map(|&kind| (kind, if kind == GameKind::Reversi { reversi } else { PlayerResults::default() }))
        .collect();
    Msg::Stats { human, results }.text(lang)
}

/// A player's results: `wins`, `losses`, `draws` and `takebacks`.
pub fn results(wins: u32, losses: u32, draws: u32, takebacks: u32) -> PlayerResults {
    PlayerResults { wins, losses, draws, takebacks }
}

/// The refusal of `input` where `game`'s legal moves are what the bot lists.
pub fn illegal(input: &str, game: &Game, lang: Lang) -> String {
    let legal: Vec<String> = game.legal_moves().iter().map(ToString::to_string).collect();
    Msg::IllegalMove { kind: game.kind(), input, legal: &legal.join(", ") }.text(lang)
}

/// The refusal of `input`, which is not a move of `kind` at all.
pub fn not_a_move(kind: GameKind, input: &str, lang: Lang) -> String {
    let Err(MoveError::Syntax(reason)) = GameMove::parse(kind, input) else { panic!("{input:?} reads as a move") };
    Msg::BadMove { kind, input, reason: &reason }.text(lang)
}

/// How the after-game summary starts, for each kind of game it tells of: great moves, moves
/// worth another look, or a steady game (which the test cannot know in advance).
pub fn summary_starts(lang: Lang) -> [String; 3] {
    let moment = [Moment { ply: 1, mv: mv(GameKind::Reversi, "d3") }];
    let before_list = |text: String| text[..text.find("**").expect("the summary lists the moves")].to_string();
    [
        before_list(Msg::Summary { finds: &moment, slips: &[] }.text(lang)),
        before_list(Msg::Summary { finds: &[], slips: &moment }.text(lang)),
        Msg::Summary { finds: &[], slips: &[] }.text(lang),
    ]
}
