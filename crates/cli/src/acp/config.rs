//! The ACP session's configuration options: the model, chosen from the models Tandem knows for the provider (the
//! current one first, also when it is none of them), switched for this session only.

use agent_client_protocol::v1::schema::{
    SessionConfigOption, SessionConfigOptionCategory, SessionConfigSelectOption,
};
use tandem_engine::model::Provider;
use tandem_engine::session::Session;
use tandem_engine::session::slash::ANTHROPIC_MODELS;

/// The id of the model option.
pub const MODEL: &str = "model";

/// The models offered: the current one, then those Tandem knows for the provider.
pub fn models(session: &Session) -> Vec<String> {
    let config = session.model_config();
    let mut models = vec![config.model.clone()];
    if config.provider == Provider::Anthropic {
        models.extend(
            ANTHROPIC_MODELS
                .iter()
                .map(|m| m.to_string())
                .filter(|m| *m != config.model),
        );
    }
    models
}

/// Every option with its current value.
pub fn options(session: &Session) -> Vec<SessionConfigOption> {
    let models = models(session);
    let current = models[0].clone();
    let choices: Vec<SessionConfigSelectOption> = models
        .into_iter()
        .map(|m| SessionConfigSelectOption::new(m.clone(), m))
        .collect();
    vec![
        SessionConfigOption::select(MODEL, "Model", current, choices)
            .description("The model this session talks to (the settings keep their default)")
            .category(SessionConfigOptionCategory::Model),
    ]
}
