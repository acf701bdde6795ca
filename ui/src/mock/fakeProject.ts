// The fake project folder of the e2e build: the files its scripted edits change, kept in memory
// (the e2e test reads them back through `window.__tandemFake.files()` to check what was written).
export const FAKE_ROOT = '/home/dev/projects/tandem';

const LIB_RS = `//! Tandem: the library behind the command line and the window.
use std::path::PathBuf;

use anyhow::{Context, Result};

mod config;
mod server;

pub use config::Config;

/// Command-line arguments, parsed by clap in main.rs.
#[derive(Debug, Clone)]
pub struct Args {
    /// The project folder.
    pub folder: PathBuf,
    /// Port of the local server.
    pub port: u16,
    /// Whether to print every request.
    pub verbose: bool,
}

/// The running application: its configuration and the server it owns.
pub struct App {
    config: Config,
    server: server::Server,
}

impl App {
    /// Loads the folder's configuration and binds the server.
    pub fn new(args: Args) -> Result<Self> {
        let config = Config::load(&args.folder)
            .with_context(|| format!("loading {}", args.folder.display()))?;
        let server = server::Server::bind(args.port)?;
        Ok(Self { config, server })
    }

    /// The configuration the app was started with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Serves requests until the process is stopped.
    pub fn serve(self) -> Result<()> {
        log::info!("serving {} on port {}", self.config.name, self.server.port());
        self.server.run(self.config)
    }
}

/// Parses the arguments' folder and port and runs the app.
pub fn run(args: Args) -> Result<()> {
    let app = App::new(args)?;
    app.serve()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> Args {
        Args { folder: PathBuf::from("fixtures/basic"), port: 0, verbose: false }
    }

    #[test]
    fn starts_on_a_free_port() {
        let app = App::new(args()).unwrap();
        assert_eq!(app.config().name, "basic");
    }

    #[test]
    fn reports_a_missing_folder() {
        let error = App::new(Args { folder: PathBuf::from("nope"), ..args() }).err().unwrap();
        assert!(error.to_string().contains("loading nope"));
    }
}
`;

const MAIN_RS = `use clap::Parser;

fn main() -> anyhow::Result<()> {
    let args = tandem::Args::parse();
    tandem::run(args)
}
`;

/** A generated source file of `count` lines, for the large-diff timing. */
export function bigFile(count: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    lines.push(
      i % 10 === 1
        ? `/// Handler number ${i}: validates the request and answers with the stored value.`
        : `pub fn handler_${i}(request: &Request) -> Response { respond(request, ${i}, "item-${i}") }`,
    );
  }
  return lines.join('\n') + '\n';
}

export function initialFiles(): Map<string, string> {
  return new Map([
    [`${FAKE_ROOT}/src/lib.rs`, LIB_RS],
    [`${FAKE_ROOT}/src/main.rs`, MAIN_RS],
    [`${FAKE_ROOT}/src/handlers.rs`, bigFile(5000)],
  ]);
}
