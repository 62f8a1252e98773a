//! Errors as operators read them: one line, each cause said once.

/// An error and its causes on one line, each cause once. Wrappers such as sqlx's repeat their
/// source in their own message ("database error: error communicating with database: Connection
/// refused"), so a cause whose text was already said is left out.
pub fn one_line(error: &(dyn std::error::Error + 'static)) -> String {
    let mut line = String::new();
    let mut cause = Some(error);
    while let Some(e) = cause {
        let text = e.to_string();
        if !text.is_empty() && !line.contains(&text) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&text);
        }
        cause = e.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("database error: {0}")]
    struct Wrapper(#[source] Inner);

    #[derive(Debug, thiserror::Error)]
    #[error("error communicating with database: {0}")]
    struct Inner(#[source] std::io::Error);

    #[test]
    fn a_cause_is_said_once() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "Connection refused (os error 111)");
        let error =
            anyhow::Error::new(Wrapper(Inner(refused))).context("could not open the database at postgres://db/settai");
        // anyhow's own `{:#}` says the cause three times.
        assert_eq!(format!("{error:#}").matches("Connection refused").count(), 3);
        let line = one_line(error.as_ref());
        assert_eq!(
            line,
            "could not open the database at postgres://db/settai: database error: error communicating with database: Connection refused (os error 111)"
        );
        assert_eq!(line.matches("Connection refused").count(), 1);
        // Causes that add something are all kept.
        let plain = anyhow::anyhow!("disk full").context("could not write b.png");
        assert_eq!(one_line(plain.as_ref()), "could not write b.png: disk full");
    }
}
