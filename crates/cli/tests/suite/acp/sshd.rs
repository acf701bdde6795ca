//! A real OpenSSH server on loopback for the remote tests: its own host key, a client key and `known_hosts` in a
//! temporary folder, key authentication only, one allowed user (a second account, `tandem-remote`, made when the
//! tests run as root), and the environment the remote `tandem acp` needs (`SetEnv`: the fake model's address, that
//! account's Tandem folders, and a PATH with the built `tandem`, or without it). The client is `ssh -F` with a
//! config of the same folder (passed to Tandem as `TANDEM_SSH_COMMAND`), so nothing under `~/.ssh` is read or
//! written.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;

use tokio::io::{AsyncBufReadExt, BufReader};

/// The second account the remote side runs as.
pub const USER: &str = "tandem-remote";

/// Makes sure [`USER`] exists; `None` (with the reason printed) when that cannot be done here.
fn second_user() -> Option<(u32, u32, PathBuf)> {
    static MADE: Mutex<()> = Mutex::new(());
    let _one_at_a_time = MADE.lock().ok()?;
    let root = std::process::Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&root.stdout).trim() != "0" {
        eprintln!("skipped: the remote tests make a second account and run sshd, which needs root");
        return None;
    }
    if !Path::new("/usr/sbin/sshd").exists() {
        eprintln!(
            "skipped: /usr/sbin/sshd is missing (scripts/install-deps installs openssh-server)"
        );
        return None;
    }
    let known = std::process::Command::new("id").arg(USER).output().ok()?;
    if !known.status.success() {
        let made = std::process::Command::new("useradd")
            .args(["-m", "-s", "/bin/bash", USER])
            .status()
            .ok()?;
        assert!(made.success(), "useradd {USER} failed");
    }
    // No password, but not locked (sshd refuses a locked account even a key).
    let unlocked = std::process::Command::new("usermod")
        .args(["-p", "*", USER])
        .status()
        .ok()?;
    assert!(unlocked.success(), "usermod {USER} failed");
    let number = |flag: &str| -> Option<u32> {
        let out = std::process::Command::new("id")
            .args([flag, USER])
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    };
    let home = PathBuf::from(format!("/home/{USER}"));
    Some((number("-u")?, number("-g")?, home))
}

/// A folder of [`USER`]'s (removed when dropped) holding `proj` (the remote project), `bin` (the built `tandem`,
/// hard-linked or copied) and its Tandem folders.
pub struct RemoteHome {
    pub base: PathBuf,
    pub uid: u32,
}

impl RemoteHome {
    pub fn project(&self) -> PathBuf {
        self.base.join("proj")
    }
    pub fn bin(&self) -> PathBuf {
        self.base.join("bin")
    }
}

impl Drop for RemoteHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

impl RemoteHome {
    /// A new folder of [`USER`]'s with the built `tandem` at `bin` (hard-linked or copied); `None` when this machine
    /// cannot make the account (not root, no sshd).
    pub fn new(bin: &Path) -> Option<Self> {
        remote_home(bin)
    }
}

fn remote_home(bin: &Path) -> Option<RemoteHome> {
    let (uid, gid, home) = second_user()?;
    let base = home.join(format!("t-{}", uuid::Uuid::new_v4().simple()));
    for dir in [base.clone(), base.join("proj"), base.join("bin")] {
        std::fs::create_dir_all(&dir).expect("remote folder");
        std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).expect("chown");
    }
    // A hard link (or a copy on another file system), not a symbolic link: the account cannot pass through the
    // folders above the build (a fresh clone's may be readable by its owner only), only reach the file itself.
    let placed = base.join("bin/tandem");
    if std::fs::hard_link(bin, &placed).is_err() {
        std::fs::copy(bin, &placed).expect("copy tandem");
    }
    Some(RemoteHome { base, uid })
}

/// A running sshd; killed (with every sshd it started) when dropped.
pub struct Sshd {
    dir: tempfile::TempDir,
    child: tokio::process::Child,
    pub port: u16,
    pub remote: RemoteHome,
}

fn keygen(path: &Path) {
    let made = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .status()
        .expect("ssh-keygen");
    assert!(made.success());
}

