//! One sign-in to a remote MCP server, as the MCP authorization spec describes and `rmcp`'s `auth` module
//! implements: protected-resource metadata (from the server's `WWW-Authenticate` challenge or its well-known URL),
//! authorization-server metadata (RFC 8414, OpenID fallback), dynamic client registration (or a pre-registered
//! client), the authorization-code flow with PKCE (S256) and the `resource` parameter, scopes from the challenge.
//! The URL goes to a [`BrowserOpener`]; the redirect comes back to a loopback listener; the tokens land in the
//! server's [`ServerTokens`].

use std::time::Duration;

use rmcp::transport::AuthorizationManager;
use rmcp::transport::auth::{AuthorizationRequest, OAuthState};
use tokio::task::JoinHandle;

use super::opener::BrowserOpener;
use super::redirect::RedirectListener;
use super::tokens::ServerTokens;

/// The client name sent with dynamic client registration.
const CLIENT_NAME: &str = "Tandem";

/// Why a sign-in failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SignInError {
    #[error("could not start the sign-in: {0}")]
    Start(String),
    #[error("the sign-in was not completed within {0:?}")]
    Timeout(Duration),
    #[error("the authorization server refused the sign-in: {0}")]
    Refused(String),
    #[error("the sign-in failed: {0}")]
    Exchange(String),
}

/// How to sign in to one server.
#[derive(Debug, Clone, Default)]
pub struct SignInOptions {
    /// The server's last `WWW-Authenticate` challenge (its `resource_metadata` and `scope` seed discovery).
    pub challenge: Option<String>,
    /// A client registered with the authorization server beforehand (no dynamic registration then).
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    /// Scopes to ask for instead of those the server names.
    pub scopes: Vec<String>,
    /// The HTTPS URL of a client metadata document naming this client, used as its client id when the
    /// authorization server supports such ids (else dynamic registration is used).
    pub client_metadata_url: Option<String>,
}

/// A sign-in under way.
pub struct SignIn {
    /// The URL the person opens to sign in.
    pub authorization_url: String,
    /// Why the opener could not show the URL, if it could not.
    pub open_error: Option<String>,
    /// Ends when the redirect came back and the tokens are saved (or the sign-in failed or timed out).
    pub done: JoinHandle<Result<(), SignInError>>,
}

/// Starts signing in to the MCP server at `server_url`: discovery, registration, the authorization URL handed to
/// `opener`; the rest (waiting at most `timeout` for the redirect, exchanging the code, saving the tokens in
/// `tokens`) runs in [`SignIn::done`].
pub async fn begin(
    server_url: &str,
    options: SignInOptions,
    tokens: ServerTokens,
    opener: &dyn BrowserOpener,
    timeout: Duration,
) -> Result<SignIn, SignInError> {
    let start = |e: &dyn std::fmt::Display| SignInError::Start(e.to_string());
    let listener = RedirectListener::bind().await.map_err(|e| start(&e))?;
    let mut manager = AuthorizationManager::new(server_url)
        .await
        .map_err(|e| start(&e))?;
    manager.set_credential_store(tokens);
    let mut state = OAuthState::Unauthorized(manager);
    // Scopes: those of the challenge, else those the resource's metadata lists (else none).
    let mut request = AuthorizationRequest::new(listener.redirect_uri())
        .with_client_name(CLIENT_NAME)
        .with_initial_scope_selection();
    if let Some(challenge) = options.challenge {
        request = request.with_challenge(challenge);
    }
    if let Some(id) = options.client_id {
        request = request.with_preregistered_client(id);
        if let Some(secret) = options.client_secret {
            request = request.with_client_secret(secret);
        }
    }
    if let Some(url) = options.client_metadata_url {
        request = request.with_client_metadata_url(url);
    }
    if !options.scopes.is_empty() {
        request = request.with_scopes(options.scopes);
    }
    state
        .start_authorization(request)
        .await
        .map_err(|e| start(&e))?;
    let authorization_url = state.get_authorization_url().await.map_err(|e| start(&e))?;
    let open_error = opener.open(&authorization_url).err();
    let done = tokio::spawn(async move {
        let redirect = tokio::time::timeout(timeout, listener.wait())
            .await
            .map_err(|_| SignInError::Timeout(timeout))?
            .map_err(|e| SignInError::Exchange(e.to_string()))?;
        if let Some(error) = query_value(&redirect, "error") {
            let detail = query_value(&redirect, "error_description").unwrap_or_default();
            return Err(SignInError::Refused(
                format!("{error} {detail}").trim().to_string(),
            ));
        }
        state
            .handle_callback_url(&redirect)
            .await
            .map_err(|e| SignInError::Exchange(e.to_string()))
    });
    Ok(SignIn {
        authorization_url,
        open_error,
        done,
    })
}

fn query_value(url: &str, key: &str) -> Option<String> {
    let url = reqwest::Url::parse(url).ok()?;
    url.query_pairs()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
}
