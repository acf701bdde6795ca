//! WebFetch host rules: `domain:example.com`, `domain:*.example.com` (subdomains at any depth, not the apex),
//! `*` elsewhere as one dot-free label, `domain:*` for every host.

/// The host of a URL, lower case, without port, user info or trailing dot.
pub fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or(authority);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

fn label_match(pattern: &str, label: &str) -> bool {
    !label.is_empty() && super::rule::wildcard(pattern, label)
}

/// Whether `host` (lower case, no trailing dot) matches the domain pattern.
pub fn domain_matches(pattern: &str, host: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    if let Some(parent) = pattern.strip_prefix("*.") {
        let p: Vec<&str> = parent.split('.').collect();
        let h: Vec<&str> = host.split('.').collect();
        return h.len() > p.len()
            && p.iter()
                .zip(&h[h.len() - p.len()..])
                .all(|(p, h)| label_match(p, h));
    }
    labels_match(pattern, host)
}

fn labels_match(pattern: &str, host: &str) -> bool {
    let p: Vec<&str> = pattern.split('.').collect();
    let h: Vec<&str> = host.split('.').collect();
    p.len() == h.len() && p.iter().zip(&h).all(|(p, h)| label_match(p, h))
}
