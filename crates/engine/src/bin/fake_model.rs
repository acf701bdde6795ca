//! `tandem-fake-model`: runs the fake model server for manual demos.
//!
//! Usage: `tandem-fake-model [--port N] [--print-requests] [SCRIPT.json]`. The script is a JSON [`Script`]; without
//! one the server reads `README.md` in the working directory and then answers. Prints the base URL and serves until
//! killed; with `--print-requests`, also a line `request <n> <unix time in ms>` as each request arrives. It
//! speaks both protocols: point Tandem at it with `ANTHROPIC_BASE_URL`, or with `"provider": "openai"` and
//! `OPENAI_BASE_URL`.

use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};

fn demo_script() -> Script {
    Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "Let me look at the README first.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_demo_1".into(),
                name: "Read".into(),
                input: serde_json::json!({"file_path": "README.md"}),
            },
        ]),
        ScriptedTurn::text("I read the README. **Tandem** is ready for work."),
    ])
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut port = 0u16;
    let mut script = None;
    let mut print_requests = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => port = args.next().and_then(|p| p.parse().ok()).unwrap_or(0),
            "--print-requests" => print_requests = true,
            "-h" | "--help" => {
                println!("usage: tandem-fake-model [--port N] [SCRIPT.json]");
                return Ok(());
            }
            path => {
                let text = std::fs::read_to_string(path)?;
                script =
                    Some(serde_json::from_str::<Script>(&text).map_err(std::io::Error::other)?);
            }
        }
    }
    let server = FakeServer::start_on(script.unwrap_or_else(demo_script), port).await?;
    println!("{}", server.url());
    if print_requests {
        let mut seen = 0;
        loop {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => return Ok(()),
                _ = tokio::time::sleep(std::time::Duration::from_millis(1)) => {}
            }
            let count = server.requests().len();
            while seen < count {
                seen += 1;
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_millis())
                    .unwrap_or(0);
                println!("request {seen} {now}");
            }
        }
    }
    tokio::signal::ctrl_c().await?;
    Ok(())
}
