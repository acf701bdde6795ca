//! A model the person can change while sessions are open: each request goes to the client that is current when
//! it starts; a request already streaming finishes on the client it started with.

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use super::{Model, ModelRequest, ModelStream};

/// A [`Model`] whose client can be replaced.
pub struct SwitchableModel {
    current: RwLock<Current>,
    /// Every distinct model name this process has served, kept so that [`Model::model_name`] can lend one out
    /// while the client behind it changes (a few bytes per name the person ever chose).
    names: Mutex<Vec<&'static str>>,
}

struct Current {
    model: Arc<dyn Model>,
    name: &'static str,
}

impl SwitchableModel {
    pub fn new(model: Arc<dyn Model>) -> Self {
        let names = Mutex::new(Vec::new());
        let name = intern(&names, model.model_name());
        Self {
            current: RwLock::new(Current { model, name }),
            names,
        }
    }

    /// Sends the next requests to `model`.
    pub fn switch_to(&self, model: Arc<dyn Model>) {
        let name = intern(&self.names, model.model_name());
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Current { model, name };
    }

    fn model(&self) -> (Arc<dyn Model>, &'static str) {
        let current = self.current.read().unwrap_or_else(PoisonError::into_inner);
        (current.model.clone(), current.name)
    }
}

impl Model for SwitchableModel {
    fn model_name(&self) -> &str {
        self.model().1
    }

    fn stream(&self, request: ModelRequest) -> ModelStream {
        self.model().0.stream(request)
    }
}

fn intern(names: &Mutex<Vec<&'static str>>, name: &str) -> &'static str {
    let mut names = names.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = names.iter().find(|n| **n == name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(leaked);
    leaked
}
