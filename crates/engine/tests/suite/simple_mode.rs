//! The SIMPLE mode (`CLAUDE_CODE_SIMPLE`): the model is offered Bash, Read and Edit of the built-in tools, and
//! nothing else of them (no Agent, Write, Grep, ToolSearch, ...); the tool list names each left out with why.

use std::sync::Arc;

use tandem_engine::model::{AnthropicModel, Model};
use tandem_engine::session::Session;
use tandem_engine::testing::Workspace;
use tandem_engine::tools::features::Features;

use super::common::fake_config;

fn session(root: &std::path::Path, features: Features) -> Session {
    let model: Arc<dyn Model> =
        Arc::new(AnthropicModel::new(fake_config("http://127.0.0.1:9")).expect("client"));
    Session::builder(root)
        .expect("builder")
        .model_client(model)
        .features(features)
        .build()
        .expect("session")
}

fn offered(session: &Session) -> Vec<String> {
    let mut names: Vec<String> = session
        .runtime()
        .offered_specs()
        .into_iter()
        .map(|spec| spec.name)
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_simple_mode_offers_bash_read_and_edit_only() {
    let ws = Workspace::new(&[]).expect("workspace");
    let simple = session(
        &ws.root(),
        Features {
            simple: true,
            ..Features::default()
        },
    );
    assert_eq!(offered(&simple), ["Bash", "Edit", "Read"]);
    let listing = simple.tool_list();
    for name in ["Write", "Grep", "Agent", "ToolSearch"] {
        let entry = listing
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} is listed: {listing:?}"));
        assert!(!entry.offered, "{entry:?}");
        assert!(
            entry
                .reason
                .as_deref()
                .is_some_and(|r| r.contains("CLAUDE_CODE_SIMPLE")),
            "{entry:?}"
        );
    }

    let full = session(&ws.root(), Features::default());
    let names = offered(&full);
    for name in ["Bash", "Edit", "Read", "Write", "Grep", "Agent"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
}
