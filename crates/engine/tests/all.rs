//! The engine's integration tests: one binary, one module per area under `suite/`.

mod suite;
