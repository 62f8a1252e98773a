//! The bot as its host's scrapes and readiness checks see it (docs/design/operations.md#ready):
//! the service's figures and database, and the way Discord reaches this process: every gateway
//! shard it runs connected, or the interactions endpoint listening.

use std::sync::{Arc, OnceLock, Weak};

use serenity::all::{ShardId, ShardManager};
use serenity::gateway::ConnectionStage;

use super::shards::ShardRange;
use crate::metrics::{Check, Watched};
use crate::service::Service;

/// One front end of the bot, watched while it lives (the handler or the endpoint holds it).
pub(super) struct Front {
    service: Service,
    reached: Reached,
}

/// How Discord reaches this process.
enum Reached {
    /// Over the gateway: these shards, once the client has a manager for them (held weakly:
    /// the manager holds the handler, which holds this).
    Gateway { shards: Vec<u32>, manager: OnceLock<Weak<ShardManager>> },
    /// Over HTTP: the endpoint listens once it is watched.
    Http,
}

impl Front {
    /// The gateway front end running `shards` (`None`: one process, one shard).
    pub(super) fn gateway(service: Service, shards: Option<ShardRange>) -> Arc<Front> {
        let shards = shards.map_or_else(|| vec![0], |r| (r.first..=r.last).collect());
        Arc::new(Front { service, reached: Reached::Gateway { shards, manager: OnceLock::new() } })
    }

    /// The HTTP interactions endpoint.
    pub(super) fn http(service: Service) -> Arc<Front> {
        Arc::new(Front { service, reached: Reached::Http })
    }

    /// Tells the gateway front end the client's shard manager, and starts being watched.
    pub(super) fn serve_through(self: &Arc<Front>, manager: &Arc<ShardManager>) {
        if let Reached::Gateway { manager: slot, .. } = &self.reached {
            let _ = slot.set(Arc::downgrade(manager));
        }
        self.service.figures().watch(self);
    }

    /// Starts being watched (the HTTP endpoint, once it listens).
    pub(super) fn listening(self: &Arc<Front>) {
        self.service.figures().watch(self);
    }

    /// Each shard's stage and latency into the figures; whether all of them are connected.
    async fn shards(&self, shards: &[u32], manager: &OnceLock<Weak<ShardManager>>) -> Result<(), String> {
        let Some(manager) = manager.get().and_then(Weak::upgrade) else {
            return Err("the gateway: not started".to_string());
        };
        let runners = manager.runners.lock().await;
        let mut down = Vec::new();
        for &shard in shards {
            let info = runners.get(&ShardId(shard));
            let connected = info.is_some_and(|i| i.stage == ConnectionStage::Connected);
            self.service.figures().set_shard(shard, connected, info.and_then(|i| i.latency));
            if !connected {
                let stage = info.map_or_else(|| "not started".to_string(), |i| i.stage.to_string());
                down.push(format!("shard {shard} {stage}"));
            }
        }
        if down.is_empty() {
            Ok(())
        } else {
            Err(format!("the gateway: {}", down.join(", ")))
        }
    }
}

impl Watched for Front {
    fn check(&self) -> Check<'_> {
        Box::pin(async move {
            let database = self.service.check().await;
            let discord = match &self.reached {
                Reached::Gateway { shards, manager } => self.shards(shards, manager).await,
                Reached::Http => Ok(()),
            };
            match (database, discord) {
                (Ok(()), Ok(())) => Ok(()),
                (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
                (Err(a), Err(b)) => Err(format!("{a}; {b}")),
            }
        })
    }
}
