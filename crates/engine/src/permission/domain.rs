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

/// Documentation hosts WebFetch may read without asking, whose pages are given to the model as they are (not
/// summarised). A host matches when it is one of these or a subdomain of one.
pub const PREAPPROVED_HOSTS: &[&str] = &[
    "docs.anthropic.com",
    "docs.claude.com",
    "modelcontextprotocol.io",
    "docs.python.org",
    "developer.mozilla.org",
    "doc.rust-lang.org",
    "docs.rs",
    "go.dev",
    "pkg.go.dev",
    "nodejs.org",
    "www.typescriptlang.org",
    "react.dev",
    "vuejs.org",
    "docs.djangoproject.com",
    "flask.palletsprojects.com",
    "fastapi.tiangolo.com",
    "learn.microsoft.com",
    "docs.oracle.com",
    "kotlinlang.org",
    "docs.swift.org",
    "en.cppreference.com",
    "cppreference.com",
    "git-scm.com",
    "docs.github.com",
    "kubernetes.io",
    "docs.docker.com",
    "www.postgresql.org",
    "sqlite.org",
    "tauri.app",
    "v2.tauri.app",
];

/// Whether `host` (lower case) is a pre-approved documentation host.
pub fn is_preapproved_host(host: &str) -> bool {
    PREAPPROVED_HOSTS.iter().any(|known| {
        host == *known
            || host
                .strip_suffix(known)
                .is_some_and(|rest| rest.ends_with('.'))
    })
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
