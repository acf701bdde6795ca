//! The query loop: send the conversation to the model, stream its answer, run the tools it calls, feed the results
//! back, until the model stops, the turn limit is reached, or the user interrupts.

mod budget_gate;
pub mod compact;
mod config;
mod result_budget;
mod server_calls;
mod step;
mod system_prompt;
mod turn;

pub use budget_gate::{BudgetDoor, BudgetGate};
pub use config::QueryConfig;
pub use system_prompt::{COORDINATOR_PROMPT, build_system_prompt, skills_prompt};
pub use turn::{QueryError, TurnOutcome, UserPrompt, run_turn};
