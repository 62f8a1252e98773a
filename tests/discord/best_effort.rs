//! The bot's calls Discord may refuse on their own (docs/design/bot-reliability.md#robustness):
//! a reminder to a channel deleted since, or one the bot may no longer post in. Discord's
//! refusal is logged and the game kept as it was; the other channels get theirs.

use serde_json::json;
use settai::i18n::{Lang, Msg, Needed};
use settai_core::GameKind;
use sqlx::PgPool;

use crate::family::waited;
use crate::said::{en, whatever_the_link};
use crate::support::discord::permission;
use crate::support::fixtures::{self, Ctx};
use crate::support::ReplyKind;
use crate::{assert_refused, play_reversi, Bot, T};

/// What a reminder to `ctx`'s player of their reversi game says, whatever its board.
fn reminder(ctx: &Ctx) -> String {
    whatever_the_link(|link| Msg::Reminder { human: ctx.user_id, kind: GameKind::Reversi, link }, Lang::En)
}

/// A reminder owed in a deleted channel (10003 Unknown Channel) or in one where the bot lost
/// SEND_MESSAGES (50013 Missing Permissions) is given up: it counts as sent (no retry every
/// sweep), the game is as it was and plays on once it can be shown, and the reminder of a third
/// channel goes out.
#[sqlx::test(migrator = "settai::store::MIGRATOR")]
async fn a_reminder_discord_refuses_is_given_up_and_the_game_kept(pool: PgPool) {
    let bot = Bot::builder(pool).start().await;
    let gone = Ctx::en();
    let muted = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID);
    let open = Ctx::en().with_channel(fixtures::OTHER_CHANNEL_ID + 1);
    for ctx in [&gone, &muted, &open] {
        bot.standin.interact(play_reversi(ctx)).await;
    }
    bot.standin.delete_channel(gone.channel_id);
    bot.standin.withhold_permissions(muted.channel_id, permission::SEND_MESSAGES);
    let since = bot.standin.cursor();
    waited(&bot, &[(&gone, 25.0), (&muted, 25.0), (&open, 25.0)]).await;
    let to = |ctx: &Ctx| {
        let channel_id = ctx.channel_id;
        move |c: &crate::support::Reply| c.kind == ReplyKind::ChannelMessage { channel_id }
    };
    let refused = bot.standin.wait_call(since, T, to(&gone)).await;
    assert!(refused.error.as_deref().is_some_and(|e| e.starts_with("10003")), "{refused}");
    let refused = bot.standin.wait_call(since, T, to(&muted)).await;
    assert!(refused.error.as_deref().is_some_and(|e| e.starts_with("50013")), "{refused}");
    let sent = bot.standin.wait_call(since, T, to(&open)).await;
    assert!(sent.ok() && sent.content().is_some_and(|t| t.contains(&reminder(&open))), "{sent}");
    // Claimed before sending: not owed again, and the games are as they were.
    let owed = bot.store.games_owed_nudges().await.unwrap().sound;
    assert!(owed.is_empty(), "{owed:?}");
    for ctx in [&gone, &muted] {
        let game = bot.game(ctx).await.expect("the game is kept");
        assert_eq!(game.ply, 0);
    }
    // In the muted channel a move is refused privately, naming the permission Discord's
    // `app_permissions` now lacks, and changes nothing; once it is given back, the game goes on.
    let mv = || fixtures::slash(&muted, "play", "move", json!([{ "name": "move", "type": 3, "value": "f5" }]));
    let refused = bot.standin.interact(mv()).await;
    assert_refused(&refused, &en(Msg::MissingPermissions { needed: &[Needed::SendMessages] }));
    assert_eq!(bot.game(&muted).await.unwrap().ply, 0);
    bot.standin.restore_permissions(muted.channel_id, permission::SEND_MESSAGES);
    let played = bot.standin.interact(mv()).await;
    assert!(!played.is_ephemeral(), "{played}");
    assert!(bot.game(&muted).await.unwrap().ply >= 1);
    bot.shards.shutdown_all().await;
    // Only the reminders' posts were refused, and the look for the board in the deleted channel
    // (the reminder links to it if it is still there).
    let fetched = format!("/channels/{}/messages/", gone.channel_id);
    bot.standin.assert_refused_only(|c| match &c.kind {
        ReplyKind::ChannelMessage { channel_id } => [gone.channel_id, muted.channel_id].contains(channel_id),
        ReplyKind::Other { method, path } => method == "GET" && path.contains(&fetched),
        _ => false,
    });
}
