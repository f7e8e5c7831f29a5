//! A per-client rate limit (saves, usage uploads): at most `max` in any `window`, counted per client address.
//! Its memory is bounded: it remembers at most [`MAX_CLIENTS`] clients; when a new client comes
//! and every slot holds a live window, the client whose window started first is forgotten.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most clients remembered at once (about 1 MB).
pub const MAX_CLIENTS: usize = 10_000;

/// Fixed-window counters per client.
#[derive(Debug)]
pub struct RateLimit {
    max: u32,
    window: Duration,
    capacity: usize,
    seen: Mutex<HashMap<String, (Instant, u32)>>,
}

impl RateLimit {
    /// At most `max` requests per `window` per client.
    pub fn new(max: u32, window: Duration) -> Self {
        Self::with_capacity(max, window, MAX_CLIENTS)
    }

    /// The same, remembering at most `capacity` clients.
    pub fn with_capacity(max: u32, window: Duration, capacity: usize) -> Self {
        Self {
            max,
            window,
            capacity: capacity.max(1),
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a request from `client`; false when it is over the limit.
    pub fn allow(&self, client: &str) -> bool {
        self.check(client).is_ok()
    }

    /// Counts a request from `client`; when it is over the limit, how long until its window
    /// ends (what a 429's `Retry-After` says), at least a second.
    pub fn check(&self, client: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let mut seen = match self.seen.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if !seen.contains_key(client) && seen.len() >= self.capacity {
            seen.retain(|_, (start, _)| now.duration_since(*start) < self.window);
            if seen.len() >= self.capacity {
                let oldest = seen
                    .iter()
                    .min_by_key(|(_, (start, _))| *start)
                    .map(|(k, _)| k.clone());
                if let Some(k) = oldest {
                    seen.remove(&k);
                }
            }
        }
        let entry = seen.entry(client.to_owned()).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
        if entry.1 <= self.max {
            Ok(())
        } else {
            let left = self.window.saturating_sub(now.duration_since(entry.0));
            Err(left.max(Duration::from_secs(1)))
        }
    }

    /// Clients remembered now.
    pub fn clients(&self) -> usize {
        match self.seen.lock() {
            Ok(g) => g.len(),
            Err(poisoned) => poisoned.into_inner().len(),
        }
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
        let wait = limit.check("a").expect_err("over the limit");
        assert!(
            wait > Duration::from_secs(58) && wait <= Duration::from_secs(60),
            "{wait:?}"
        );
    }

    #[test]
    fn rate_limit_memory_is_bounded() {
        let capacity = 500;
        let limit = RateLimit::with_capacity(2, Duration::from_secs(60), capacity);
        for i in 0..capacity * 3 {
            assert!(limit.allow(&format!("client-{i}")));
        }
        assert_eq!(limit.clients(), capacity);
        // The newest clients are still counted.
        let last = format!("client-{}", capacity * 3 - 1);
        assert!(limit.allow(&last));
        assert!(!limit.allow(&last));
    }
}
