//! The bridge that runs inside the sandbox when the network goes through the proxy: it listens on a loopback port
//! of the sandbox's own network namespace, carries each connection to the proxy's Unix socket (bound into the
//! sandbox), and runs the command with the proxy variables pointing at that port. It exits with the command's
//! status. Started as `tandem-sandbox-bridge --socket PATH -- PROGRAM ARGS…` (or a host program's hidden
//! `__sandbox-bridge` argument).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The hidden argument a host program (`tandem`, the app) answers by running [`bridge_main`].
pub const BRIDGE_ARG: &str = "__sandbox-bridge";
/// The file name of the stand-alone bridge program.
pub const BRIDGE_BIN: &str = "tandem-sandbox-bridge";
/// The environment variable naming the bridge program.
pub const BRIDGE_ENV: &str = "TANDEM_SANDBOX_BRIDGE";

static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// Sets the bridge program for this process (tests point it at the built `tandem-sandbox-bridge`). The first call
/// wins.
pub fn set_bridge_program(path: PathBuf) {
    let _ = PROGRAM.set(path);
}

/// How to start the bridge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BridgeProgram {
    pub program: PathBuf,
    /// Arguments before the bridge's own (the hidden argument of a host program).
    pub lead: Vec<String>,
}

impl BridgeProgram {
    /// The bridge: the program set for this process, else `$TANDEM_SANDBOX_BRIDGE`, else `tandem-sandbox-bridge`
    /// beside the running program, else the running program itself with its hidden argument (`tandem` and the app
    /// answer it). `None` when none of these can be found.
    pub fn locate() -> Option<Self> {
        let plain = |program: PathBuf| Self {
            program,
            lead: Vec::new(),
        };
        if let Some(p) = PROGRAM.get() {
            return Some(plain(p.clone()));
        }
        if let Some(p) = std::env::var_os(BRIDGE_ENV).map(PathBuf::from)
            && p.is_file()
        {
            return Some(plain(p));
        }
        let exe = std::env::current_exe().ok()?;
        let beside = exe.with_file_name(BRIDGE_BIN);
        if beside.is_file() {
            return Some(plain(beside));
        }
        Some(Self {
            program: exe,
            lead: vec![BRIDGE_ARG.to_string()],
        })
    }

    /// The words that start the bridge for `socket` (the command follows after `--`).
    pub fn command(&self, socket: &Path) -> Vec<String> {
        let mut words = vec![self.program.to_string_lossy().to_string()];
        words.extend(self.lead.iter().cloned());
        words.extend(["--socket".to_string(), socket.to_string_lossy().to_string()]);
        words
    }
}

/// Runs the bridge when the process's first argument is [`BRIDGE_ARG`] (a host program's hidden argument) and
/// returns its exit code; `None` when the process was started for something else. The arguments are read as the
/// system gives them, so one that is not UTF-8 is an error of the bridge, never a panic.
pub fn bridge_if_asked() -> Option<i32> {
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() != Some(std::ffi::OsStr::new(BRIDGE_ARG)) {
        return None;
    }
    Some(bridge_main_os(args))
}

/// [`bridge_main`] with the arguments as the system gives them (`std::env::args_os`, without the program name).
pub fn bridge_main_os(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let args: Result<Vec<String>, _> = args.into_iter().map(|a| a.into_string()).collect();
    match args {
        Ok(args) => bridge_main(&args),
        Err(bad) => {
            eprintln!("tandem sandbox bridge: an argument is not valid UTF-8: {bad:?}");
            125
        }
    }
}

/// Runs the bridge with its arguments (`--socket PATH -- PROGRAM ARGS…`, without the program name) and returns the
/// exit code for the process: the command's, or 128 + the signal that ended it; 125 when the bridge itself fails.
pub fn bridge_main(args: &[String]) -> i32 {
    match run(args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("tandem sandbox bridge: {message}");
            125
        }
    }
}

fn run(args: &[String]) -> Result<i32, String> {
    let (socket, command) = match args {
        [flag, socket, sep, command @ ..] if flag == "--socket" && sep == "--" => {
            (PathBuf::from(socket), command)
        }
        _ => return Err("usage: --socket PATH -- PROGRAM [ARGS…]".into()),
    };
    let Some((program, rest)) = command.split_first() else {
        return Err("no program to run".into());
    };
    let listener = TcpListener::bind(("127.0.0.1", 0))
        .map_err(|e| format!("cannot listen on the sandbox's loopback: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bridge's port: {e}"))?
        .port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let socket = socket.clone();
            std::thread::spawn(move || carry(stream, &socket));
        }
    });
    let proxy = format!("http://127.0.0.1:{port}");
    let mut child = Command::new(program);
    child.args(rest);
    for name in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "http_proxy",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        child.env(name, &proxy);
    }
    child.env_remove("NO_PROXY").env_remove("no_proxy");
    let status = child
        .status()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    use std::os::unix::process::ExitStatusExt;
    Ok(status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(125))
}

/// Carries one connection between the sandbox's loopback and the proxy's socket until both sides are done.
fn carry(tcp: TcpStream, socket: &Path) {
    let Ok(unix) = UnixStream::connect(socket) else {
        return;
    };
    let (Ok(tcp_back), Ok(unix_back)) = (tcp.try_clone(), unix.try_clone()) else {
        return;
    };
    let up = std::thread::spawn(move || {
        pump(tcp, unix, |u| {
            let _ = u.shutdown(Shutdown::Write);
        })
    });
    pump(unix_back, tcp_back, |t| {
        let _ = t.shutdown(Shutdown::Write);
    });
    let _ = up.join();
}

fn pump<R: Read, W: Write>(mut from: R, mut to: W, close: impl FnOnce(&W)) {
    let mut buf = [0u8; 16 * 1024];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
        }
    }
    close(&to);
}
