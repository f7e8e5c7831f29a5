//! Every request but `/healthz` is computed on a runtime of its own, under a deadline that is
//! really kept.
//!
//! A timeout layer on the serving runtime only acts at an `.await`: CPU-bound work that never
//! yields (a chart's tick loop on a degenerate range once did) kept its worker thread, two such
//! requests took both, and `/healthz` went unanswered until the process was killed. Here the
//! serving runtime only accepts connections, parses HTTP and waits; pages and API answers run on
//! the work runtime, and the deadline is kept by the serving runtime, which stays free. Inputs
//! are bounded so that no request should come near the deadline (see SECURITY.md); this is the
//! guarantee that holds if one ever does. `/healthz` also asks the work runtime for a trivial
//! task, so a server whose work runtime is stuck reports itself unhealthy instead of "ok".

use std::sync::OnceLock;
use std::time::Duration;

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::runtime::{Handle, Runtime};

use crate::api::ApiError;

/// Largest answer read to its end on the work runtime: the largest file of the built site (the
/// uncompressed WASM bundle, 1.3 MB) many times over.
const LARGEST_BODY: usize = 64 * 1024 * 1024;

/// The machine's cores (1 when it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Worker threads of the work runtime: one a core, where pages and answers are computed.
fn workers() -> usize {
    cores()
}

/// Worker threads of the serving runtime, which only accepts connections, moves bytes, parses
/// HTTP and waits (pages and answers are rendered, hashed and compressed on the work runtime):
/// one for every eight cores, at least one. More threads than cores, all busy
/// at once, cost more than they serve: with one serving thread beside two work threads on two
/// cores, the server answered 7,300 embeds a second instead of 5,100 with two (wrk, 64
/// connections), and `/healthz` the same 24,000.
pub fn serving_threads() -> usize {
    (cores() / 8).max(1)
}

/// The work runtime, made on first use and kept for the life of the process (a runtime may not
/// be dropped from inside another, as tests would).
pub fn runtime() -> &'static Handle {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(workers())
                .thread_name("servecost-work")
                .enable_all()
                .build()
                .unwrap_or_else(|e| {
                    // Without a second runtime the server cannot keep its promise; it is a
                    // start-up failure of the machine, not of any input.
                    tracing::error!(error = %e, "cannot start the work runtime");
                    std::process::abort()
                })
        })
        .handle()
}

/// Runs `next` on the work runtime within `deadline`: a 503 with a JSON body when the deadline
/// passes (the client may retry), the response otherwise.
pub async fn offload(
    axum::extract::State(deadline): axum::extract::State<Duration>,
    req: Request,
    next: Next,
) -> Response {
    if req.uri().path() == "/healthz" {
        return next.run(req).await;
    }
    let path = req.uri().path().to_owned();
    // The answer's body is read to its end here, on the work runtime: a compressed page is
    // compressed as it is read, and the serving runtime, which writes it, would otherwise do
    // that work. Every answer is held whole in memory before it is sent; the largest (the
    // WASM bundle) is 1.3 MB, far under `LARGEST_BODY`.
    let task = runtime().spawn(async move {
        let (parts, body) = next.run(req).await.into_parts();
        match axum::body::to_bytes(body, LARGEST_BODY).await {
            Ok(bytes) => Response::from_parts(parts, axum::body::Body::from(bytes)),
            Err(e) => ApiError::Internal(format!("the answer could not be read to its end: {e}"))
                .into_response(),
        }
    });
    // A client that goes away drops this future: the guard stops the task with it (a dropped
    // JoinHandle alone would let it run on, unbounded by any deadline).
    let abort = AbortOnDrop(task.abort_handle());
    match tokio::time::timeout(deadline, task).await {
        Ok(Ok(response)) => response,
        Ok(Err(e)) => {
            ApiError::Internal(format!("request task for {path} failed: {e}")).into_response()
        }
        Err(_) => {
            // Stops the task at its next `.await`; CPU-bound work runs on, but on the work
            // runtime only.
            abort.0.abort();
            tracing::warn!(%path, ?deadline, "request over its deadline");
            let mut res = ApiError::Unavailable(format!(
                "the answer took longer than {} s; try again",
                deadline.as_secs()
            ))
            .into_response();
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            res
        }
    }
}

/// Aborts its task when dropped.
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Whether the work runtime runs a trivial task within `within`.
pub async fn responsive(within: Duration) -> bool {
    matches!(
        tokio::time::timeout(within, runtime().spawn(async {})).await,
        Ok(Ok(()))
    )
}

/// The status `/healthz` gives when the work runtime is stuck.
pub const STUCK: (StatusCode, &str) = (
    StatusCode::SERVICE_UNAVAILABLE,
    "work runtime not responding",
);
