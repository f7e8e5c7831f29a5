//! A per-client rate limit for saves: at most `max` in any `window`, counted per client address.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Fixed-window counters per client.
#[derive(Debug)]
pub struct RateLimit {
    max: u32,
    window: Duration,
    seen: Mutex<HashMap<String, (Instant, u32)>>,
}

impl RateLimit {
    /// At most `max` requests per `window` per client.
    pub fn new(max: u32, window: Duration) -> Self {
        Self {
            max,
            window,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a request from `client`; false when it is over the limit.
    pub fn allow(&self, client: &str) -> bool {
        let now = Instant::now();
        let mut seen = match self.seen.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if seen.len() > 10_000 {
            seen.retain(|_, (start, _)| now.duration_since(*start) < self.window);
        }
        let entry = seen.entry(client.to_owned()).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        entry.1 += 1;
        entry.1 <= self.max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_client() {
        let limit = RateLimit::new(2, Duration::from_secs(60));
        assert!(limit.allow("a") && limit.allow("a"));
        assert!(!limit.allow("a"));
        assert!(limit.allow("b"));
    }
}
