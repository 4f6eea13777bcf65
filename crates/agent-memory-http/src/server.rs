//! An accept loop for the router that idle clients cannot starve: a cap on open connections, a
//! header-read timeout and an idle timeout.
//!
//! `axum::serve` keeps every accepted connection open for as long as its client wants, so a few
//! hundred idle TCP connections exhaust the process's file descriptors and a legitimate request
//! waits forever. [`serve_with`] serves the same router over HTTP/1 with:
//!
//! - a **header-read timeout**: a request's head must arrive within it once its first byte
//!   came (hyper's own timer), else the connection is closed;
//! - an **idle timeout**: a connection with no request in flight and no byte read or written for
//!   that long is closed (a fresh connection that never sends a byte too);
//! - a **connection cap**: at the cap, a new connection closes the connection that has been idle
//!   longest; when every open connection has a request in flight the new one is closed at once.
//!   A legitimate client therefore always gets through while idle ones only hold places.
//!
//! At shutdown the listener stops, each connection finishes its request in flight and closes.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::response::Response;
use http_body_util::BodyExt as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt as _;

/// Limits of [`serve_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeOptions {
    /// Connections open at once; at the cap the longest-idle one is closed for a new one.
    pub max_connections: usize,
    /// How long a request's head may take once its first byte arrived.
    pub header_read_timeout: Duration,
    /// How long a connection may stay open with no request in flight and no byte moving.
    pub idle_timeout: Duration,
}

impl ServeOptions {
    /// The defaults: 1,024 connections, 10 s for a request head, 60 s idle.
    pub const DEFAULT: ServeOptions = ServeOptions {
        max_connections: 1024,
        header_read_timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(60),
    };
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions::DEFAULT
    }
}

/// What the accept loop knows about one open connection.
struct Tracked {
    /// Requests whose response body has not ended yet.
    in_flight: Arc<AtomicUsize>,
    /// Milliseconds since `epoch` of the last byte read or written, or request end.
    last_active: Arc<AtomicU64>,
    /// Closes the connection.
    close: watch::Sender<bool>,
}

struct Registry {
    epoch: Instant,
    next_id: u64,
    open: HashMap<u64, Tracked>,
}

impl Registry {
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Makes room for one more connection under `cap`: closes the longest-idle connection when
    /// at the cap. `false` when every connection has a request in flight.
    fn make_room(&mut self, cap: usize) -> bool {
        if self.open.len() < cap {
            return true;
        }
        let idle = self
            .open
            .iter()
            .filter(|(_, t)| t.in_flight.load(Ordering::Acquire) == 0)
            .min_by_key(|(_, t)| t.last_active.load(Ordering::Acquire))
            .map(|(id, _)| *id);
        match idle {
            Some(id) => {
                if let Some(tracked) = self.open.remove(&id) {
                    let _ = tracked.close.send(true);
                }
                true
            }
            None => false,
        }
    }
}

/// A socket that stamps the time of every byte it moves.
struct Stamped {
    stream: TcpStream,
    last_active: Arc<AtomicU64>,
    epoch: Instant,
}

impl Stamped {
    fn stamp(&self) {
        let now = u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_active.store(now, Ordering::Release);
    }
}

impl AsyncRead for Stamped {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.stamp();
        }
        polled
    }
}

impl AsyncWrite for Stamped {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.stamp();
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Counts a request in flight until its response body ends (or is dropped).
struct InFlight {
    in_flight: Arc<AtomicUsize>,
    last_active: Arc<AtomicU64>,
    epoch: Instant,
}

impl InFlight {
    fn start(in_flight: &Arc<AtomicUsize>, last_active: &Arc<AtomicU64>, epoch: Instant) -> Self {
        in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight {
            in_flight: in_flight.clone(),
            last_active: last_active.clone(),
            epoch,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let now = u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_active.store(now, Ordering::Release);
        self.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `router` on `listener` with `options` until `shutdown` completes; then stops
/// accepting and lets each connection finish the request it is serving.
pub async fn serve_with<F>(
    listener: TcpListener,
    router: Router,
    options: ServeOptions,
    shutdown: F,
) -> io::Result<()>
where
    F: Future<Output = ()> + Send,
{
    let cap = options.max_connections.max(1);
    let registry = Arc::new(Mutex::new(Registry {
        epoch: Instant::now(),
        next_id: 0,
        open: HashMap::new(),
    }));
    let (stopping, stop_rx) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(err) => {
                // Out of file descriptors, or a connection reset before it was accepted: wait
                // a little rather than spin, as hyper's and axum's loops do.
                tracing::warn!(target: "agent_memory_http", error = %err, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let (id, epoch, in_flight, last_active, close_rx) = {
            let mut registry = registry.lock().unwrap_or_else(|e| e.into_inner());
            if !registry.make_room(cap) {
                tracing::warn!(
                    target: "agent_memory_http",
                    max_connections = cap,
                    "connection refused: every connection has a request in flight"
                );
                drop(stream);
                continue;
            }
            let id = registry.next_id;
            registry.next_id += 1;
            let now = registry.now();
            let in_flight = Arc::new(AtomicUsize::new(0));
            let last_active = Arc::new(AtomicU64::new(now));
            let (close, close_rx) = watch::channel(false);
            registry.open.insert(
                id,
                Tracked {
                    in_flight: in_flight.clone(),
                    last_active: last_active.clone(),
                    close,
                },
            );
            (id, registry.epoch, in_flight, last_active, close_rx)
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Stamped {
            stream,
            last_active: last_active.clone(),
            epoch,
        });
        let router = router.clone();
        let service = {
            let in_flight = in_flight.clone();
            let last_active = last_active.clone();
            hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                let guard = InFlight::start(&in_flight, &last_active, epoch);
                let router = router.clone();
                async move {
                    let response: Response = router
                        .oneshot(request.map(Body::new))
                        .await
                        .unwrap_or_else(|never: Infallible| match never {});
                    // The guard lives as long as the body: a streamed answer is in flight.
                    let response = response.map(|body| {
                        Body::new(body.map_frame(move |frame| {
                            let _ = &guard;
                            frame
                        }))
                    });
                    Ok::<_, Infallible>(response)
                }
            })
        };
        let registry = registry.clone();
        let mut stop_rx = stop_rx.clone();
        let mut close_rx = close_rx;
        tasks.spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(options.header_read_timeout)
                .keep_alive(true);
            let connection = builder.serve_connection(io, service);
            tokio::pin!(connection);
            let idle = options.idle_timeout;
            let mut draining = false;
            loop {
                let since = {
                    let last = last_active.load(Ordering::Acquire);
                    let now = u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
                    Duration::from_millis(now.saturating_sub(last))
                };
                let busy = in_flight.load(Ordering::Acquire) > 0;
                if !busy && since >= idle {
                    break;
                }
                let wait = if busy { idle } else { idle - since };
                tokio::select! {
                    _ = connection.as_mut() => break,
                    () = tokio::time::sleep(wait) => {}
                    changed = close_rx.changed() => {
                        if changed.is_err() || *close_rx.borrow() {
                            break;
                        }
                    }
                    changed = stop_rx.changed(), if !draining => {
                        if changed.is_err() || *stop_rx.borrow() {
                            draining = true;
                            connection.as_mut().graceful_shutdown();
                        }
                    }
                }
            }
            registry
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .open
                .remove(&id);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    while tasks.join_next().await.is_some() {}
    Ok(())
}
