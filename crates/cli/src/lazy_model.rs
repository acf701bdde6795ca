//! A model client made on the first request. `tandem tool` seldom asks the model anything (only the auto mode's
//! classifier does), and making an HTTP client loads the system's certificate store, which costs about 100 ms of
//! start-up.

use std::sync::{Arc, OnceLock};

use tandem_engine::model::{Model, ModelConfig, ModelError, ModelRequest, ModelStream};

/// Connects to `config`'s provider when first asked to stream; a failure to connect ends that stream (and every
/// later one) with the error.
pub struct LazyModel {
    config: ModelConfig,
    model: OnceLock<Result<Arc<dyn Model>, ModelError>>,
}

impl LazyModel {
    pub fn new(config: ModelConfig) -> Self {
        Self {
            config,
            model: OnceLock::new(),
        }
    }
}

impl Model for LazyModel {
    fn model_name(&self) -> &str {
        &self.config.model
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        match self
            .model
            .get_or_init(|| tandem_engine::model::connect(self.config.clone()))
        {
            Ok(model) => model.stream(request),
            Err(error) => Box::pin(futures::stream::once(std::future::ready(
                Err(error.clone()),
            ))),
        }
    }
}
