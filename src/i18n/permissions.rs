//! The permissions the bot needs in a channel, as Discord's settings name them.

use crate::domain::Lang;

/// A permission the bot needs in a channel to show a game, as Discord's settings name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needed {
    /// Send Messages.
    SendMessages,
    /// Attach Files (the boards are images).
    AttachFiles,
    /// Send Messages in Threads.
    SendInThreads,
}

impl Needed {
    /// The permission's name as Discord shows it in `lang`.
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Needed::SendMessages, Lang::En) => "Send Messages",
            (Needed::SendMessages, Lang::Ja) => "メッセージを送信",
            (Needed::AttachFiles, Lang::En) => "Attach Files",
            (Needed::AttachFiles, Lang::Ja) => "ファイルを添付",
            (Needed::SendInThreads, Lang::En) => "Send Messages in Threads",
            (Needed::SendInThreads, Lang::Ja) => "スレッドでメッセージを送信",
        }
    }
}
