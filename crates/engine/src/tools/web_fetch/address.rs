//! Where a URL's host points: loopback, private and link-local addresses are told apart from public ones, so that a
//! fetch of the person's own machine or network is never made without their explicit approval.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The kind of non-public address `ip` is, or `None` for a public one.
pub fn private_kind(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_kind(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return v4_kind(v4);
            }
            let first = v6.segments()[0];
            if v6.is_loopback() {
                Some("loopback")
            } else if v6.is_unspecified() {
                Some("unspecified")
            } else if first & 0xfe00 == 0xfc00 {
                Some("private")
            } else if first & 0xffc0 == 0xfe80 {
                Some("link-local")
            } else {
                None
            }
        }
    }
}

fn v4_kind(v4: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = v4.octets();
    if v4.is_loopback() {
        Some("loopback")
    } else if v4.is_unspecified() {
        Some("unspecified")
    } else if v4.is_private() {
        Some("private")
    } else if v4.is_link_local() {
        Some("link-local")
    } else if a == 100 && (64..128).contains(&b) {
        Some("shared (carrier-grade NAT)")
    } else {
        None
    }
}

/// Whether `host` (lower case, IPv6 without brackets) names this machine without a lookup.
pub fn is_loopback_name(host: &str) -> bool {
    host == "localhost"
        || host.ends_with(".localhost")
        || literal(host).is_some_and(|ip| ip.is_loopback())
}

/// The address a host written as an IP literal stands for.
pub fn literal(host: &str) -> Option<IpAddr> {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()
}

/// The first non-public address among `addrs`, described (`127.0.0.1 (loopback)`), if any.
pub fn first_private(addrs: &[SocketAddr]) -> Option<String> {
    addrs
        .iter()
        .find_map(|a| private_kind(a.ip()).map(|kind| format!("{} ({kind})", a.ip())))
}

/// What can be told about `host` without a lookup: its address if it is a literal or a name of this machine.
pub fn known_private(host: &str) -> Option<String> {
    if host == "localhost" || host.ends_with(".localhost") {
        return Some(format!("{host} (loopback)"));
    }
    let ip = literal(host)?;
    private_kind(ip).map(|kind| format!("{ip} ({kind})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_loopback_and_link_local_addresses_are_told_apart_from_public_ones() {
        let kind = |s: &str| private_kind(s.parse().expect("an address"));
        for (ip, want) in [
            ("127.0.0.1", Some("loopback")),
            ("127.8.9.10", Some("loopback")),
            ("10.1.2.3", Some("private")),
            ("172.16.0.1", Some("private")),
            ("172.31.255.255", Some("private")),
            ("192.168.1.1", Some("private")),
            ("169.254.169.254", Some("link-local")),
            ("100.64.0.1", Some("shared (carrier-grade NAT)")),
            ("0.0.0.0", Some("unspecified")),
            ("::1", Some("loopback")),
            ("fd00::1", Some("private")),
            ("fe80::1", Some("link-local")),
            ("::ffff:10.0.0.1", Some("private")),
            ("172.32.0.1", None),
            ("8.8.8.8", None),
            ("100.128.0.1", None),
            ("2606:4700::1111", None),
        ] {
            assert_eq!(kind(ip), want, "{ip}");
        }
    }

    #[test]
    fn names_of_this_machine_and_literals_are_known_without_a_lookup() {
        assert!(is_loopback_name("localhost") && is_loopback_name("app.localhost"));
        assert!(is_loopback_name("127.0.0.1") && is_loopback_name("[::1]"));
        assert!(!is_loopback_name("example.com") && !is_loopback_name("10.0.0.1"));
        assert_eq!(known_private("[::1]").as_deref(), Some("::1 (loopback)"));
        assert_eq!(
            known_private("192.168.0.9").as_deref(),
            Some("192.168.0.9 (private)")
        );
        assert_eq!(known_private("example.com"), None);
        assert_eq!(known_private("1.1.1.1"), None);
    }
}
