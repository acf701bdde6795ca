#!/usr/bin/env python3
"""The WebBrowser tool against Chromium itself: a whole `tandem -p` turn against the fake model server
(`tandem-fake-model`) in which the model navigates to a page served on loopback and reads it (`WEB_BROWSER_TOOL=1`,
an allow rule for 127.0.0.1), against `chromium --headless --dump-dom` loading the same page, each a fresh process
with a fresh browser. Both start a browser, so the ratio is what the tool adds around Chromium's own start and load:
the `tandem -p` process, two model round trips to the fake server, the DevTools connection and the tool calls. A
`tandem -p` turn that only answers (no tool) is timed too, as the part of the tool's time that is not the browser.
They take turns, one run each per round, after 2 warm-up rounds. Prints the median and p90 of each and the ratio of
the medians (no target set).

Usage: benchmarks/webbrowser.py [RUNS]   (default 10; PROFILE=release to time the release build instead of debug,
NO_BUILD=1 to time the binaries already built, CHROMIUM=path for another browser)"""
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROFILE = os.environ.get("PROFILE", "debug")
TARGET = REPO / os.environ.get("CARGO_TARGET_DIR", "target") / PROFILE
WARMUP = 2
PAGE = """<html><head><title>Bench page</title></head><body><h1>Hello bench</h1>
<p id="answer">The answer is 42.</p><form><input id="q"><button>Go</button></form></body></html>"""


def build():
    flags = ["--release"] if PROFILE == "release" else []
    subprocess.run(["cargo", "build", "--quiet", *flags, "-p", "tandem-cli", "--bin", "tandem"], cwd=REPO, check=True)
    subprocess.run(["cargo", "build", "--quiet", *flags, "-p", "tandem-engine", "--features", "test-support",
                    "--bin", "tandem-fake-model"], cwd=REPO, check=True)


def serve() -> str:
    """The page on a free loopback port, served from a thread until the script ends."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/page"


def script(url: str) -> dict:
    """The replies of one turn of each kind: a browsing turn is a navigate, a read of #answer, then the answer; a
    plain turn is the answer alone."""
    return {"browse": [
        {"reply": "stream", "blocks": [
            {"type": "tool_use", "id": "toolu_nav", "name": "WebBrowser", "input": {"action": "navigate", "url": url}}]},
        {"reply": "stream", "blocks": [
            {"type": "tool_use", "id": "toolu_read", "name": "WebBrowser",
             "input": {"action": "read", "selector": "#answer"}}]},
        {"reply": "stream", "blocks": [{"type": "text", "text": "The page says 42."}]},
    ], "plain": [{"reply": "stream", "blocks": [{"type": "text", "text": "The page says 42."}]}]}


def tandem_turn(tandem: str, project: str, env: dict) -> None:
    done = subprocess.run([tandem, "-p", "What does the page say?"], cwd=project, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode != 0 or "42" not in done.stdout:
        sys.exit(f"tandem -p failed ({done.returncode}): {done.stdout}{done.stderr}")


def chromium_load(chromium: str, url: str, profile_root: str) -> None:
    profile = tempfile.mkdtemp(dir=profile_root)
    args = [chromium, "--headless=new", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            f"--user-data-dir={profile}", "--dump-dom", url]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")
    done = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    shutil.rmtree(profile, ignore_errors=True)
    if done.returncode != 0 or "The answer is 42." not in done.stdout:
        sys.exit(f"chromium --dump-dom failed ({done.returncode}): {done.stderr[-500:]}")


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("google-chrome")
    if not chromium:
        sys.exit("no chromium on PATH (scripts/install-deps installs it)")
    if not os.environ.get("NO_BUILD"):
        build()
    tandem = str(TARGET / "tandem")
    url = serve()
    rounds = runs + WARMUP
    with tempfile.TemporaryDirectory() as work:
        home = Path(work, "home")
        home.mkdir()
        projects, servers, envs = {}, [], {}
        replies = script(url)
        try:
            for kind in ("browse", "plain"):
                project = Path(work, kind)
                (project / ".claude").mkdir(parents=True)
                (project / ".claude" / "settings.json").write_text(
                    json.dumps({"permissions": {"allow": ["WebBrowser(domain:127.0.0.1)"]}}))
                script_file = Path(work, f"{kind}.json")
                script_file.write_text(json.dumps({"replies": replies[kind] * rounds}))
                server = subprocess.Popen([str(TARGET / "tandem-fake-model"), str(script_file)],
                                          stdout=subprocess.PIPE, text=True)
                servers.append(server)
                env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
                env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                           XDG_DATA_HOME=str(home / ".local/share"), ANTHROPIC_BASE_URL=server.stdout.readline().strip(),
                           ANTHROPIC_API_KEY="sk-bench", WEB_BROWSER_TOOL="1", TANDEM_CHROMIUM=chromium)
                projects[kind], envs[kind] = str(project), env
            cases = [
                ("tandem -p, navigate + read", lambda: tandem_turn(tandem, projects["browse"], envs["browse"])),
                ("chromium --dump-dom", lambda: chromium_load(chromium, url, work)),
                ("tandem -p, answer only", lambda: tandem_turn(tandem, projects["plain"], envs["plain"])),
            ]
            times = {name: [] for name, _ in cases}
            for round_ in range(rounds):
                for name, turn in cases:
                    start = time.perf_counter()
                    turn()
                    if round_ >= WARMUP:
                        times[name].append(time.perf_counter() - start)
        finally:
            for server in servers:
                server.terminate()
                server.wait()
    print(f"a page on loopback, {runs} runs each, {PROFILE} build, {chromium}")
    for name, samples in times.items():
        samples.sort()
        p90 = samples[min(len(samples) - 1, int(len(samples) * 0.9))]
        print(f"  {name:28} median {statistics.median(samples) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms")
    browse = statistics.median(times["tandem -p, navigate + read"])
    chrome = statistics.median(times["chromium --dump-dom"])
    plain = statistics.median(times["tandem -p, answer only"])
    print(f"ratio tool turn / chromium --dump-dom (medians): {browse / chrome:.2f}")
    print(f"ratio (tool turn - answer-only turn) / chromium --dump-dom: {(browse - plain) / chrome:.2f}")


if __name__ == "__main__":
    main()
