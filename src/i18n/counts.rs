//! English counts said the way people say them: "1 day", "2 days" (Japanese counts take no
//! plural).

/// `n` followed by the `one` or the `many` form of the noun.
pub fn en_count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::en_count;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(en_count(1u32, "day", "days"), "1 day");
        for n in [0u64, 2, 7, 30, 1_000] {
            assert_eq!(en_count(n, "game", "games"), format!("{n} games"));
        }
    }
}
