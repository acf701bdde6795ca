//! A client that proves who it is with a signed JWT instead of a secret (RFC 7523 `private_key_jwt`): the assertion
//! (issuer and subject the client id, audience the authorization server, valid for five minutes) signed with the
//! client's PKCS#8 private key — ES256 (P-256) or RS256 — and the client-credentials token request that carries
//! it.

use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::rand::SystemRandom;
use ring::signature::{
    ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, RSA_PKCS1_SHA256, RsaKeyPair,
};
use serde_json::json;

/// How long an assertion is valid.
const LIFETIME_SECS: u64 = 300;

/// The assertion type the token request names.
pub const ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// A client's signing key.
pub enum SigningKey {
    Es256(EcdsaKeyPair),
    Rs256(RsaKeyPair),
}

impl SigningKey {
    /// Reads a PEM file holding a PKCS#8 private key (`-----BEGIN PRIVATE KEY-----`), P-256 or RSA.
    pub fn from_pem_file(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("the private key {} cannot be read: {e}", path.display()))?;
        Self::from_pem(&text).map_err(|e| format!("the private key {}: {e}", path.display()))
    }

    /// Reads PEM text holding a PKCS#8 private key.
    pub fn from_pem(text: &str) -> Result<Self, String> {
        let body: String = text
            .lines()
            .map(str::trim)
            .skip_while(|l| *l != "-----BEGIN PRIVATE KEY-----")
            .skip(1)
            .take_while(|l| !l.starts_with("-----END"))
            .collect();
        if body.is_empty() {
            return Err("no `BEGIN PRIVATE KEY` block (a PKCS#8 key is needed)".into());
        }
        let der = STANDARD
            .decode(body)
            .map_err(|e| format!("the key is not valid base64: {e}"))?;
        let rng = SystemRandom::new();
        if let Ok(key) = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der, &rng) {
            return Ok(Self::Es256(key));
        }
        RsaKeyPair::from_pkcs8(&der)
            .map(Self::Rs256)
            .map_err(|_| "not a P-256 or RSA private key".into())
    }

    /// The JWS algorithm name.
    pub fn algorithm(&self) -> &'static str {
        match self {
            Self::Es256(_) => "ES256",
            Self::Rs256(_) => "RS256",
        }
    }

    fn sign(&self, input: &[u8]) -> Result<Vec<u8>, String> {
        let rng = SystemRandom::new();
        match self {
            Self::Es256(key) => key
                .sign(&rng, input)
                .map(|s| s.as_ref().to_vec())
                .map_err(|_| "signing failed".to_string()),
            Self::Rs256(key) => {
                let mut signature = vec![0; key.public().modulus_len()];
                key.sign(&RSA_PKCS1_SHA256, &rng, input, &mut signature)
                    .map_err(|_| "signing failed".to_string())?;
                Ok(signature)
            }
        }
    }
}

/// A fresh assertion for `client_id` addressed to `audience` (the authorization server's issuer), issued at `now`
/// (Unix seconds).
pub fn assertion(
    key: &SigningKey,
    client_id: &str,
    audience: &str,
    now: u64,
) -> Result<String, String> {
    let header = json!({"alg": key.algorithm(), "typ": "JWT"});
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + LIFETIME_SECS,
        "jti": uuid::Uuid::new_v4().to_string(),
    });
    let input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let signature = key.sign(input.as_bytes())?;
    Ok(format!("{input}.{}", URL_SAFE_NO_PAD.encode(signature)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED, KeyPair, UnparsedPublicKey};

    #[test]
    fn an_es256_assertion_names_the_client_and_verifies_with_its_key() {
        let rng = SystemRandom::new();
        let pkcs8 =
            EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).expect("a key");
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            STANDARD.encode(pkcs8.as_ref())
        );
        let key = SigningKey::from_pem(&pem).expect("reads");
        assert_eq!(key.algorithm(), "ES256");
        let jwt = assertion(&key, "machine-1", "https://auth.example.org", 1_000).expect("signs");
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).expect("b64")).expect("json");
        assert_eq!(claims["iss"], "machine-1");
        assert_eq!(claims["sub"], "machine-1");
        assert_eq!(claims["aud"], "https://auth.example.org");
        assert_eq!(claims["exp"], 1_300);
        let SigningKey::Es256(pair) = &key else {
            panic!("an EC key")
        };
        let public = UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, pair.public_key().as_ref());
        let signature = URL_SAFE_NO_PAD.decode(parts[2]).expect("b64");
        assert!(
            public
                .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
                .is_ok()
        );
        assert!(SigningKey::from_pem("no key here").is_err());
    }
}
