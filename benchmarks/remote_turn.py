#!/usr/bin/env python3
"""A scripted turn over loopback SSH (`tandem -p --remote ssh://tandem-remote@127.0.0.1:PORT/…`) against the same
turn run locally (`tandem -p`), both against the fake model server (`tandem-fake-model --print-requests`), each turn a
Read of README.md and an answer. The remote side is a real sshd on loopback (its own host key, key auth only) and a
second account, `tandem-remote`, whose `tandem acp` is the built binary (on its PATH through sshd's SetEnv, as in
the tests); the remote runs are timed twice: a new SSH connection per turn, and with OpenSSH connection sharing
(ControlMaster auto, ControlPersist) as a person's ssh config may set it. They take turns, one run each per round,
after 2 warm-up rounds. Prints the medians and p90s, the ratio of each remote median to the local one (target
<= 1.3), and the median time from the command's start to the model's first request (target <= 1 s).

Needs root (it makes the account and runs sshd). Usage: benchmarks/remote_turn.py [RUNS]   (default 20;
PROFILE=debug to time the debug build instead of release, NO_BUILD=1 to time the binaries already built)"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROFILE = os.environ.get("PROFILE", "release")
TARGET = REPO / os.environ.get("CARGO_TARGET_DIR", "target") / PROFILE
WARMUP = 2
USER = "tandem-remote"


def build():
    flags = ["--release"] if PROFILE == "release" else []
    subprocess.run(["cargo", "build", "--quiet", *flags, "-p", "tandem-cli", "--bin", "tandem"], cwd=REPO, check=True)
    subprocess.run(["cargo", "build", "--quiet", *flags, "-p", "tandem-engine", "--features", "test-support",
                    "--bin", "tandem-fake-model"], cwd=REPO, check=True)


def script(turns: int, path: str) -> dict:
    """Two replies per turn: text with a Read of the README (by absolute path), then the answer."""
    replies = []
    for n in range(turns):
        replies.append({"reply": "stream", "blocks": [
            {"type": "text", "text": "Let me read the README."},
            {"type": "tool_use", "id": f"toolu_{n}", "name": "Read", "input": {"file_path": path}},
        ]})
        replies.append({"reply": "stream", "blocks": [{"type": "text", "text": "The README says 42."}]})
    return {"replies": replies}


def second_user() -> tuple:
    if os.geteuid() != 0:
        sys.exit("remote_turn.py makes a second account and runs sshd: run it as root")
    if subprocess.run(["id", USER], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "-m", "-s", "/bin/bash", USER], check=True)
    subprocess.run(["usermod", "-p", "*", USER], check=True)
    ids = [int(subprocess.run(["id", flag, USER], capture_output=True, text=True, check=True).stdout)
           for flag in ("-u", "-g")]
    return ids[0], ids[1], Path(f"/home/{USER}")


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_sshd(work: Path, base: Path, model_url: str) -> tuple:
    """sshd on a free loopback port for USER; returns (process, port, plain ssh config, shared ssh config)."""
    os.chmod(work, 0o755)
    for key in ("host_key", "client_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(work / key)], check=True)
    shutil.copy(work / "client_key.pub", work / "authorized_keys")
    os.chmod(work / "authorized_keys", 0o644)
    port = free_port()
    (work / "known_hosts").write_text(f"[127.0.0.1]:{port} {(work / 'host_key.pub').read_text()}")
    (work / "sshd_config").write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {work}/host_key\nPidFile none\n"
        f"AuthorizedKeysFile {work}/authorized_keys\nPubkeyAuthentication yes\nPasswordAuthentication no\n"
        f"KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\nAllowUsers {USER}\n"
        f"SetEnv ANTHROPIC_BASE_URL={model_url} ANTHROPIC_API_KEY=sk-bench XDG_CONFIG_HOME={base}/config "
        f"XDG_DATA_HOME={base}/data PATH={base}/bin:/usr/local/bin:/usr/bin:/bin\n")
    client = (f"Host *\n  IdentityFile {work}/client_key\n  IdentitiesOnly yes\n  UserKnownHostsFile {work}/known_hosts\n"
              f"  GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n  LogLevel ERROR\n")
    (work / "ssh_plain").write_text(client + "  ControlMaster no\n")
    (work / "ssh_shared").write_text(client + f"  ControlMaster auto\n  ControlPath {work}/cm-%C\n  ControlPersist 60\n")
    Path("/run/sshd").mkdir(exist_ok=True)
    sshd = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", str(work / "sshd_config")],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in sshd.stderr:
        if "Server listening" in line:
            break
    else:
        sys.exit("sshd did not start")
    threading.Thread(target=lambda: [None for _ in sshd.stderr], daemon=True).start()
    return sshd, port, work / "ssh_plain", work / "ssh_shared"


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    if not os.environ.get("NO_BUILD"):
        build()
    tandem = str(TARGET / "tandem")
    uid, gid, user_home = second_user()
    base = user_home / f"bench-{uuid.uuid4().hex[:12]}"
    with tempfile.TemporaryDirectory() as work_dir:
        work = Path(work_dir)
        home, local_project = work / "home", work / "project"
        for folder in (home, local_project):
            folder.mkdir()
        (local_project / "README.md").write_text("# Demo\nThe answer is 42.\n")
        for folder in (base, base / "proj", base / "bin"):
            folder.mkdir()
            os.chown(folder, uid, gid)
        (base / "proj/README.md").write_text("# Demo\nThe answer is 42.\n")
        os.chown(base / "proj/README.md", uid, gid)
        os.symlink(tandem, base / "bin/tandem")
        # The same absolute path on both sides would differ; each case gets its own script entries in order.
        cases = ["local", "remote, new connection", "remote, shared connection"]
        total = runs + WARMUP
        replies = []
        for _ in range(total):
            for case in cases:
                path = str(local_project / "README.md") if case == "local" else str(base / "proj/README.md")
                replies += script(1, path)["replies"]
        script_file = work / "script.json"
        script_file.write_text(json.dumps({"replies": replies}))
        server = subprocess.Popen([str(TARGET / "tandem-fake-model"), "--print-requests", str(script_file)],
                                  stdout=subprocess.PIPE, text=True)
        arrivals = []
        sshd = None
        try:
            url = server.stdout.readline().strip()

            def read_requests():
                for line in server.stdout:
                    parts = line.split()
                    if len(parts) == 3 and parts[0] == "request":
                        arrivals.append(int(parts[2]) / 1000)
            threading.Thread(target=read_requests, daemon=True).start()
            sshd, port, plain, shared = start_sshd(work, base, url)
            remote_url = f"ssh://{USER}@127.0.0.1:{port}{base}/proj"
            env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_") and k != "SSH_AUTH_SOCK"}
            env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"))
            commands = {
                "local": ([tandem, "-p", "What is it?"], dict(env, ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY="sk-bench")),
                "remote, new connection": ([tandem, "-p", "What is it?", "--remote", remote_url],
                                           dict(env, TANDEM_SSH_COMMAND=f"ssh -F {plain}")),
                "remote, shared connection": ([tandem, "-p", "What is it?", "--remote", remote_url],
                                              dict(env, TANDEM_SSH_COMMAND=f"ssh -F {shared}")),
            }
            times = {case: [] for case in cases}
            first = {case: [] for case in cases}
            ordinal = 0
            for round_ in range(total):
                for case in cases:
                    argv, case_env = commands[case]
                    # Every run makes two requests, in order: this run's first is request 2 * ordinal.
                    seen = 2 * ordinal
                    ordinal += 1
                    wall = time.time()
                    start = time.perf_counter()
                    done = subprocess.run(argv, cwd=local_project, env=case_env, stdin=subprocess.DEVNULL,
                                          capture_output=True, text=True)
                    elapsed = time.perf_counter() - start
                    if done.returncode != 0 or "42" not in done.stdout:
                        sys.exit(f"{case} failed ({done.returncode}): {done.stdout}\n{done.stderr}")
                    if round_ >= WARMUP:
                        times[case].append(elapsed)
                        # The server prints each request as it arrives; its line may still be on its way here.
                        deadline = time.time() + 5
                        while len(arrivals) <= seen and time.time() < deadline:
                            time.sleep(0.001)
                        first[case].append(arrivals[seen] - wall)
        finally:
            if sshd:
                sshd.kill()
                sshd.wait()
            server.terminate()
            server.wait()
            shutil.rmtree(base, ignore_errors=True)
    print(f"one scripted turn (Read README.md, then the answer), {runs} runs each, {PROFILE} build, loopback SSH")
    for case in cases:
        samples = sorted(times[case])
        p90 = samples[min(len(samples) - 1, int(len(samples) * 0.9))]
        print(f"  {case:26} median {statistics.median(samples) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms   "
              f"first model request after {statistics.median(first[case]) * 1000:6.1f} ms (median)")
    local = statistics.median(times["local"])
    for case in cases[1:]:
        print(f"ratio {case} / local (medians): {statistics.median(times[case]) / local:.2f}   (target <= 1.3)")
    print(f"start to first model request, remote (median, new connection): "
          f"{statistics.median(first['remote, new connection']) * 1000:.0f} ms   (target <= 1000 ms)")


if __name__ == "__main__":
    main()
