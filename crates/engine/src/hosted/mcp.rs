//! The MCP servers a hosted agent is given in `session/new`: those of the run's `--mcp-config` (the person named
//! them for this run), as ACP describes servers — stdio always, HTTP and SSE only when the agent says it speaks them.
//! The folder's own servers (`.mcp.json`, the settings) are not passed: agents that know them read them themselves.

use std::path::Path;

use crate::mcp::{McpCliConfig, Planned, Transport, plan};
use crate::settings::McpSettings;
use agent_client_protocol::v1::schema::{
    EnvVariable, HttpHeader, McpCapabilities, McpServer, McpServerHttp, McpServerSse,
    McpServerStdio,
};

/// The servers of `configs` (each a file or JSON text) that the agent can use, and a line for each one it cannot
/// (a configuration that is wrong, a transport it does not speak).
pub fn servers_for(
    configs: &[String],
    folder: &Path,
    speaks: &McpCapabilities,
) -> (Vec<McpServer>, Vec<String>) {
    if configs.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let cli = McpCliConfig {
        configs: configs.to_vec(),
        strict: true,
    };
    let planned = plan(folder, &McpSettings::default(), &cli, None, &|name| {
        std::env::var(name).ok()
    });
    let mut problems = planned.file_errors;
    let mut servers = Vec::new();
    for server in planned.servers {
        let config = match server {
            Planned::Server { config, .. } => config,
            Planned::Invalid(e) => {
                problems.push(format!("MCP server {}: {}", e.server, e.message));
                continue;
            }
        };
        let name = config.name.clone();
        let headers = |headers: &std::collections::BTreeMap<String, String>| {
            headers
                .iter()
                .map(|(k, v)| HttpHeader::new(k.clone(), v.clone()))
                .collect::<Vec<_>>()
        };
        match config.transport {
            Transport::Stdio {
                command, args, env, ..
            } => servers.push(McpServer::Stdio(
                McpServerStdio::new(name, command).args(args).env(
                    env.into_iter()
                        .map(|(k, v)| EnvVariable::new(k, v))
                        .collect(),
                ),
            )),
            Transport::Http { url, headers: h } if speaks.http => servers.push(McpServer::Http(
                McpServerHttp::new(name, url).headers(headers(&h)),
            )),
            Transport::Sse { url, headers: h } if speaks.sse => servers.push(McpServer::Sse(
                McpServerSse::new(name, url).headers(headers(&h)),
            )),
            _ => problems.push(format!(
                "MCP server {name} is not passed to the agent: it does not speak that server's transport"
            )),
        }
    }
    (servers, problems)
}
