//! Test modules of the engine's integration suite.

mod common;
mod executor;
mod hooks;
mod model_errors;
mod openai_client;
mod openai_loop;
mod perm_support;
mod permission_modes;
mod permission_props;
mod permission_rules;
mod permission_settings;
mod permissions_table;
mod query_loop;
mod session_hooks;
mod store;
