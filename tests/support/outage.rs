//! A TCP relay in front of Postgres that a test can cut and restore: while cut, every open
//! connection is closed and new ones are refused, which is what the bot sees of a stopped
//! database server (without stopping the cluster the other tests share).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use tokio::io::copy_bidirectional;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The relay; dropping it stops it.
pub struct Relay {
    addr: SocketAddr,
    up: Arc<AtomicBool>,
    epoch: watch::Sender<u64>,
    connections: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl Relay {
    /// Relays a local port to `upstream` (e.g. "127.0.0.1:5432").
    pub async fn start(upstream: &str) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a local port");
        let addr = listener.local_addr().unwrap();
        let up = Arc::new(AtomicBool::new(true));
        let (epoch, _) = watch::channel(0u64);
        let connections = Arc::new(AtomicU64::new(0));
        let upstream = upstream.to_string();
        let task = {
            let (up, epoch, connections) = (up.clone(), epoch.clone(), connections.clone());
            tokio::spawn(async move {
                loop {
                    let Ok((mut client, _)) = listener.accept().await else { return };
                    if !up.load(Ordering::SeqCst) {
                        drop(client); // refused: closed at once
                        continue;
                    }
                    connections.fetch_add(1, Ordering::SeqCst);
                    let mut cut = epoch.subscribe();
                    let upstream = upstream.clone();
                    tokio::spawn(async move {
                        let Ok(mut server) = TcpStream::connect(&upstream).await else { return };
                        tokio::select! {
                            _ = copy_bidirectional(&mut client, &mut server) => {}
                            _ = cut.changed() => {} // both ends dropped: the link is gone
                        }
                    });
                }
            })
        };
        Relay { addr, up, epoch, connections, task }
    }

    /// A Postgres URL like `url` that goes through the relay.
    pub fn url_through(&self, url: &str) -> String {
        let (scheme, rest) = url.split_once("://").expect("a URL");
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let user = authority.rsplit_once('@').map(|(u, _)| format!("{u}@")).unwrap_or_default();
        format!("{scheme}://{user}{}/{path}", self.addr)
    }

    /// The database goes away: open connections are closed, new ones refused.
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        self.epoch.send_modify(|e| *e += 1);
    }

    /// The database is back.
    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }

    /// Connections relayed so far.
    pub fn connections(&self) -> u64 {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.cut();
        self.task.abort();
    }
}
