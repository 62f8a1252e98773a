//! A message for the player, as every path builds it (its text, files, buttons and who it may
//! ping), and the shapes Discord takes it in: a first response, an edit, a follow-up, a channel
//! message.

use serenity::all::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage, EditInteractionResponse,
};

/// A message for the player: text, files and components, public or only for them.
#[derive(Debug, Clone, Default)]
pub struct Reply {
    /// The text.
    pub content: String,
    /// Only the user who acted sees it.
    pub ephemeral: bool,
    /// Menus and buttons.
    pub components: Vec<CreateActionRow>,
    /// Attachments (name, bytes).
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// The users this message may ping (the player whose turn it is); nobody else, ever: no
    /// @everyone, @here or role, whatever the text says.
    pub mentions: Vec<u64>,
}

/// Who a message may ping: exactly `users`, never @everyone, @here or a role. Every message the
/// bot sends says so explicitly rather than trusting its wording.
pub fn allowed_mentions(users: &[u64]) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(users.iter().map(|&u| serenity::all::UserId::new(u)))
}

/// The two buttons under a question whose yes cannot be undone (resign, erase a player's
/// data): the yes red, the no grey, always in that order.
pub fn confirm_row(yes: (String, String), no: (String, String)) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(yes.0).label(yes.1).style(ButtonStyle::Danger),
        CreateButton::new(no.0).label(no.1).style(ButtonStyle::Secondary),
    ])
}

impl Reply {
    /// A private text for the user who acted.
    pub fn private(content: impl Into<String>) -> Reply {
        Reply { content: content.into(), ephemeral: true, ..Reply::default() }
    }

    /// A text for the channel.
    pub fn public(content: impl Into<String>) -> Reply {
        Reply { content: content.into(), ..Reply::default() }
    }

    fn allowed(&self) -> CreateAllowedMentions {
        allowed_mentions(&self.mentions)
    }

    /// The same reply with these components.
    pub fn with_components(mut self, components: Vec<CreateActionRow>) -> Reply {
        self.components = components;
        self
    }

    fn attachments(&self) -> Vec<CreateAttachment> {
        self.files.iter().map(|(name, bytes)| CreateAttachment::bytes(bytes.clone(), *name)).collect()
    }

    /// As the first response's message.
    pub fn message(&self) -> CreateInteractionResponseMessage {
        let message = CreateInteractionResponseMessage::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed())
            .add_files(self.attachments())
            .components(self.components.clone());
        // Flags are only sent when set: an update must not touch the message's own.
        if self.ephemeral {
            message.ephemeral(true)
        } else {
            message
        }
    }

    /// As an edit of the original response (its attachments replaced by these).
    pub fn edit(&self) -> EditInteractionResponse {
        let mut edit = EditInteractionResponse::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed())
            .components(self.components.clone());
        for a in self.attachments() {
            edit = edit.new_attachment(a);
        }
        edit
    }

    /// As a follow-up message.
    pub fn follow_up(&self) -> CreateInteractionResponseFollowup {
        let follow_up = CreateInteractionResponseFollowup::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed())
            .add_files(self.attachments())
            .components(self.components.clone());
        if self.ephemeral {
            follow_up.ephemeral(true)
        } else {
            follow_up
        }
    }

    /// As a plain channel message (no interaction to answer).
    pub fn channel_message(&self) -> CreateMessage {
        CreateMessage::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed())
            .add_files(self.attachments())
            .components(self.components.clone())
    }
}
