//! Signing in without a person: the client-credentials grant (OAuth 2.1 §4.2, as the MCP authorization extension
//! for machine clients describes) for a server whose configuration names a confidential client (`oauth.clientId`
//! with `oauth.clientSecret`, or with `oauth.privateKeyFile` for signed assertions) and whose authorization server
//! offers that grant and not the authorization-code one — a server meant for programs, where no browser sign-in
//! could happen. The token lands in the server's [`ServerTokens`] like a person's sign-in would.

use rmcp::transport::AuthorizationManager;
use rmcp::transport::auth::{
    AuthorizationMetadata, ClientCredentialsConfig, CredentialStore, OAuthState,
    OAuthTokenResponse, StoredCredentials,
};

use super::client_assertion::{ASSERTION_TYPE, SigningKey, assertion};
use super::flow::SignInError;
use super::tokens::ServerTokens;
use crate::mcp::config::OAuthClient;

/// Whether an authorization server offering `grants` (its metadata's `grant_types_supported`) is for machine
/// clients only: it offers the client-credentials grant and not the authorization-code one.
pub fn machine_only(grants: &[&str]) -> bool {
    grants.contains(&"client_credentials") && !grants.contains(&"authorization_code")
}

/// Signs in to the MCP server at `server_url` with `client`'s credentials when the grant applies (see the module);
/// `Ok(false)` when it does not (no secret, or an authorization server that expects a person), an error when it
/// applies and the authorization server refused.
pub async fn client_credentials(
    server_url: &str,
    client: &OAuthClient,
    challenge: Option<&str>,
    tokens: ServerTokens,
) -> Result<bool, SignInError> {
    if client.client_secret.is_none() && client.private_key_file.is_none() {
        return Ok(false);
    }
    let start = |e: &dyn std::fmt::Display| SignInError::Start(e.to_string());
    let mut manager = AuthorizationManager::new(server_url)
        .await
        .map_err(|e| start(&e))?;
    manager.set_credential_store(tokens.clone());
    let resolution = manager
        .resolve_metadata_from_challenge(challenge)
        .await
        .map_err(|e| start(&e))?;
    let grants: Vec<&str> = resolution
        .metadata
        .additional_fields
        .get("grant_types_supported")
        .and_then(|g| g.as_array())
        .map(|g| g.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    if !machine_only(&grants) {
        return Ok(false);
    }
    let Some(secret) = &client.client_secret else {
        let key = match &client.private_key_file {
            Some(path) => SigningKey::from_pem_file(path).map_err(SignInError::Start)?,
            None => return Ok(false),
        };
        return with_assertion(server_url, client, &key, &resolution.metadata, tokens)
            .await
            .map(|()| true);
    };
    let config = ClientCredentialsConfig::ClientSecret {
        client_id: client.client_id.clone(),
        client_secret: secret.clone(),
        scopes: client.scopes.clone(),
        resource: Some(server_url.to_string()),
    };
    let mut state = OAuthState::Unauthorized(manager);
    state
        .authenticate_client_credentials(config)
        .await
        .map_err(|e| SignInError::Refused(e.to_string()))?;
    Ok(true)
}

/// Whether `url` may carry a client's credentials: https, or http on this machine.
fn safe_endpoint(url: &reqwest::Url) -> bool {
    let loopback = |host: &str| {
        host == "localhost"
            || host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    };
    url.scheme() == "https" || (url.scheme() == "http" && url.host_str().is_some_and(loopback))
}

/// The client-credentials token request authenticated with a signed assertion (`private_key_jwt`); the token is
/// saved in `tokens`.
async fn with_assertion(
    server_url: &str,
    client: &OAuthClient,
    key: &SigningKey,
    metadata: &AuthorizationMetadata,
    tokens: ServerTokens,
) -> Result<(), SignInError> {
    let endpoint = reqwest::Url::parse(&metadata.token_endpoint)
        .map_err(|e| SignInError::Start(format!("the token endpoint is not a URL: {e}")))?;
    if !safe_endpoint(&endpoint) {
        return Err(SignInError::Start(format!(
            "the token endpoint {endpoint} is not https: the client's assertion is not sent there"
        )));
    }
    let audience = metadata
        .issuer
        .clone()
        .unwrap_or_else(|| metadata.token_endpoint.clone());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let signed = assertion(key, &client.client_id, &audience, now).map_err(SignInError::Start)?;
    let mut form = vec![
        ("grant_type", "client_credentials".to_string()),
        ("client_assertion_type", ASSERTION_TYPE.to_string()),
        ("client_assertion", signed),
        ("resource", server_url.to_string()),
    ];
    if !client.scopes.is_empty() {
        form.push(("scope", client.scopes.join(" ")));
    }
    // The form, encoded as a query string is.
    let body = reqwest::Url::parse_with_params("http://form.invalid/", &form)
        .map_err(|e| SignInError::Start(e.to_string()))?
        .query()
        .unwrap_or_default()
        .to_string();
    let response = reqwest::Client::new()
        .post(endpoint)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .map_err(|e| SignInError::Exchange(e.to_string()))?;
    let status = response.status();
    let body: serde_json::Value = response
        .json()
        .await
        .map_err(|e| SignInError::Exchange(format!("the token response is not JSON: {e}")))?;
    if !status.is_success() {
        let error = body
            .get("error")
            .and_then(|v| v.as_str())
            .unwrap_or("refused");
        let detail = body
            .get("error_description")
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        return Err(SignInError::Refused(
            format!("{error} {detail}").trim().to_string(),
        ));
    }
    let token: OAuthTokenResponse = serde_json::from_value(body)
        .map_err(|e| SignInError::Exchange(format!("the token response is not a token: {e}")))?;
    tokens
        .save(
            StoredCredentials::new(
                client.client_id.clone(),
                Some(token),
                client.scopes.clone(),
                Some(now),
            )
            .with_issuer(metadata.issuer.clone()),
        )
        .await
        .map_err(|e| SignInError::Exchange(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_authorization_server_for_machines_is_signed_in_to_without_a_person() {
        for (grants, machine) in [
            (vec!["client_credentials"], true),
            (vec!["client_credentials", "refresh_token"], true),
            (vec!["authorization_code", "client_credentials"], false),
            (vec!["authorization_code", "refresh_token"], false),
            (vec![], false),
        ] {
            assert_eq!(machine_only(&grants), machine, "{grants:?}");
        }
    }
}
