//! The board's tiles as the bot's application emojis (docs/design/touch.md#tiles-on-the-buttons):
//! uploaded at start by name, once whatever the number of processes, never deleted or
//! re-created (boards already posted name their ids); plain emoji stand in when they could not be
//! uploaded.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serenity::all::{CreateAttachment, EmojiId, ReactionType};
use serenity::http::Http;

use super::calls::{self, retried, Failed, Repeat};
use crate::render::doubutsu::{Animal, Owner, TileEmoji};
use crate::render::RenderError;

/// How long the upload may take before the buttons fall back to plain emoji (the commands are
/// registered after it).
const UPLOAD_DEADLINE: Duration = Duration::from_secs(30);

/// The tiles' emoji ids once uploaded, shared by every handler of a process.
#[derive(Clone, Default)]
pub struct AppEmojis {
    ids: Arc<OnceLock<HashMap<TileEmoji, EmojiId>>>,
    /// One upload at a time within the process (every shard's READY asks).
    uploading: Arc<tokio::sync::Mutex<()>>,
}

/// Why the tiles could not be uploaded.
#[derive(Debug, thiserror::Error)]
enum UploadError {
    #[error("Discord refused: {0}")]
    Discord(#[from] serenity::Error),
    #[error("a tile could not be drawn: {0}")]
    Render(#[from] RenderError),
    #[error("the emoji {0} is neither listed nor created")]
    Missing(String),
    #[error("no answer within {0:?}")]
    Deadline(Duration),
}

impl AppEmojis {
    /// Uploads the tiles the application does not have yet (by name) and keeps every tile's id.
    /// A failure is logged and leaves the plain emoji; the next start (or reconnection) tries
    /// again.
    pub(super) async fn register(&self, http: &Http) {
        let _one = self.uploading.lock().await;
        if self.ids.get().is_some() {
            return;
        }
        let uploaded = tokio::time::timeout(UPLOAD_DEADLINE, upload(http))
            .await
            .unwrap_or(Err(UploadError::Deadline(UPLOAD_DEADLINE)));
        match uploaded {
            Ok(ids) => {
                tracing::info!(tiles = ids.len(), "the board's tiles are the buttons' emojis");
                let _ = self.ids.set(ids);
            }
            Err(e) => {
                tracing::error!(error = %e, "could not upload the board's tiles as emojis; the buttons show plain emoji")
            }
        }
    }

    /// What a button shows for `tile`: its application emoji, or a plain emoji until uploaded.
    pub(super) fn tile(&self, tile: TileEmoji) -> ReactionType {
        match self.ids.get().and_then(|ids| ids.get(&tile)) {
            Some(&id) => ReactionType::Custom { animated: false, id, name: Some(tile_name(tile)) },
            None => ReactionType::Unicode(plain(tile).to_string()),
        }
    }
}

/// Lists the application's emojis, creates the tiles missing by name, and returns every tile's
/// id. Discord keeps names unique: a process that lost a race to create one reads it back.
async fn upload(http: &Http) -> Result<HashMap<TileEmoji, EmojiId>, UploadError> {
    let listed = |emojis: Vec<serenity::all::Emoji>| emojis.into_iter().map(|e| (e.name, e.id)).collect();
    let list = || retried("list the application's emojis", Repeat::Safe, || http.get_application_emojis());
    let mut have: HashMap<String, EmojiId> = listed(list().await?);
    let mut ids = HashMap::new();
    for tile in TileEmoji::all() {
        let name = tile_name(tile);
        if !have.contains_key(&name) {
            let image = CreateAttachment::bytes(tile.png()?, format!("{name}.png")).to_base64();
            let body = serde_json::json!({ "name": name, "image": image });
            // Names are unique: a create that failed (another process made it since the list,
            // or Discord made it and never answered) is checked against the list before it is
            // tried again.
            let mut tried = 0;
            loop {
                tried += 1;
                match http.create_application_emoji(&body).await {
                    Ok(emoji) => {
                        have.insert(emoji.name, emoji.id);
                        break;
                    }
                    Err(e) => {
                        have = listed(list().await?);
                        if have.contains_key(&name) {
                            break;
                        }
                        if tried >= calls::TRIES || Failed::of(&e) == Failed::Refused {
                            return Err(e.into());
                        }
                    }
                }
            }
        }
        ids.insert(tile, *have.get(&name).ok_or_else(|| UploadError::Missing(name.clone()))?);
    }
    Ok(ids)
}

/// A tile's emoji name, which screen readers read aloud: whose piece and which animal (the
/// player is always sente in doubutsu shogi). Changing a tile's picture means a new name: an
/// emoji is never re-created.
pub fn tile_name(tile: TileEmoji) -> String {
    let animal = |a: Animal| match a {
        Animal::Lion => "lion",
        Animal::Giraffe => "giraffe",
        Animal::Elephant => "elephant",
        Animal::Chick => "chick",
        Animal::Hen => "hen",
    };
    match tile {
        TileEmoji::Piece { owner, animal: a, moved } => {
            let whose = if owner == Owner::Sente { "your" } else { "computers" };
            let moved = if moved { "_just_moved" } else { "" };
            format!("{whose}_{}{moved}", animal(a))
        }
        TileEmoji::Empty { left: false } => "empty_square".to_string(),
        TileEmoji::Empty { left: true } => "square_just_left".to_string(),
    }
}

/// The plain emoji a tile falls back to: the animal (its side told by the button's colour), a
/// small white square for an empty one, and footprints where the last move left.
fn plain(tile: TileEmoji) -> &'static str {
    match tile {
        TileEmoji::Piece { animal, .. } => crate::i18n::animal_emoji(role(animal)),
        TileEmoji::Empty { left: false } => "▫\u{fe0f}",
        TileEmoji::Empty { left: true } => "👣",
    }
}

fn role(animal: Animal) -> settai_core::doubutsu::Role {
    use settai_core::doubutsu::Role;
    match animal {
        Animal::Lion => Role::Lion,
        Animal::Giraffe => Role::Giraffe,
        Animal::Elephant => Role::Elephant,
        Animal::Chick => Role::Chick,
        Animal::Hen => Role::Hen,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_ones_discord_takes() {
        let names: Vec<String> = TileEmoji::all().into_iter().map(tile_name).collect();
        let distinct: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{names:?}");
        for n in &names {
            // Discord: 2 to 32 letters, digits or underscores.
            assert!((2..=32).contains(&n.len()) && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{n}");
        }
    }

    #[test]
    fn until_uploaded_the_buttons_show_plain_emoji() {
        let emojis = AppEmojis::default();
        for tile in TileEmoji::all() {
            let ReactionType::Unicode(plain) = emojis.tile(tile) else { panic!("{tile:?}: a plain emoji") };
            // As Discord's emoji list has it, or every button with it is refused.
            assert!(emojis::get(&plain).is_some_and(|e| e.as_str() == plain), "{tile:?}: {plain:?} is fully qualified");
        }
        let mut ids = HashMap::new();
        for (i, tile) in TileEmoji::all().into_iter().enumerate() {
            ids.insert(tile, EmojiId::new(1000 + i as u64));
        }
        let _ = emojis.ids.set(ids);
        let lion = TileEmoji::Piece { owner: Owner::Gote, animal: Animal::Lion, moved: false };
        let ReactionType::Custom { id, name: Some(n), .. } = emojis.tile(lion) else { panic!("custom") };
        assert_eq!((id.get(), n.as_str()), (1005, "computers_lion"));
    }
}
