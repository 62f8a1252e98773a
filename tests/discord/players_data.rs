//! The players' data on request through Discord (docs/design/players-data.md): `/play
//! forget-me` asks privately, in the player's language, and erases only on their own "yes";
//! a server that removes the bot has its data deleted after the grace period.

use serde_json::json;
use settai::domain::{DataCounts, Forgotten, GameStatus, DEPARTED_GUILD_GRACE_DAYS, FORGOTTEN_PLAYER};
use settai::i18n::Msg;
use sqlx::PgPool;

use crate::said::{en, ja};
use crate::support::fixtures::{self, Ctx, OTHER_USER_ID};
use crate::{assert_no_hidden_word, assert_refused, play_reversi, Bot, T};

fn forget_me(ctx: &Ctx) -> serde_json::Value {
    fixtures::slash(ctx, "play", "forget-me", json!([]))
}

/// The question's buttons: (erase, keep).
fn buttons(x: &crate::support::Exchange) -> (String, String) {
    let ids = x.custom_ids();
    let find =
        |prefix: &str| ids.iter().find(|i| i.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}:\n{x}")).clone();
    (find("fm:yes:"), find("fm:no:"))
}

/// The private question as Discord sends it back with a click on one of its buttons.
fn question(ctx: &Ctx, x: &crate::support::Exchange) -> serde_json::Value {
    let mut message = fixtures::bot_message(ctx, x.message_id().unwrap_or(1_100_000_000_000_009_998));
    message["flags"] = json!(64);
    message
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn forget_me_asks_privately_and_erases_only_on_the_players_yes(pool: PgPool) {
    let bot = Bot::builder(pool.clone()).start().await;
    let ctx = Ctx::en();
    let start = bot.standin.interact(play_reversi(&ctx)).await;
    let game_id = bot.game(&ctx).await.unwrap().id;

    // Nothing kept about someone who never played: nothing to ask.
    let stranger = ctx.with_user(OTHER_USER_ID);
    let nothing = bot.standin.interact(forget_me(&stranger)).await;
    assert!(nothing.is_ephemeral() && nothing.content() == en(Msg::NothingKept), "{nothing}");
    assert!(nothing.custom_ids().is_empty());

    // The question names what would go, privately.
    let asked = bot.standin.interact(forget_me(&ctx)).await;
    let counts = DataCounts { games_in_progress: 1, ..DataCounts::default() };
    assert!(asked.is_ephemeral() && asked.content() == en(Msg::ForgetQuestion { counts: &counts }), "{asked}");
    let (erase, keep) = buttons(&asked);
    let message = question(&ctx, &asked);

    // Only the player asked may answer; another's press changes nothing.
    let forged = bot.standin.interact(fixtures::button_on(&stranger, &erase, &message)).await;
    assert_refused(&forged, &en(Msg::StaleBoard));
    // "Keep it" keeps everything.
    let kept = bot.standin.interact(fixtures::button_on(&ctx, &keep, &message)).await;
    assert_eq!(kept.content(), en(Msg::Kept));
    assert!(kept.custom_ids().is_empty(), "the answer replaces the question and its buttons:\n{kept}");
    assert_eq!(bot.game(&ctx).await.unwrap().status, GameStatus::Active);

    // In Japanese, asked again, and erased: the game on ends, nothing names the player.
    let ja_ctx = Ctx { locale: "ja", ..ctx.clone() };
    let asked = bot.standin.interact(forget_me(&ja_ctx)).await;
    assert!(asked.is_ephemeral() && asked.content() == ja(Msg::ForgetQuestion { counts: &counts }), "{asked}");
    let (erase, _) = buttons(&asked);
    let done = bot.standin.interact(fixtures::button_on(&ja_ctx, &erase, &question(&ja_ctx, &asked))).await;
    let forgotten = Forgotten { games: 1, ended: vec![game_id], moves: 0, choices: false };
    assert_eq!(done.content(), ja(Msg::Forgotten { done: &forgotten }));
    assert!(bot.game(&ctx).await.is_none());
    let ended = bot.store.game(game_id).await.unwrap().unwrap();
    assert_eq!((ended.status, ended.human_id, ended.human_name.as_str()), (GameStatus::Resigned, FORGOTTEN_PLAYER, ""));
    let traces: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM games WHERE human_id = $1) + (SELECT count(*) FROM moves WHERE user_id = $1)
              + (SELECT count(*) FROM player_settings WHERE user_id = $1)",
    )
    .bind(ctx.user_id as i64)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(traces, 0);
    // The old board is no longer a game anyone can play.
    let board = bot.standin.message(start.message_id().unwrap()).unwrap();
    let first = crate::touch_taps(&board, "p").into_iter().next().expect("a number");
    let tap = crate::tap_move_on(&bot, &ctx, &board, &first).await;
    assert!(tap.is_ephemeral() && tap.files().is_empty(), "{tap}");

    // Every text of the flow keeps the secret, in both languages.
    for lang_text in [
        en(Msg::ForgetQuestion {
            counts: &DataCounts { finished_games: 2, games_in_progress: 1, moves_in_others_games: 3, choices: true },
        }),
        ja(Msg::ForgetQuestion {
            counts: &DataCounts { finished_games: 2, games_in_progress: 1, moves_in_others_games: 3, choices: true },
        }),
        en(Msg::Forgotten { done: &Forgotten { games: 2, ended: vec![1], moves: 3, choices: true } }),
        ja(Msg::Forgotten { done: &Forgotten { games: 2, ended: vec![1], moves: 3, choices: true } }),
        en(Msg::NothingKept),
        ja(Msg::NothingKept),
        en(Msg::EraseButton),
        ja(Msg::EraseButton),
        en(Msg::KeepButton),
        ja(Msg::KeepButton),
        en(Msg::Kept),
        ja(Msg::Kept),
    ] {
        assert_no_hidden_word("the forget-me flow", &lang_text);
    }
    bot.stop().await;
}

