//! What the player who starts a game chooses for it where nobody manages settings (the bot's
//! DM, a DM or group DM): take-backs and commentary, the options a server's managers choose
//! elsewhere (docs/design/private-channels.md#settings).

use settai_core::Level;

use super::Settings;

/// What the player picked when offered the opponents: the level, and outside servers the
/// game's own rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pick {
    /// The opponent.
    pub level: Level,
    /// The game's own rules (`None` in servers, where the managers' settings apply).
    pub house_rules: Option<HouseRules>,
}

/// A game's own rules, chosen by its starter outside servers; stored with the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HouseRules {
    /// Players may take back their last move (待った).
    pub takeback: bool,
    /// Move commentary and after-game charts.
    pub commentary: bool,
}

/// One of the [`HouseRules`], as a toggle names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HouseRule {
    /// [`HouseRules::takeback`].
    Takeback,
    /// [`HouseRules::commentary`].
    Commentary,
}

impl HouseRules {
    /// What the starter is first offered: take-backs on, as a family around one board plays
    /// with a child (the coach offers them after a risky move), commentary off.
    pub const OFFERED: HouseRules = HouseRules { takeback: true, commentary: false };

    /// These rules with `rule` switched.
    pub fn toggled(self, rule: HouseRule) -> HouseRules {
        match rule {
            HouseRule::Takeback => HouseRules { takeback: !self.takeback, ..self },
            HouseRule::Commentary => HouseRules { commentary: !self.commentary, ..self },
        }
    }

    /// Whether `rule` is on.
    pub fn is_on(self, rule: HouseRule) -> bool {
        match rule {
            HouseRule::Takeback => self.takeback,
            HouseRule::Commentary => self.commentary,
        }
    }
}

impl HouseRule {
    /// Every rule, in the order the offer shows them.
    pub const ALL: [HouseRule; 2] = [HouseRule::Takeback, HouseRule::Commentary];
}

impl Settings {
    /// The settings for a game with `rules` of its own (none in servers): the game's rules win
    /// over the place's. One step of the settings in effect, which `service::settings_in_effect`
    /// takes with the others.
    pub fn under(mut self, rules: Option<HouseRules>) -> Settings {
        if let Some(rules) = rules {
            self.takeback = rules.takeback;
            self.commentary = rules.commentary;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_own_rules_win_over_the_places_and_toggle_one_at_a_time() {
        let place = Settings { takeback: false, commentary: true, ..Settings::default() };
        assert_eq!(place.clone().under(None), place);
        let rules = HouseRules::OFFERED.toggled(HouseRule::Commentary);
        assert_eq!(rules, HouseRules { takeback: true, commentary: true });
        let under = place.clone().under(Some(HouseRules { takeback: true, commentary: false }));
        assert!(under.takeback && !under.commentary);
        assert_eq!(Settings { takeback: false, commentary: true, ..under }, place);
        for rule in HouseRule::ALL {
            assert_ne!(HouseRules::OFFERED.toggled(rule).is_on(rule), HouseRules::OFFERED.is_on(rule));
            assert_eq!(HouseRules::OFFERED.toggled(rule).toggled(rule), HouseRules::OFFERED);
        }
    }
}