fn free_port() -> u16 {
    let socket = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    socket.local_addr().expect("addr").port()
}

impl Sshd {
    /// Starts sshd for [`USER`] working in `remote`, its sessions seeing the fake model at `model_url`; with the
    /// built `tandem` on their PATH when `with_tandem`.
    pub async fn start(remote: RemoteHome, model_url: &str, with_tandem: bool) -> Self {
        std::fs::create_dir_all("/run/sshd").expect("privilege separation folder");
        let dir = tempfile::tempdir().expect("sshd dir");
        let d = dir.path();
        // sshd reads authorized_keys as the user: the folder must be open to it.
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        keygen(&d.join("host_key"));
        keygen(&d.join("client_key"));
        std::fs::copy(d.join("client_key.pub"), d.join("authorized_keys")).expect("keys");
        std::fs::set_permissions(
            d.join("authorized_keys"),
            std::fs::Permissions::from_mode(0o644),
        )
        .expect("chmod");
        let port = free_port();
        let host_key = std::fs::read_to_string(d.join("host_key.pub")).expect("host key");
        std::fs::write(
            d.join("known_hosts"),
            format!("[127.0.0.1]:{port} {host_key}"),
        )
        .expect("known hosts");
        let path = if with_tandem {
            format!("{}:/usr/local/bin:/usr/bin:/bin", remote.bin().display())
        } else {
            "/usr/bin:/bin".to_string()
        };
        let b = remote.base.display();
        std::fs::write(
            d.join("sshd_config"),
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host_key\nPidFile none\n\
                 AuthorizedKeysFile {d}/authorized_keys\nPubkeyAuthentication yes\nPasswordAuthentication no\n\
                 KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\nAllowUsers {USER}\n\
                 SetEnv ANTHROPIC_BASE_URL={model_url} ANTHROPIC_API_KEY=sk-remote XDG_CONFIG_HOME={b}/config \
                 XDG_DATA_HOME={b}/data PATH={path} NO_UPDATE_NOTIFIER=1\n",
                d = d.display(),
            ),
        )
        .expect("sshd config");
        std::fs::write(
            d.join("ssh_config"),
            format!(
                "Host *\n  IdentityFile {d}/client_key\n  IdentitiesOnly yes\n  UserKnownHostsFile {d}/known_hosts\n\
                 \x20 GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n  ControlMaster no\n  LogLevel ERROR\n",
                d = d.display()
            ),
        )
        .expect("ssh config");
        let mut child = tokio::process::Command::new("/usr/sbin/sshd")
            .args(["-D", "-e", "-f"])
            .arg(d.join("sshd_config"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("sshd starts");
        // Ready when it says it listens; its later log goes on to the test's stderr.
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        loop {
            match lines.next_line().await.expect("sshd log") {
                Some(line) if line.contains("Server listening") => break,
                Some(line) => eprintln!("sshd: {line}"),
                None => panic!("sshd ended before listening"),
            }
        }
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                eprintln!("sshd: {line}");
            }
        });
        Self {
            dir,
            child,
            port,
            remote,
        }
    }

    /// What Tandem runs instead of `ssh`: the system's client with this server's config.
    pub fn ssh_command(&self) -> String {
        format!("ssh -F {}", self.dir.path().join("ssh_config").display())
    }

    /// `ssh://tandem-remote@127.0.0.1:PORT/<remote project>`.
    pub fn url(&self) -> String {
        format!(
            "ssh://{USER}@127.0.0.1:{}{}",
            self.port,
            self.remote.project().display()
        )
    }

    /// Kills sshd and every sshd process it started (the server gone: its connections drop).
    pub fn kill(&mut self) {
        let Some(pid) = self.child.id() else {
            return;
        };
        let mut all = vec![pid];
        let mut at = 0;
        while at < all.len() {
            all.extend(children(all[at]));
            at += 1;
        }
        for pid in all {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            if comm.trim().starts_with("sshd") {
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
        }
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
            // The parent is the second field after the command's closing parenthesis.
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                == Some(pid)
        })
        .collect()
}
