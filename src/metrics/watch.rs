//! The parts of the bot that a scrape and a readiness check ask (docs/design/operations.md#ready):
//! each brings the figures it reads on demand up to date (the database pool, the games in
//! progress, the gateway shards) and says whether it can serve now.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// What a part answers: ready, or what keeps it from serving, in words for the operator.
pub type Check<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>>;

/// A part of the bot the host watches through [`Figures::watch`](super::Figures::watch).
pub trait Watched: Send + Sync {
    /// Brings the figures this part reads on demand up to date and says whether it can serve.
    fn check(&self) -> Check<'_>;
}

/// The longest a part may take to answer: a scrape must answer well within Prometheus's
/// default 10 s timeout even when the database hangs.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(3);

/// Asks every part; ready when there is at least one (the bot is serving) and every one is.
/// `Err` lists what is wrong.
pub(super) async fn check_parts(parts: Vec<Arc<dyn Watched>>) -> Result<(), Vec<String>> {
    if parts.is_empty() {
        return Err(vec!["not serving yet: still starting (the database, then Discord)".to_string()]);
    }
    let mut wrong = Vec::new();
    for part in parts {
        match tokio::time::timeout(CHECK_TIMEOUT, part.check()).await {
            Ok(Ok(())) => {}
            Ok(Err(why)) => wrong.push(why),
            Err(_) => wrong.push(format!("no answer within {} s", CHECK_TIMEOUT.as_secs())),
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Figures;
    use super::*;

    struct Part(Result<(), &'static str>);

    impl Watched for Part {
        fn check(&self) -> Check<'_> {
            let answer = self.0.map_err(str::to_string);
            Box::pin(async move { answer })
        }
    }

    #[tokio::test]
    async fn ready_only_while_parts_are_watched_and_all_of_them_are_ready() {
        let figures = Figures::default();
        assert!(figures.check_all().await.is_err(), "nothing serves yet");
        let fine = Arc::new(Part(Ok(())));
        figures.watch(&fine);
        assert_eq!(figures.check_all().await, Ok(()));
        let broken = Arc::new(Part(Err("database: refused")));
        figures.watch(&broken);
        assert_eq!(figures.check_all().await, Err(vec!["database: refused".to_string()]));
        // A part that is gone is no longer asked; with none left, the bot is not serving.
        drop(broken);
        assert_eq!(figures.check_all().await, Ok(()));
        drop(fine);
        assert!(figures.check_all().await.is_err());
    }
}
