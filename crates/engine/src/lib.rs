//! Tandem engine.
