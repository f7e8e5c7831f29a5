//! The HTTP parser's own refusals, in JSON.
//!
//! hyper answers a request it cannot read by itself, before the router sees it: 414 for a
//! request target over 65,534 bytes (a limit it does not let a server raise), 431 for headers
//! over its buffer or its header count, 400 for bytes that are not HTTP. Those answers have an
//! empty body, where every other refusal of servecost is the documented JSON error. The
//! parser's limits are set above the documented ones ([`crate::HEADER_COUNT_LIMIT`],
//! [`crate::HEADER_BYTES_LIMIT`], [`crate::QUERY_LIMIT`]), which the application refuses in
//! JSON; what passes even the parser's limits is answered here: [`Answered`] wraps the
//! connection and replaces the parser's empty answer by the same answer with the JSON body.
//!
//! The parser's answer is recognised by what only it writes: a `400`, `414` or `431` head with
//! `content-length: 0` and nothing after it. Every refusal of the application has a body.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use servecost::Problem;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::api::ErrorBody;

/// A connection whose parser refusals are answered in JSON.
pub struct Answered<T> {
    inner: T,
    /// A replacement answer still to be written, and how much of it is written.
    pending: Vec<u8>,
    written: usize,
}

impl<T> Answered<T> {
    /// Wraps `inner`.
    pub fn new(inner: T) -> Self {
        Self {
            inner,
            pending: Vec::new(),
            written: 0,
        }
    }
}

/// The JSON answer replacing the parser's empty answer `head`, if it is one.
pub fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let status = head.strip_prefix(b"HTTP/1.1 ")?.get(..3)?;
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    if end + 4 != head.len() {
        return None;
    }
    // The parser's answer has `connection: close`, `content-length: 0` and a date, and nothing
    // else; every answer of the application carries its security headers besides.
    let lower = head[..end].to_ascii_lowercase();
    let mut lines = lower.split(|b| *b == b'\n').skip(1);
    let only_its_own = lines.all(|line| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        line == b"content-length: 0" || line == b"connection: close" || line.starts_with(b"date: ")
    });
    if !only_its_own || !lower.windows(19).any(|w| w == b"\r\ncontent-length: 0") {
        return None;
    }
    let number = |n: usize| servecost::format::exact(n as f64, false);
    let (line, error, problem) = match status {
        b"414" => (
            "414 URI Too Long",
            "request target too long",
            Problem::new(
                "query",
                "…",
                format!(
                    "the request target (path and query) must be under {} bytes, and a query \
                     string at most {} bytes; a full scenario takes under 4,096",
                    number(usize::from(u16::MAX)),
                    number(crate::QUERY_LIMIT)
                ),
            ),
        ),
        b"431" => (
            "431 Request Header Fields Too Large",
            "request headers too large",
            Problem::new(
                "headers",
                "…",
                format!(
                    "a request may carry at most {} headers, of at most {} bytes in all",
                    number(crate::HEADER_COUNT_LIMIT),
                    number(crate::HEADER_BYTES_LIMIT)
                ),
            ),
        ),
        b"400" => (
            "400 Bad Request",
            "not an HTTP/1.1 request",
            Problem::new(
                "request",
                "…",
                "the request line or a header cannot be read as HTTP/1.1",
            ),
        ),
        _ => return None,
    };
    let body = ErrorBody::bytes(error, problem);
    let mut out = format!(
        "HTTP/1.1 {line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    Some(out)
}

impl<T: AsyncWrite + Unpin> Answered<T> {
    /// Writes what is pending; ready when nothing is.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let n =
                ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Answered<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Answered<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        // Only an answer that is a head and nothing else can be the parser's.
        if buf.len() < 512 {
            if let Some(answer) = replacement(buf) {
                self.pending = answer;
                // Taken whole: the replacement is written now or on the next flush.
                let _ = self.drain(cx)?;
                return Poll::Ready(Ok(buf.len()));
            }
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        let mut parts = bufs.iter().filter(|b| !b.is_empty());
        if let (Some(only), None) = (parts.next(), parts.next()) {
            if only.len() < 512 {
                if let Some(answer) = replacement(only) {
                    self.pending = answer;
                    let _ = self.drain(cx)?;
                    return Poll::Ready(Ok(only.len()));
                }
            }
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::replacement;

    #[test]
    fn the_parsers_empty_answers_are_replaced_by_json() {
        for (status, word) in [
            ("414 URI Too Long", "query"),
            ("431 Request Header Fields Too Large", "headers"),
            ("400 Bad Request", "request"),
        ] {
            // As hyper 1.x writes it.
            let head = format!(
                "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\ndate: Fri, 04 Dec 2026 17:00:00 GMT\r\n\r\n"
            );
            let out = replacement(head.as_bytes()).expect("replaced");
            let text = String::from_utf8(out).expect("utf-8");
            let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
            assert!(
                head.starts_with(&format!("HTTP/1.1 {status}\r\n")),
                "{head}"
            );
            let v: serde_json::Value = serde_json::from_str(body).expect("JSON");
            assert_eq!(v["problems"][0]["param"], word);
            assert!(head.contains(&format!("content-length: {}", body.len())));
        }
    }

    #[test]
    fn answers_with_a_body_or_another_status_pass_unchanged() {
        let with_body = "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n";
        assert!(replacement(with_body.as_bytes()).is_none());
        let with_bytes_after = "HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n\r\nx";
        assert!(replacement(with_bytes_after.as_bytes()).is_none());
        let ok = "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        let app = "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nx-frame-options: DENY\r\ndate: x\r\n\r\n";
        assert!(
            replacement(app.as_bytes()).is_none(),
            "an application's answer is its own"
        );
        assert!(replacement(ok.as_bytes()).is_none());
        let not_modified = "HTTP/1.1 304 Not Modified\r\n\r\n";
        assert!(replacement(not_modified.as_bytes()).is_none());
    }
}
