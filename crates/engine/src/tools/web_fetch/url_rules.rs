//! What URL is fetched: checked (http or https, a host, no credentials, not too long) and upgraded from http to
//! https — except for this machine's loopback names, which have no certificate to show; and which redirects are
//! followed: only those that stay on the same host and port.

use reqwest::Url;

use super::address::is_loopback_name;

/// Longest URL accepted.
pub const MAX_URL_CHARS: usize = 2_000;

/// Parses the model's URL and applies the upgrade rule; an `Err` says what is wrong for the model.
pub fn checked_url(raw: &str) -> Result<Url, String> {
    if raw.chars().count() > MAX_URL_CHARS {
        return Err(format!(
            "The URL is longer than {MAX_URL_CHARS} characters."
        ));
    }
    let mut url = Url::parse(raw.trim()).map_err(|e| format!("Invalid URL {raw:?}: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "Only http and https URLs can be fetched, not {}:",
            url.scheme()
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("The URL {raw:?} has no host."));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("URLs with a user name or password are not fetched.".into());
    }
    upgrade(&mut url);
    Ok(url)
}

/// The host of `url` as the permission rules see it: lower case, IPv6 without brackets, no trailing dot.
pub fn host_of(url: &Url) -> String {
    url.host_str()
        .unwrap_or_default()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase()
}

/// http becomes https, except for loopback hosts (`localhost`, `127.0.0.0/8`, `::1`).
pub fn upgrade(url: &mut Url) {
    if url.scheme() == "http" && !is_loopback_name(&host_of(url)) {
        let port = url.port();
        // Setting the scheme of an http URL to https cannot fail (both are special schemes).
        let _ = url.set_scheme("https");
        if port == Some(80) {
            let _ = url.set_port(None);
        }
    }
}

/// Whether a redirect from `from` to `to` may be followed: same host and same port (an upgrade from http to
/// https of the same host is allowed).
pub fn same_site(from: &Url, to: &Url) -> bool {
    let scheme_ok =
        from.scheme() == to.scheme() || (from.scheme() == "http" && to.scheme() == "https");
    let port = |u: &Url| u.port_or_known_default();
    let port_ok = port(from) == port(to) || (from.scheme() != to.scheme() && to.port().is_none());
    scheme_ok && port_ok && host_of(from) == host_of(to)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("a URL")
    }

    #[test]
    fn http_is_upgraded_except_on_loopback() {
        let up = |s: &str| checked_url(s).map(|u| u.to_string());
        assert_eq!(
            up("http://example.com/a?b=1").as_deref(),
            Ok("https://example.com/a?b=1")
        );
        assert_eq!(
            up("http://example.com:80/").as_deref(),
            Ok("https://example.com/")
        );
        assert_eq!(
            up("http://example.com:8080/").as_deref(),
            Ok("https://example.com:8080/")
        );
        assert_eq!(
            up("https://example.com/").as_deref(),
            Ok("https://example.com/")
        );
        assert_eq!(
            up("http://127.0.0.1:3000/x").as_deref(),
            Ok("http://127.0.0.1:3000/x")
        );
        assert_eq!(
            up("http://localhost:3000/").as_deref(),
            Ok("http://localhost:3000/")
        );
        assert_eq!(
            up("http://[::1]:3000/").as_deref(),
            Ok("http://[::1]:3000/")
        );
        // Other spellings of an address are read as the address.
        assert_eq!(
            up("http://2130706433:81/").as_deref(),
            Ok("http://127.0.0.1:81/")
        );
        assert_eq!(up("http://0x7f.1/").as_deref(), Ok("http://127.0.0.1/"));
        // A private address on the network is not this machine: upgraded like any other.
        assert_eq!(up("http://10.0.0.1/").as_deref(), Ok("https://10.0.0.1/"));
    }

    #[test]
    fn bad_urls_are_refused_with_the_reason() {
        assert!(checked_url("ftp://example.com/").is_err_and(|e| e.contains("http")));
        assert!(checked_url("file:///etc/passwd").is_err());
        assert!(checked_url("not a url").is_err());
        assert!(checked_url("https://user:pw@example.com/").is_err_and(|e| e.contains("password")));
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_CHARS));
        assert!(checked_url(&long).is_err_and(|e| e.contains("longer")));
    }

    #[test]
    fn only_redirects_on_the_same_host_and_port_are_followed() {
        let a = url("https://example.com/a");
        assert!(same_site(&a, &url("https://example.com/b")));
        assert!(same_site(&a, &url("https://EXAMPLE.com./b")));
        assert!(!same_site(&a, &url("https://www.example.com/b")));
        assert!(!same_site(&a, &url("https://example.com:8443/b")));
        assert!(!same_site(&a, &url("http://example.com/b")), "no downgrade");
        assert!(same_site(
            &url("http://127.0.0.1:9/a"),
            &url("http://127.0.0.1:9/b")
        ));
        assert!(!same_site(
            &url("http://127.0.0.1:9/a"),
            &url("http://localhost:9/b")
        ));
    }
}
