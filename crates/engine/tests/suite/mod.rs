//! Test modules of the engine's integration suite.

mod bash;
mod checkpoints;
mod common;
mod decision_sources;
mod edit_pipeline;
mod executor;
mod file_scenarios;
mod hooks;
mod model_errors;
mod openai_client;
mod openai_loop;
mod permission_modes;
mod permission_props;
mod permission_rules;
mod permission_settings;
mod permissions_table;
mod query_loop;
mod read_streaming;
mod read_tool;
mod search_denied;
mod search_vs_rg;
mod session_hooks;
mod shell_snapshots;
mod store;
mod sub_agents;
mod suggestions;