/// Waits until `query` (one number) gives `expected`: the bot works on gateway events and
/// sweeps in tasks of its own.
async fn eventually(pool: &PgPool, query: &str, guild: u64, expected: i64) {
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let n: i64 = sqlx::query_scalar(query).bind(guild as i64).fetch_one(pool).await.unwrap();
        if n == expected {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "{query} stayed {n}, not {expected}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_server_that_removes_the_bot_is_deleted_after_the_grace_period(pool: PgPool) {
    let bot = Bot::builder(pool.clone()).start().await;
    let staying = Ctx::en();
    bot.standin.interact(play_reversi(&staying)).await;
    let leaving = Ctx { guild_id: staying.guild_id + 1, channel_id: staying.channel_id + 1000, ..staying.clone() };
    bot.standin.interact(play_reversi(&leaving)).await;
    let games_of = "SELECT count(*) FROM games WHERE guild_id = $1";
    let departed = "SELECT count(*) FROM guild_departures WHERE guild_id = $1";

    // An outage (the server unavailable) is not a departure; a removal is.
    let outage = json!({"id": staying.guild_id.to_string(), "unavailable": true});
    bot.standin.send_event("GUILD_DELETE", Some(staying.guild_id), outage).await;
    let removal = json!({"id": leaving.guild_id.to_string()});
    bot.standin.send_event("GUILD_DELETE", Some(leaving.guild_id), removal).await;
    eventually(&pool, departed, leaving.guild_id, 1).await;
    assert_eq!(count(&pool, games_of, leaving.guild_id).await, 1, "kept through the grace period");

    // Past it, a sweep deletes that server's games and settings; the other server's stay.
    sqlx::query("UPDATE guild_departures SET left_at = now() - make_interval(days => $2) WHERE guild_id = $1")
        .bind(leaving.guild_id as i64)
        .bind(DEPARTED_GUILD_GRACE_DAYS as i32)
        .execute(&pool)
        .await
        .unwrap();
    eventually(&pool, games_of, leaving.guild_id, 0).await;
    eventually(&pool, departed, leaving.guild_id, 0).await;
    assert_eq!(count(&pool, departed, staying.guild_id).await, 0, "an outage is no departure");
    assert_eq!(count(&pool, games_of, staying.guild_id).await, 1);
    assert!(bot.game(&staying).await.is_some());
    bot.stop().await;
}

async fn count(pool: &PgPool, query: &str, guild: u64) -> i64 {
    sqlx::query_scalar(query).bind(guild as i64).fetch_one(pool).await.unwrap()
}
