//! Permission decisions per second, single-threaded, for a realistic mix of compound commands against 10, 100 and
//! 1,000 rules, beside the time tree-sitter alone takes to parse the same commands (benchmarks/permissions.sh).

use std::hint::black_box;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::permission::{
    CallView, ContextOptions, LoadedSettings, PermissionContext, PermissionSubject, RuleSource,
    evaluate,
};
use tandem_engine::shell::parse_tree;
use tandem_protocol::PermissionMode;

const COMMANDS: &[&str] = &[
    "git status && git diff --stat",
    "npm test -- --watch=false 2>&1 | tail -20",
    "cargo build --release && ./target/release/app --version",
    "ls -la src && cat README.md | head -50",
    "cd src && grep -rn 'TODO' . | wc -l",
    "find . -name '*.rs' -not -path './target/*' | xargs wc -l",
    "NODE_ENV=test timeout 60 npx jest --coverage > coverage.txt",
    "docker compose up -d && sleep 5 && curl -s localhost:8080/health",
    "python -m pytest tests/ -x -q; echo exit=$?",
    "for f in src/*.ts; do echo \"$f\"; wc -l \"$f\"; done",
    "git log --oneline -20 | grep -i fix || true",
    "rm -rf build dist && mkdir -p build && cp -r assets build/",
    "echo $(git rev-parse HEAD) > VERSION && git add VERSION",
    "sed -n '1,40p' src/main.rs && rg 'fn main' src",
    "make -j4 test 2>/dev/null && make install PREFIX=$HOME/.local",
    "jq '.dependencies | keys' package.json | sort | uniq",
    "kubectl get pods -n prod | awk '{print $1}' | head",
    "pip install -r requirements.txt && python setup.py develop",
    "go test ./... -run TestParse -count=1 -v | tee test.log",
    "if [ -f .env ]; then source .env; fi; npm run dev",
];

const PROGRAMS: &[&str] = &[
    "npm",
    "cargo",
    "git",
    "make",
    "python",
    "pip",
    "go",
    "docker",
    "kubectl",
    "yarn",
    "pnpm",
    "npx",
    "node",
    "deno",
    "bun",
    "rustc",
    "gcc",
    "clang",
    "cmake",
    "ninja",
    "terraform",
    "aws",
    "gcloud",
    "az",
    "helm",
    "mvn",
    "gradle",
    "java",
    "ruby",
    "bundle",
    "rake",
    "php",
    "composer",
    "dotnet",
    "swift",
    "xcodebuild",
    "flutter",
    "dart",
    "mix",
    "elixir",
];
const SUBS: &[&str] = &[
    "test", "build", "run", "install", "deploy", "lint", "fmt", "check", "publish", "clean",
    "start", "watch", "exec", "push", "pull", "status", "log", "diff", "apply", "plan",
];

fn rules(n: usize) -> Value {
    let mut allow = Vec::new();
    let mut deny = Vec::new();
    let mut ask = Vec::new();
    for i in 0..n {
        let p = PROGRAMS[i % PROGRAMS.len()];
        let s = SUBS[(i / PROGRAMS.len()) % SUBS.len()];
        let rule = match i % 10 {
            0 => format!("Bash({p} {s} --flag-{i})"),
            1 => format!("Bash({p}:*)"),
            2 => format!("Bash({p} * {s}-{i})"),
            3 => format!("Read(src/gen{i}/**)"),
            4 => format!("Edit(/build/out{i}/**)"),
            _ => format!("Bash({p} {s}{} *)", i / 200),
        };
        match i % 7 {
            0 => deny.push(rule),
            1 => ask.push(rule),
            _ => allow.push(rule),
        }
    }
    json!({"permissions": {"allow": allow, "deny": deny, "ask": ask}})
}

fn context(root: &std::path::Path, n: usize) -> PermissionContext {
    let mut loaded = LoadedSettings::default();
    loaded.add_value(
        RuleSource::Project(root.join(".claude/settings.json")),
        &rules(n),
        root,
        None,
    );
    PermissionContext::from_settings(
        &loaded,
        ContextOptions {
            project_root: root.to_path_buf(),
            trusted: true,
            mode: Some(PermissionMode::Default),
            ..ContextOptions::default()
        },
    )
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The processor time this thread has used (in user and kernel mode): what the work itself cost, whatever else
/// the machine is busy with.
fn thread_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Median processor time per command over `runs` runs of `rounds` passes over the mix.
fn time(runs: usize, rounds: usize, mut f: impl FnMut(&str)) -> Duration {
    let per = (rounds * COMMANDS.len()) as u32;
    let samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = thread_time();
            for _ in 0..rounds {
                for c in COMMANDS {
                    f(c);
                }
            }
            thread_time().saturating_sub(start) / per
        })
        .collect();
    median(samples)
}

fn main() {
    let dir = std::env::temp_dir().join(format!("tandem-perm-bench-{}", std::process::id()));
    let _ = std::fs::create_dir_all(dir.join("src"));
    let root = std::fs::canonicalize(&dir).unwrap_or(dir.clone());
    let rounds = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    let runs = 7;
    let input = json!({});
    // Warm up the parser and the file system cache.
    for c in COMMANDS {
        black_box(parse_tree(c));
    }
    let parse = time(runs, rounds, |c| {
        black_box(parse_tree(c));
    });
    println!(
        "commands in the mix: {}; runs: {runs} x {rounds} passes (medians)",
        COMMANDS.len()
    );
    println!(
        "tree-sitter parse alone: {:>8.2} µs/command  ({:>9.0} commands/s)",
        parse.as_secs_f64() * 1e6,
        1.0 / parse.as_secs_f64()
    );
    for n in [10, 100, 1000] {
        let ctx = context(&root, n);
        let decide = time(runs, rounds, |c| {
            let subject = PermissionSubject::Shell {
                command: c.to_string(),
            };
            black_box(evaluate(
                &ctx,
                &CallView {
                    tool_name: "Bash",
                    input: &input,
                    subject: &subject,
                    read_only: false,
                },
            ));
        });
        println!(
            "decide with {n:>5} rules:   {:>8.2} µs/command  ({:>9.0} decisions/s)  ratio to parse: {:.2}x",
            decide.as_secs_f64() * 1e6,
            1.0 / decide.as_secs_f64(),
            decide.as_secs_f64() / parse.as_secs_f64()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
