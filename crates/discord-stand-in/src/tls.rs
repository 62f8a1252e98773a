//! The stand-in's port speaks plain HTTP and TLS alike: a connection whose first byte opens a
//! TLS handshake is served over TLS, any other as it comes. The bot reaches the stand-in as
//! `https://discord.com` resolved to 127.0.0.1 (`DISCORD_API_BASE`), because serenity sends its
//! requests there whenever its rate limiter is on; the gateway and the stand-in's own tests keep
//! plain `http://` and `ws://`.
//!
//! The certificate (`tls/cert.pem`, for `discord.com`, self-signed, valid until 2126) and its key
//! are for this loopback only; the bot trusts it, and nothing else there, through
//! `DISCORD_API_CA` ([`super::StandIn::certificate`]).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{self, ServerConfig};
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

/// The stand-in's certificate, PEM (a client may trust it instead of not checking).
pub(super) const CERTIFICATE: &[u8] = include_bytes!("tls/cert.pem");
const KEY: &[u8] = include_bytes!("tls/key.pem");

/// The first byte of a TLS handshake record.
const HANDSHAKE: u8 = 0x16;

/// One accepted connection, plain or TLS.
pub(super) enum Io {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

/// The stand-in's listener for `axum::serve`: connections are accepted and their handshakes
/// made in tasks of their own, so that a slow or silent client holds up no other.
pub(super) struct Listener {
    ready: mpsc::Receiver<(Io, SocketAddr)>,
    address: SocketAddr,
}

impl Listener {
    /// Serves `listener`'s connections until the returned listener is dropped.
    pub(super) fn new(listener: TcpListener) -> Listener {
        let address = listener.local_addr().expect("stand-in: local_addr");
        let acceptor = TlsAcceptor::from(Arc::new(server_config()));
        let (tx, ready) = mpsc::channel(64);
        tokio::spawn(async move {
            loop {
                let (stream, peer) = tokio::select! {
                    accepted = listener.accept() => match accepted {
                        Ok(a) => a,
                        Err(e) => {
                            eprintln!("[stand-in] accept: {e}");
                            continue;
                        }
                    },
                    () = tx.closed() => return,
                };
                let (tx, acceptor) = (tx.clone(), acceptor.clone());
                tokio::spawn(async move {
                    let mut first = [0u8; 1];
                    let io = match stream.peek(&mut first).await {
                        Ok(1) if first[0] == HANDSHAKE => match acceptor.accept(stream).await {
                            Ok(tls) => Io::Tls(Box::new(tls)),
                            Err(e) => return eprintln!("[stand-in] TLS handshake with {peer}: {e}"),
                        },
                        Ok(_) => Io::Plain(stream),
                        Err(_) => return,
                    };
                    let _ = tx.send((io, peer)).await;
                });
            }
        });
        Listener { ready, address }
    }
}

impl axum::serve::Listener for Listener {
    type Io = Io;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Io, SocketAddr) {
        match self.ready.recv().await {
            Some(accepted) => accepted,
            // The accepting task ended: nothing more will come.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.address)
    }
}

fn server_config() -> ServerConfig {
    let certificates: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(CERTIFICATE).collect::<Result<_, _>>().expect("stand-in: tls/cert.pem");
    let key = PrivateKeyDer::from_pem_slice(KEY).expect("stand-in: tls/key.pem");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("stand-in: TLS versions")
        .with_no_client_auth()
        .with_single_cert(certificates, key)
        .expect("stand-in: TLS certificate");
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    config
}

impl AsyncRead for Io {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Io {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Io::Plain(s) => s.is_write_vectored(),
            Io::Tls(s) => s.is_write_vectored(),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_flush(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}
