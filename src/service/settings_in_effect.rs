//! The settings in effect for a request, worked out here and nowhere else, so that the rules
//! and every front end see the same ones: the server's with the channel's overrides (as the
//! store reads them), as the venue has them (docs/design/private-channels.md#settings), under a
//! game's own rules, and with the reader's own choice of hints
//! (docs/design/kind-coach.md#your-own-choice).

use crate::domain::{HouseRules, InEffect, Settings, Venue};

/// The settings in effect for a request in `venue` (`None`: a sweep, which answers nobody
/// there), from the settings `as_read` at its place, the game's own rules (`house_rules`,
/// chosen by its starter outside servers) and the reader's own choice of hints.
pub fn settings_in_effect(
    as_read: &Settings,
    venue: Option<Venue>,
    house_rules: Option<HouseRules>,
    hints_choice: Option<bool>,
) -> InEffect {
    let in_venue = match venue {
        Some(venue) => as_read.clone().in_venue(venue),
        None => as_read.clone(),
    };
    // A game's own rules win over the place's.
    let place = in_venue.under(house_rules);
    let reader = Settings { hints: hints_choice.unwrap_or(place.hints), ..place.clone() };
    InEffect { place, reader, hints_choice, as_read: as_read.clone(), venue }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Lang, Setting};
    use settai_core::{doubutsu::DoubutsuLevel, reversi::ReversiLevel};

    /// A server's settings with something of every kind changed, and one from the channel.
    fn server() -> Settings {
        Settings {
            reversi_level: ReversiLevel::NoMercy,
            doubutsu_level: DoubutsuLevel::Weakest,
            commentary: true,
            idle_days: 3,
            language: Some(Lang::Ja),
            reminder_hours: 5,
            takeback: false,
            hints: true,
            from_channel: vec![Setting::Commentary],
            ..Settings::default()
        }
    }

    #[test]
    fn a_server_keeps_its_managers_settings_and_the_reader_chooses_only_hints() {
        let read = server();
        let effect = settings_in_effect(&read, Some(Venue::Server), None, Some(false));
        assert_eq!(effect.place, read, "nothing changes what a server's managers chose");
        assert_eq!(effect.reader, Settings { hints: false, ..read.clone() });
        assert_eq!((effect.hints_choice, effect.venue), (Some(false), Some(Venue::Server)));
        assert_eq!(effect.as_read, read);
        // Without a choice of their own, the reader plays under the place's hints.
        let off = Settings { hints: false, ..read.clone() };
        assert!(!settings_in_effect(&off, Some(Venue::Server), None, None).reader.hints);
        assert!(settings_in_effect(&off, Some(Venue::Server), None, Some(true)).reader.hints);
        assert!(!settings_in_effect(&off, Some(Venue::Server), None, Some(true)).place.hints, "the place's stay");
    }

    #[test]
    fn where_nobody_manages_the_starter_chooses_and_anyone_moves() {
        let read = Settings::default();
        for venue in [Venue::BotDm, Venue::PrivateChannel] {
            let effect = settings_in_effect(&read, Some(venue), None, None);
            assert!(effect.place.level_choice && effect.place.team_play, "{venue:?}");
            assert_eq!(effect.reader, effect.place);
            assert_eq!(Settings { level_choice: false, team_play: false, ..effect.place }, read);
        }
        // A sweep answers nobody: the settings stay as read.
        assert_eq!(settings_in_effect(&read, None, None, None).place, read);
    }

    #[test]
    fn a_games_own_rules_win_over_the_places_for_its_reader_too() {
        let read = server();
        let rules = HouseRules { takeback: true, commentary: false };
        let effect = settings_in_effect(&read, Some(Venue::BotDm), Some(rules), Some(false));
        for settings in [&effect.place, &effect.reader] {
            assert!(settings.takeback && !settings.commentary);
            assert!(settings.level_choice && settings.team_play);
            assert_eq!((settings.language, settings.idle_days), (Some(Lang::Ja), 3));
        }
        assert!(effect.place.hints && !effect.reader.hints);
        // Worked out again from what was read, for a game the request starts: the same.
        let again = settings_in_effect(&effect.as_read, effect.venue, Some(rules), effect.hints_choice);
        assert_eq!(again, effect);
    }
}
