//! Test modules of the engine's integration suite.

mod common;
mod executor;
mod model_errors;
mod query_loop;
