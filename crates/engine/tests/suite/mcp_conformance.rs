//! The official MCP client conformance suite (`@modelcontextprotocol/conformance`, pinned in tests/mcp and installed
//! by scripts/install-deps) run in client mode against Tandem's MCP client through the `tandem-mcp-conformance`
//! adapter. Every client scenario the suite lists is run; the set that passes must be exactly [`PASSING`], so a
//! regression fails and so does an improvement until the list is updated.

use std::path::PathBuf;
use std::process::Command;

const ADAPTER: &str = env!("CARGO_BIN_EXE_tandem-mcp-conformance");

/// The client scenarios Tandem passes.
const PASSING: &[&str] = &[
    "initialize",
    "tools_call",
    // Through the adapter's answerer, which accepts with the form's defaults.
    "elicitation-sep1034-client-defaults",
    "sse-retry",
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/resource-mismatch",
    "auth/pre-registration",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    // Machine sign-in with the client configured as the server's `oauth` (a secret, or a signed assertion).
    "auth/client-credentials-basic",
    "auth/client-credentials-jwt",
];

/// Known failures, kept here so they are seen. `metadata-var2` / `var3`: the suite's authorization server
/// publishes metadata whose `issuer` is not the URL it was fetched for, which the client refuses (RFC 8414 section
/// 3.3).
const KNOWN_FAILING: &[&str] = &["auth/metadata-var2", "auth/metadata-var3"];

/// The suite's entry point; the test fails loudly when it (or node) is missing.
fn suite() -> PathBuf {
    let entry = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/mcp/node_modules/@modelcontextprotocol/conformance/dist/index.js");
    assert!(
        entry.is_file(),
        "{} is missing: run scripts/install-deps (it installs tests/mcp's npm packages)",
        entry.display()
    );
    entry
}

fn client_scenarios(entry: &PathBuf) -> Vec<String> {
    let out = Command::new("node")
        .arg(entry)
        .arg("list")
        .output()
        .expect("node runs (install Node.js 20 or newer)");
    let text = String::from_utf8_lossy(&out.stdout);
    text.split("Client scenarios")
        .nth(1)
        .expect("the suite lists client scenarios")
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- "))
        .map(str::to_string)
        .collect()
}

/// Runs one scenario; whether the suite says it passed, with its output.
fn run(entry: &PathBuf, scenario: &str) -> (bool, String) {
    let out = Command::new("node")
        .arg(entry)
        .args(["client", "--command", ADAPTER, "--scenario", scenario])
        .args(["--timeout", "60000"])
        .output()
        .expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (text.contains("OVERALL: PASSED"), text)
}

#[test]
fn the_official_client_conformance_scenarios_that_pass_are_the_known_set() {
    let entry = suite();
    let scenarios = client_scenarios(&entry);
    assert!(
        scenarios.len() >= PASSING.len() + KNOWN_FAILING.len(),
        "{scenarios:?}"
    );
    let mut passed = Vec::new();
    let mut outputs = Vec::new();
    for scenario in &scenarios {
        let (ok, output) = run(&entry, scenario);
        if ok {
            passed.push(scenario.clone());
        }
        outputs.push(format!("=== {scenario}: {ok}\n{output}"));
    }
    let unexpected: Vec<&String> = scenarios
        .iter()
        .filter(|s| !PASSING.contains(&s.as_str()) && !KNOWN_FAILING.contains(&s.as_str()))
        .collect();
    assert!(
        unexpected.is_empty(),
        "new scenarios in the suite: {unexpected:?}"
    );
    let mut want: Vec<String> = PASSING.iter().map(|s| s.to_string()).collect();
    want.sort();
    passed.sort();
    assert_eq!(passed, want, "{}", outputs.join("\n"));
}
