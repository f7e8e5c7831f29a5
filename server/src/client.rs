//! Who a request comes from, for rate limits: the socket's peer address, or the address a
//! trusted proxy says it forwarded for (`X-Forwarded-For`), never a header any client can set.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// An address range: an address and the number of leading bits that must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    bits: u8,
}

impl Cidr {
    /// Reads `10.0.0.0/8`, `::1`, `192.168.1.7` (a bare address is a range of one).
    pub fn parse(text: &str) -> Option<Self> {
        let (addr, bits) = match text.split_once('/') {
            Some((a, b)) => (a.parse::<IpAddr>().ok()?, Some(b.parse::<u8>().ok()?)),
            None => (text.parse::<IpAddr>().ok()?, None),
        };
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let bits = bits.unwrap_or(max);
        if bits > max {
            return None;
        }
        // `::ffff:10.0.0.0/104` is the IPv4 range 10.0.0.0/8.
        match (addr, normal(addr)) {
            (IpAddr::V6(_), v4 @ IpAddr::V4(_)) if bits >= 96 => Some(Self {
                addr: v4,
                bits: bits - 96,
            }),
            _ => Some(Self { addr, bits }),
        }
    }

    /// Whether `ip` is in the range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        // IPv4 addresses sit in the top 32 bits, so one mask serves both families.
        let (a, b) = match (normal(self.addr), normal(ip)) {
            (IpAddr::V4(a), IpAddr::V4(b)) => (
                u128::from(u32::from(a)) << 96,
                u128::from(u32::from(b)) << 96,
            ),
            (IpAddr::V6(a), IpAddr::V6(b)) => (u128::from(a), u128::from(b)),
            _ => return false,
        };
        if self.bits == 0 {
            return true;
        }
        let mask = u128::MAX << (128 - u32::from(self.bits));
        a & mask == b & mask
    }
}

/// IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) as the IPv4 address they stand for.
fn normal(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Reads `SERVECOST_TRUSTED_PROXIES`: addresses or ranges separated by commas or spaces.
pub fn parse_list(list: &str) -> Result<Vec<Cidr>, String> {
    list.split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            Cidr::parse(s).ok_or_else(|| {
                format!("{s:?} is not an IP address or range such as 10.0.0.0/8 or ::1")
            })
        })
        .collect()
}

/// The client a request is counted against: the peer address, unless the peer is a trusted
/// proxy, in which case the last address in `X-Forwarded-For` that is not itself a trusted proxy
/// (proxies append, so earlier entries are whatever the client wrote). IPv6 clients count by
/// their /64 network, since one host can hold a whole /64.
pub fn key(peer: Option<SocketAddr>, headers: &HeaderMap, trusted: &[Cidr]) -> String {
    let Some(peer) = peer.map(|p| normal(p.ip())) else {
        return "unknown".to_owned();
    };
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    let mut client = peer;
    if is_trusted(peer) {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect::<Vec<_>>();
        let entries = forwarded
            .iter()
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        // From the right: entries appended by trusted proxies, then the first one that is not a
        // trusted proxy is the client. An entry that is not an address (`ip:port` is read as its
        // address) ends the walk as an opaque key: walking past it would reach text the client
        // wrote itself.
        for entry in entries.into_iter().rev() {
            let ip = entry
                .parse::<IpAddr>()
                .ok()
                .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
                .map(normal);
            match ip {
                Some(ip) => {
                    client = ip;
                    if !is_trusted(ip) {
                        break;
                    }
                }
                None => return format!("forwarded:{}", entry.chars().take(64).collect::<String>()),
            }
        }
    }
    match client {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(xff: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", xff.parse().expect("header"));
        h
    }

    fn peer(ip: &str) -> Option<SocketAddr> {
        Some(SocketAddr::new(ip.parse().expect("ip"), 4000))
    }

    #[test]
    fn ranges() {
        let net = Cidr::parse("10.0.0.0/8").expect("cidr");
        assert!(net.contains("10.200.3.4".parse().expect("ip")));
        assert!(!net.contains("11.0.0.1".parse().expect("ip")));
        assert!(net.contains("::ffff:10.1.1.1".parse().expect("ip")));
        let one = Cidr::parse("::1").expect("cidr");
        assert!(one.contains("::1".parse().expect("ip")));
        assert!(!one.contains("::2".parse().expect("ip")));
        assert!(Cidr::parse("0.0.0.0/0")
            .expect("all")
            .contains("8.8.8.8".parse().expect("ip")));
        assert_eq!(Cidr::parse("10.0.0.0/33"), None);
        assert_eq!(Cidr::parse("example.com"), None);
        assert!(parse_list("127.0.0.1, 10.0.0.0/8 ::1").is_ok());
        assert!(parse_list("127.0.0.1,nope").is_err());
    }

    #[test]
    fn forwarded_for_counts_only_behind_a_trusted_proxy() {
        let none: Vec<Cidr> = Vec::new();
        assert_eq!(
            key(peer("203.0.113.9"), &headers("1.2.3.4"), &none),
            "203.0.113.9"
        );
        let proxies = parse_list("10.0.0.0/8").expect("list");
        assert_eq!(
            key(peer("203.0.113.9"), &headers("1.2.3.4"), &proxies),
            "203.0.113.9",
            "an untrusted peer's header is ignored"
        );
        assert_eq!(
            key(
                peer("10.0.0.2"),
                &headers("1.2.3.4, 198.51.100.7, 10.0.0.3"),
                &proxies
            ),
            "198.51.100.7",
            "the last untrusted hop, not what the client wrote first"
        );
        assert_eq!(
            key(peer("2001:db8:1:2::5"), &HeaderMap::new(), &none),
            "2001:db8:1:2::/64"
        );
        // A proxy that appends ip:port; an entry that is no address stops the walk.
        assert_eq!(
            key(
                peer("10.0.0.2"),
                &headers("6.6.6.6, 198.51.100.7:4431"),
                &proxies
            ),
            "198.51.100.7"
        );
        assert_eq!(
            key(peer("10.0.0.2"), &headers("6.6.6.6, unknown"), &proxies),
            "forwarded:unknown"
        );
        let mapped = Cidr::parse("::ffff:10.0.0.0/104").expect("mapped range");
        assert!(mapped.contains("10.9.9.9".parse().expect("ip")));
    }
}
