//! Plain words for a failure to reach or talk to an MCP server: the cause a person can act on (nothing listening,
//! a host name that does not resolve, a timeout, an HTTP status), never the library's internal type names.

use std::error::Error;

use rmcp::service::ClientInitializeError;
use rmcp::transport::DynamicTransportError;
use rmcp::transport::streamable_http_client::StreamableHttpError;

/// The cause of `error` in plain words.
pub fn plain(error: &(dyn Error + 'static)) -> String {
    let chain = chain_of(error);
    if let Some(words) = chain
        .iter()
        .find_map(|e| e.downcast_ref::<std::io::Error>())
        .and_then(io_words)
    {
        return words;
    }
    if let Some(http) = chain
        .iter()
        .find_map(|e| e.downcast_ref::<reqwest::Error>())
    {
        if let Some(status) = http.status() {
            return format!("the server answered HTTP {status}");
        }
        if http.is_timeout() {
            return "the request timed out".into();
        }
    }
    // The innermost message that says something, without the names of types.
    chain
        .iter()
        .rev()
        .map(|e| without_type_names(&e.to_string()))
        .find(|text| !text.is_empty())
        .unwrap_or_else(|| "the connection failed".into())
}

/// `error` and its causes, outermost first; `rmcp`'s transport errors are looked into (they do not name their
/// cause as a source).
fn chain_of<'a>(error: &'a (dyn Error + 'static)) -> Vec<&'a (dyn Error + 'static)> {
    let mut chain = Vec::new();
    let mut next = Some(error);
    while let Some(e) = next {
        chain.push(e);
        next = if let Some(ClientInitializeError::TransportError { error, .. }) = e.downcast_ref() {
            Some(error as &DynamicTransportError)
        } else if let Some(StreamableHttpError::Client(client)) =
            e.downcast_ref::<StreamableHttpError<reqwest::Error>>()
        {
            Some(client as &reqwest::Error)
        } else {
            e.source()
        };
        if chain.len() > 32 {
            break;
        }
    }
    chain
}

fn io_words(error: &std::io::Error) -> Option<String> {
    use std::io::ErrorKind;
    let text = error.to_string();
    Some(match error.kind() {
        ErrorKind::ConnectionRefused => "nothing is listening there (connection refused)".into(),
        ErrorKind::TimedOut => "the connection timed out".into(),
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted => {
            "the server closed the connection".into()
        }
        ErrorKind::PermissionDenied => format!("permission denied ({text})"),
        _ if text.contains("lookup") || text.contains("resolve") => {
            format!("the host name could not be resolved ({text})")
        }
        _ => return None,
    })
}

/// `text` without what only names types: `Transport [some::Type<…>]` and `path::to::Type` words.
fn without_type_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Transport [") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        match after.find("] ") {
            Some(end) => rest = &after[end + 2..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace()
        .filter(|word| !word.contains("::"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_are_left_out_of_a_message() {
        assert_eq!(
            without_type_names(
                "Send message error Transport [rmcp::transport::worker::WorkerTransport<a::B<c::D>>] error: Client \
                 error: boom"
            ),
            "Send message error error: Client error: boom"
        );
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(
            plain(&refused),
            "nothing is listening there (connection refused)"
        );
    }
}
