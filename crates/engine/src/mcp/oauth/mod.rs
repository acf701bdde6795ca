//! OAuth for remote MCP servers: signing in (see [`flow`]; without a person, [`unattended`]), where the tokens are
//! kept ([`tokens`]), how the authorization URL reaches the person ([`opener`]) and the loopback redirect
//! ([`redirect`]). Requests to a
//! signed-in server carry its token, refreshed when it expires or is refused (`rmcp`'s `AuthClient`).

mod client_assertion;
pub mod flow;
pub mod opener;
mod redirect;
pub mod tokens;
pub mod unattended;

pub use flow::{SignIn, SignInError, SignInOptions, begin};
pub use opener::{BrowserOpener, Opener, SystemOpener, set_standard_opener, standard_opener};
pub use tokens::{ServerTokens, TokenStore};
pub use unattended::client_credentials;
