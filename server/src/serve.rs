//! The accept loop: HTTP/1.1 connections with a header-read timeout (which also ends idle
//! keep-alive connections) and a connection limit that cannot be filled by idle clients.
//!
//! axum's own `serve` has neither: a few thousand connections that never send a request used to
//! exhaust the process's file descriptors, and `/healthz` stopped answering. Here, when the limit
//! is reached, the oldest connection that is not serving a request is closed to make room; a new
//! connection is refused only when every slot is serving a request.

mod refusals;

pub use refusals::{replacement, Answered};

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};
use tower::ServiceExt;

/// Limits of the accept loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Most open connections.
    pub max_connections: usize,
    /// Longest wait for a request's headers, from the moment a connection is ready for its
    /// next request: idle keep-alive connections and half-sent headers are closed after it.
    pub header_read_timeout: Duration,
    /// Longest wait, on shutdown, for the requests in flight.
    pub drain: Duration,
}

/// Default connection limit: far below the usual 20,000 file descriptors a process gets here,
/// well above what a 2-core machine serves at once.
pub const MAX_CONNECTIONS: usize = 4_096;
/// Most headers the HTTP parser reads: twice the documented [`crate::HEADER_COUNT_LIMIT`], so
/// that a request between the two gets the application's JSON refusal naming the limit.
pub const PARSER_MAX_HEADERS: usize = 2 * crate::HEADER_COUNT_LIMIT;
/// Default header-read (and keep-alive idle) timeout.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_connections: MAX_CONNECTIONS,
            header_read_timeout: HEADER_READ_TIMEOUT,
            drain: Duration::from_secs(10),
        }
    }
}

/// One open connection, as the registry sees it.
struct Slot {
    /// Requests it is serving now.
    busy: Arc<AtomicUsize>,
    /// Told when the connection must close to make room.
    evict: Arc<Notify>,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Registry {
    next: u64,
    open: BTreeMap<u64, Slot>,
}

impl Registry {
    /// A slot for one more connection under `max`: its id, its count of requests in flight and
    /// the notice that evicts it (`None` when every slot is busy).
    fn admit(&mut self, max: usize) -> Option<(u64, Arc<AtomicUsize>, Arc<Notify>)> {
        if !self.make_room(max) {
            return None;
        }
        let id = self.next;
        self.next += 1;
        let busy = Arc::new(AtomicUsize::new(0));
        let evict = Arc::new(Notify::new());
        self.open.insert(
            id,
            Slot {
                busy: busy.clone(),
                evict: evict.clone(),
            },
        );
        Some((id, busy, evict))
    }

    /// Makes room for one more connection under `max`: true when there is room (closing the
    /// oldest idle connection if need be), false when every slot is busy.
    fn make_room(&mut self, max: usize) -> bool {
        if self.open.len() < max {
            return true;
        }
        let idle = self
            .open
            .iter()
            .find(|(_, s)| s.busy.load(Ordering::Acquire) == 0)
            .map(|(id, _)| *id);
        match idle.and_then(|id| self.open.remove(&id)) {
            Some(slot) => {
                slot.evict.notify_one();
                true
            }
            None => false,
        }
    }
}

fn lock(registry: &Mutex<Registry>) -> std::sync::MutexGuard<'_, Registry> {
    match registry.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the requests in flight
/// finish (for at most `limits.drain`). Each request carries `ConnectInfo<SocketAddr>`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send,
) {
    let registry = Arc::new(Mutex::new(Registry::default()));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        // Above the documented limit, which the application refuses in JSON.
        .max_headers(PARSER_MAX_HEADERS)
        .keep_alive(true);
    let open = Arc::new(AtomicUsize::new(0));
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, or the peer gave up before the accept: wait a
                    // little rather than spin, as hyper's and axum's loops do.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some((id, busy, evict)) = lock(&registry).admit(limits.max_connections) else {
            tracing::warn!(%peer, "connection limit reached with every connection busy");
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let counter = busy.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            counter.fetch_add(1, Ordering::AcqRel);
            let done = counter.clone();
            let call = app.clone().oneshot(req.map(axum::body::Body::new));
            async move {
                let res = call.await;
                done.fetch_sub(1, Ordering::AcqRel);
                res
            }
        });
        let conn = http.serve_connection(TokioIo::new(Answered::new(stream)), service);
        let registry = registry.clone();
        let mut stop = stop_rx.clone();
        let open = open.clone();
        open.fetch_add(1, Ordering::AcqRel);
        tokio::spawn(async move {
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = evict.notified() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.as_mut().await;
                }
            }
            lock(&registry).open.remove(&id);
            drop(busy);
            open.fetch_sub(1, Ordering::AcqRel);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    let deadline = tokio::time::Instant::now() + limits.drain;
    while open.load(Ordering::Acquire) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(busy: usize) -> Slot {
        Slot {
            busy: Arc::new(AtomicUsize::new(busy)),
            evict: Arc::new(Notify::new()),
        }
    }

    #[test]
    fn a_full_registry_closes_its_oldest_idle_connection() {
        let mut reg = Registry::default();
        reg.open.insert(0, slot(1));
        reg.open.insert(1, slot(0));
        reg.open.insert(2, slot(0));
        assert!(reg.make_room(3));
        assert_eq!(reg.open.keys().copied().collect::<Vec<_>>(), [0, 2]);
        assert!(reg.make_room(3), "room below the limit");
    }

    #[test]
    fn a_registry_of_busy_connections_refuses() {
        let mut reg = Registry::default();
        reg.open.insert(0, slot(1));
        reg.open.insert(1, slot(2));
        assert!(!reg.make_room(2));
        assert_eq!(reg.open.len(), 2);
    }
}
