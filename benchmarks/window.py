#!/usr/bin/env python3
"""Speed and memory of the desktop window against a minimal Tauri 2 app on the same WebKitGTK.

The script generates and builds the baseline (a tiny crate in the target folder, the workspace's tauri version, a
page with a few lines of text), builds Tandem's app, command line and fake model server, then under Xvfb drives both
through tauri-driver / WebKitWebDriver (the way the end-to-end tests do; both apps run under the same automation):

- first paint: the page's first-contentful-paint entry (`performance.getEntriesByType('paint')`, wall time
  `performance.timeOrigin + startTime`) minus the app process's start time (`/proc/PID/stat`, 10 ms ticks);
- PSS: the sum of `/proc/PID/smaps_rollup` Pss over the app and every process below it (WebKitWebProcess,
  WebKitNetworkProcess), after the window has settled: idle with a folder open, after 50 turns with the fake model
  (prompts typed into the prompt box), and with a 10,000-message session reopened from the sidebar (seeded by one
  `tandem -p` turn whose stored rows are copied 5,000 times, see `seed_session`);
- frame times: requestAnimationFrame timestamps collected in the page (a recorder the script injects), while the
  10,000-message transcript scrolls (scrollTop moves 120 px every frame, top to bottom) and while one turn streams
  ~200 text deltas per second. WebKitGTK paces requestAnimationFrame at 60 Hz, so a frame that is on time lasts
  16.7 ms: the figure that matters is the share of frames longer than that (dropped frames), shown with the p95. The
  baseline's frame times idle and while the same scroll runs over 2,000 static paragraphs (the floor of software
  painting under Xvfb) are printed for reference.

Prints each figure's median over the runs with its ratio to the baseline and its target (first paint <= 1.2x;
PSS <= 1.25x idle and <= 1.6x with 10,000 messages; p95 frame within one 60 Hz frame, 17 ms at the timestamps'
1 ms resolution).

Usage: benchmarks/window.py [--profile release|debug] [--runs N] [--turns N] [--no-build]   (honours CARGO_TARGET_DIR)
"""

import argparse
import json
import os
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = (REPO / os.environ.get("CARGO_TARGET_DIR", "target")).resolve()
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def lock_version(name):
    text = (REPO / "Cargo.lock").read_text()
    found = re.search(r'\[\[package\]\]\nname = "%s"\nversion = "([^"]+)"' % re.escape(name), text)
    if not found:
        sys.exit(f"{name} is not in Cargo.lock")
    return found.group(1)


# ---------------------------------------------------------------------------------------------------- building


BASELINE_MAIN = """// A minimal Tauri 2 app: one window, a static page.
fn main() {
    tauri::Builder::default()
        .run(tauri::generate_context!())
        .expect("the window starts");
}
"""

BASELINE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="UTF-8"><title>Baseline</title></head>
<body style="font: 13px sans-serif; background: #0e1014; color: #e6e6e6">
<h1>Baseline</h1>
<p>A minimal Tauri 2 app on the same WebKitGTK, for comparison.</p>
<p>It shows a few lines of text and does nothing else.</p>
</body></html>
"""


def build_baseline(profile):
    """Generates the baseline crate in the target folder and builds it; returns its binary."""
    crate = TARGET / "window-bench-baseline"
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "dist").mkdir(exist_ok=True)
    (crate / "icons").mkdir(exist_ok=True)
    tauri, tauri_build = lock_version("tauri"), lock_version("tauri-build")
    files = {
        "Cargo.toml": f"""[package]
name = "window-bench-baseline"
version = "0.1.0"
edition = "2021"

[workspace]

[build-dependencies]
tauri-build = {{ version = "={tauri_build}", features = [] }}

[dependencies]
tauri = {{ version = "={tauri}", features = ["custom-protocol"] }}

[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false
""",
        "build.rs": "fn main() {\n    tauri_build::build()\n}\n",
        "src/main.rs": BASELINE_MAIN,
        "dist/index.html": BASELINE_PAGE,
        "tauri.conf.json": json.dumps({
            "productName": "Baseline",
            "version": "0.1.0",
            "identifier": "dev.tandem.window-bench-baseline",
            "build": {"frontendDist": "dist"},
            "app": {"windows": [{"label": "main", "title": "Baseline", "width": 1200, "height": 800}],
                    "security": {"csp": None}},
            "bundle": {"active": False, "icon": ["icons/32x32.png", "icons/128x128.png"]},
        }, indent=2),
    }
    for name, text in files.items():
        path = crate / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    for icon in ("32x32.png", "128x128.png"):
        shutil.copyfile(REPO / "icons" / icon, crate / "icons" / icon)
    # Same versions as the workspace: start from its lock file.
    if not (crate / "Cargo.lock").exists():
        shutil.copyfile(REPO / "Cargo.lock", crate / "Cargo.lock")
    flags = ["--release"] if profile == "release" else []
    log(f"building the baseline app ({profile})")
    subprocess.run(["cargo", "build", "-q", *flags, "--manifest-path", str(crate / "Cargo.toml")], check=True,
                   env={**os.environ, "CARGO_TARGET_DIR": str(TARGET)})
    return TARGET / profile / "window-bench-baseline"


def build_tandem(profile):
    """Builds the UI, the app (with its assets embedded), the command line and the fake model server."""
    flags = ["--release"] if profile == "release" else []
    if not (REPO / "ui" / "node_modules").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=REPO / "ui", check=True)
    log("building the UI")
    subprocess.run(["npm", "run", "build", "--silent"], cwd=REPO / "ui", check=True, stdout=subprocess.DEVNULL)
    log(f"building tandem-app, tandem and tandem-fake-model ({profile})")
    subprocess.run(["cargo", "build", "-q", *flags, "-p", "tandem", "--features", "tandem/custom-protocol",
                    "--bin", "tandem-app"], cwd=REPO, check=True)
    subprocess.run(["cargo", "build", "-q", *flags, "-p", "tandem-cli"], cwd=REPO, check=True)
    subprocess.run(["cargo", "build", "-q", *flags, "-p", "tandem-engine", "--features", "test-support",
                    "--bin", "tandem-fake-model"], cwd=REPO, check=True)
    out = TARGET / profile
    return out / "tandem-app", out / "tandem", out / "tandem-fake-model"


# ---------------------------------------------------------------------------------------------------- processes


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children_map():
    kids = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def find_app(binary, driver):
    """The pid of `binary` started by `driver` (tauri-driver -> WebKitWebDriver -> the app), never another run's."""
    real = os.path.realpath(binary)
    for pid in tree(driver.proc.pid):
        try:
            if os.readlink(f"/proc/{pid}/exe") == real:
                return pid
        except OSError:
            pass
    return None


def tree(pid):
    kids, out, todo = children_map(), [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def pss_mib(pid):
    """PSS of `pid` and every process below it, in MiB, with each process's share."""
    total, parts = 0, {}
    for p in tree(pid):
        try:
            rollup = Path(f"/proc/{p}/smaps_rollup").read_text()
            name = Path(f"/proc/{p}/comm").read_text().strip()
        except OSError:
            continue
        kib = int(re.search(r"^Pss:\s+(\d+) kB", rollup, re.M).group(1))
        total += kib
        parts[name] = parts.get(name, 0) + kib / 1024
    return total / 1024, parts


def start_time(pid):
    """Wall-clock start of `pid`, in seconds since the epoch (10 ms resolution)."""
    ticks = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    btime = int(re.search(r"^btime (\d+)", Path("/proc/stat").read_text(), re.M).group(1))
    return btime + ticks / TICKS


def wait_for(what, condition, timeout=120, every=0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(every)


# ---------------------------------------------------------------------------------------------------- WebDriver


class Driver:
    """tauri-driver with the environment the app should see."""

    def __init__(self, env, output):
        self.port = free_port()
        with open(output, "ab") as sink:
            self.proc = subprocess.Popen(["tauri-driver", "--port", str(self.port), "--native-port", str(free_port())],
                                         env=env, stdout=sink, stderr=sink)
        wait_for("tauri-driver", self.ready, timeout=30)

    def ready(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def stop(self):
        """Ends tauri-driver and everything below it (WebKitWebDriver, the app and its WebKit processes): an app
        left running would be measured as the next run's."""
        below = [p for p in tree(self.proc.pid) if p != self.proc.pid]
        self.proc.terminate()
        self.proc.wait()
        for signal_name in ("TERM", "KILL"):
            alive = [p for p in below if Path(f"/proc/{p}").exists()]
            if not alive:
                break
            subprocess.run(["kill", f"-{signal_name}", *map(str, alive)], check=False, stderr=subprocess.DEVNULL)
            try:
                wait_for("the app to exit", lambda: not any(Path(f"/proc/{p}").exists() for p in alive), timeout=10)
            except TimeoutError:
                pass

    def call(self, method, path, body=None):
        # tauri-driver reuses idle connections to WebKitWebDriver, which closes them after a few seconds: such a
        # request fails before it is sent ("SendRequest"), so it is sent again.
        for attempt in range(4):
            try:
                return self.send(method, path, body)
            except ConnectionError:
                if attempt == 3:
                    raise
                time.sleep(0.2)
        return None

    def send(self, method, path, body):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                return json.loads(response.read() or b"{}").get("value")
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {path}: {error.code} {error.read().decode(errors='replace')}") from None
        except OSError as error:
            raise ConnectionError(f"{method} {path}: {error}") from error

    def open(self, binary, args):
        caps = {"browserName": "wry", "tauri:options": {"application": str(binary), "args": [str(a) for a in args]}}
        # tauri-driver can drop the first request while it starts WebKitWebDriver: retry, like the end-to-end tests.
        deadline = time.monotonic() + 60
        while True:
            try:
                value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
                return Session(self, value["sessionId"])
            except OSError as error:
                if time.monotonic() > deadline:
                    raise
                log(f"tauri-driver: {error}; retrying")
                time.sleep(0.5)


class Session:
    def __init__(self, driver, sid):
        self.driver, self.sid = driver, sid

    def js(self, script, *args):
        return self.driver.call("POST", f"/session/{self.sid}/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        value = self.driver.call("POST", f"/session/{self.sid}/element", {"using": "css selector", "value": css})
        return next(iter(value.values()))

    def type(self, css, text):
        element = self.find(css)
        self.driver.call("POST", f"/session/{self.sid}/element/{element}/value", {"text": text})

    def click(self, css):
        element = self.find(css)
        self.driver.call("POST", f"/session/{self.sid}/element/{element}/click", {})

    def close(self):
        try:
            self.driver.call("DELETE", f"/session/{self.sid}")
        except OSError:
            pass


FIRST_PAINT = """
const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
return paint ? performance.timeOrigin + paint.startTime : null;
"""

RECORD_FRAMES = """
window.__benchFrames = [];
window.__benchStop = false;
const tick = (t) => { window.__benchFrames.push(t); if (!window.__benchStop) requestAnimationFrame(tick); };
requestAnimationFrame(tick);
"""

STOP_FRAMES = "window.__benchStop = true; return window.__benchFrames;"

SCROLL = """
const scroller = document.querySelector(arguments[0]);
scroller.scrollTop = 0;
window.__benchFrames = [];
window.__benchStop = false;
const tick = (t) => {
  window.__benchFrames.push(t);
  scroller.scrollTop += 120;
  const end = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1;
  if (end || window.__benchFrames.length > 1200) window.__benchStop = true;
  else requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""


def intervals(stamps):
    return [b - a for a, b in zip(stamps, stamps[1:])]


def frame_stats(stamps):
    gaps = sorted(intervals(stamps))
    if not gaps:
        return {"p50": float("nan"), "p95": float("nan"), "late": float("nan"), "frames": 0}
    p95 = gaps[min(len(gaps) - 1, int(0.95 * len(gaps)))]
    late = sum(1 for g in gaps if g > 1000 / 60 + 2) / len(gaps)
    return {"p50": statistics.median(gaps), "p95": p95, "late": late, "frames": len(gaps)}


# ---------------------------------------------------------------------------------------------------- the fake model


class FakeModel:
    def __init__(self, binary, turns, workdir):
        script = workdir / f"script-{uuid.uuid4().hex[:8]}.json"
        script.write_text(json.dumps({"replies": [{"reply": "stream", **turn} for turn in turns]}))
        self.proc = subprocess.Popen([str(binary), str(script)], stdout=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http"):
            sys.exit(f"{binary} did not start")

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def text_turn(text, **extra):
    return {"blocks": [{"type": "text", "text": text}], **extra}


ANSWER = ("Here is what I found: the folder holds a README and nothing else yet. **Nothing to change.**\n\n"
          "- one\n- two\n- three\n\n```rust\nfn main() {\n    println!(\"hello\");\n}\n```\n")
STREAM_DELTAS = 2000
# 2,000 deltas of 6 characters, 5 ms apart: paragraphs of 50 words, as an answer is written.
STREAM = text_turn("".join(f"word{i % 10}" + ("\n\n" if i % 50 == 49 else " ") for i in range(STREAM_DELTAS)),
                   delta_chars=6, chunk_delay_ms=5)


def app_env(home, model_url):
    env = dict(os.environ)
    env.update({
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "ANTHROPIC_BASE_URL": model_url,
        "ANTHROPIC_API_KEY": "sk-bench",
        "TANDEM_MULTI_INSTANCE": "1",
    })
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    return env


# ---------------------------------------------------------------------------------------------------- seeding


def seed_session(cli, fake_binary, home, folder, workdir, copies=5000):
    """A stored session of 2 * `copies` messages in `folder`: one real `tandem -p` turn against the fake model,
    whose stored messages and events are then copied `copies` times (prompt ids made unique) straight into the
    store. Returns the session id."""
    model = FakeModel(fake_binary, [text_turn(ANSWER)], workdir)
    try:
        subprocess.run([str(cli), "-p", "prompt 0"], cwd=folder, env=app_env(home, model.url), check=True,
                       stdout=subprocess.DEVNULL)
    finally:
        model.stop()
    db = sqlite3.connect(home / ".local" / "share" / "tandem" / "sessions.db")
    (sid,) = db.execute("SELECT id FROM sessions ORDER BY created_at DESC LIMIT 1").fetchone()
    messages = db.execute("SELECT ordinal, role, message, created_at FROM messages WHERE session_id = ? "
                          "ORDER BY ordinal", (sid,)).fetchall()
    events = db.execute("SELECT seq, event, created_at FROM events WHERE session_id = ? ORDER BY seq",
                        (sid,)).fetchall()
    # The turn's events: from the prompt to the end of the turn (session-level events stay once).
    first = next(i for i, (_, event, _) in enumerate(events) if "prompt 0" in event)
    turn = events[first:]
    ids = sorted({m for _, event, _ in turn for m in re.findall(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-"
                                                                  r"[0-9a-f]{4}-[0-9a-f]{12}", event)} - {sid})
    seq = events[-1][0]
    ordinal = messages[-1][0]
    event_rows, message_rows = [], []
    for copy in range(1, copies):
        fresh = {old: str(uuid.uuid4()) for old in ids}

        def renew(text):
            for old, new in fresh.items():
                text = text.replace(old, new)
            return text.replace("prompt 0", f"prompt {copy}")

        for _, event, created in turn:
            seq += 1
            event_rows.append((sid, seq, renew(event), created))
        for _, role, message, created in messages:
            ordinal += 1
            message_rows.append((sid, ordinal, role, renew(message), created))
    db.executemany("INSERT INTO events (session_id, seq, event, created_at) VALUES (?, ?, ?, ?)", event_rows)
    db.executemany("INSERT INTO messages (session_id, ordinal, role, message, created_at) VALUES (?, ?, ?, ?, ?)",
                   message_rows)
    db.commit()
    (count,) = db.execute("SELECT count(*) FROM messages WHERE session_id = ?", (sid,)).fetchone()
    db.close()
    log(f"seeded session {sid}: {count} messages, {len(events) + len(event_rows)} events")
    return sid


# ---------------------------------------------------------------------------------------------------- one run


def settle(seconds=3.0):
    time.sleep(seconds)


def measure_baseline(baseline, workdir):
    home = workdir / "home-baseline"
    home.mkdir(exist_ok=True)
    driver = Driver(app_env(home, "http://127.0.0.1:9"), workdir / "baseline.out")
    try:
        session = driver.open(baseline, [])
        pid = wait_for("the baseline's process", lambda: find_app(baseline, driver))
        painted = wait_for("the baseline's first paint", lambda: session.js(FIRST_PAINT))
        first_paint = painted / 1000 - start_time(pid)
        settle()
        pss, parts = pss_mib(pid)
        session.js(RECORD_FRAMES)
        time.sleep(3)
        frames = frame_stats(session.js(STOP_FRAMES))
        # The floor of scrolling here (software painting under Xvfb): the same scroll over 2,000 static paragraphs.
        session.js("""
          const page = document.createElement('div');
          page.id = 'bench-scroll';
          page.style.cssText = 'height: 90vh; overflow-y: auto';
          for (let i = 0; i < 2000; i++) {
            const p = document.createElement('p');
            p.textContent = `Paragraph ${i}: a few words of text, then some more, like a message in a transcript.`;
            page.appendChild(p);
          }
          document.body.replaceChildren(page);""")
        session.js(SCROLL, "#bench-scroll")
        wait_for("the scroll to finish", lambda: session.js("return window.__benchStop === true"), timeout=300)
        scroll = frame_stats(session.js("return window.__benchFrames"))
        session.close()
        return {"first_paint": first_paint, "pss_idle": pss, "parts_idle": parts, "frames_idle": frames,
                "frames_scroll": scroll}
    finally:
        driver.stop()


def wait_turn(session, prompt):
    """Waits until the prompt's row is in the transcript and no turn is running."""
    wait_for(f"the turn of '{prompt}' to end", lambda: session.js("""
      const shown = [...document.querySelectorAll('[data-testid=transcript] *')]
        .some((element) => element.childElementCount === 0 && element.textContent.trim() === arguments[0]);
      return shown && document.querySelector('[data-testid=working]') === null;""", prompt))


def measure_tandem(app, cli, fake, workdir, turns=50):
    home = workdir / "home-tandem"
    folder = workdir / "folder"
    for d in (home, folder):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
    (folder / "README.md").write_text("# A project\n\nA small folder for the benchmark.\n")
    # The folder is trusted already, so no trust question covers the window.
    data = home / ".local" / "share" / "tandem"
    data.mkdir(parents=True)
    (data / "trust.json").write_text(json.dumps({"trusted": [str(folder.resolve())]}))
    figures = {}
    model = FakeModel(fake, [text_turn(ANSWER) for _ in range(turns)] + [STREAM], workdir)
    driver = Driver(app_env(home, model.url), workdir / "tandem.out")
    try:
        session = driver.open(app, [folder])
        pid = wait_for("the app's process", lambda: find_app(app, driver))
        painted = wait_for("the app's first paint", lambda: session.js(FIRST_PAINT))
        figures["first_paint"] = painted / 1000 - start_time(pid)
        wait_for("the prompt box", lambda: session.js(
            "return document.querySelector('[data-testid=prompt-input]') !== null"))
        settle()
        figures["pss_idle"], figures["parts_idle"] = pss_mib(pid)
        figures["dom_idle"] = session.js("return document.getElementsByTagName('*').length")
        for turn in range(turns):
            session.type("[data-testid=prompt-input]", f"prompt {turn}\ue007")
            wait_turn(session, f"prompt {turn}")
        settle()
        figures["pss_turns"], figures["parts_turns"] = pss_mib(pid)
        figures["dom_turns"] = session.js("return document.getElementsByTagName('*').length")
        session.js(RECORD_FRAMES)
        started = time.monotonic()
        session.type("[data-testid=prompt-input]", "stream a long answer\ue007")
        wait_turn(session, "stream a long answer")
        figures["stream_seconds"] = time.monotonic() - started
        figures["frames_stream"] = frame_stats(session.js(STOP_FRAMES))
        session.close()
    finally:
        driver.stop()
        model.stop()

    # The 10,000-message session, reopened from the sidebar of a new window.
    seed_session(cli, fake, home, folder, workdir)
    model = FakeModel(fake, [], workdir)
    driver = Driver(app_env(home, model.url), workdir / "tandem.out")
    try:
        session = driver.open(app, [folder])
        pid = wait_for("the app's process", lambda: find_app(app, driver))
        wait_for("the session list", lambda: session.js(
            "return document.querySelectorAll('[data-testid=session-item]').length > 1"))
        session.js("""
          const items = [...document.querySelectorAll('[data-testid=session-item]')];
          const big = items.find((item) => /prompt 0/.test(item.textContent)) ?? items[items.length - 1];
          (big.querySelector('button') ?? big).click();
        """)
        wait_for("the reopened transcript", lambda: session.js(
            "const t = document.querySelector('[data-testid=transcript]');"
            "return t !== null && t.scrollHeight > 100000"), timeout=300)
        settle()
        figures["pss_10k"], figures["parts_10k"] = pss_mib(pid)
        session.js(SCROLL, "[data-testid=transcript]")
        wait_for("the scroll to finish", lambda: session.js("return window.__benchStop === true"), timeout=300)
        figures["frames_scroll"] = frame_stats(session.js("return window.__benchFrames"))
        session.close()
    finally:
        driver.stop()
        model.stop()
    return figures


# ---------------------------------------------------------------------------------------------------- report


def median(runs, key, sub=None):
    values = [r[key][sub] if sub else r[key] for r in runs if key in r]
    return statistics.median(values) if values else float("nan")


# One 60 Hz frame (16.7 ms) at the 1 ms resolution of WebKit's requestAnimationFrame timestamps: frames on time
# alternate 16 and 17 ms, so an idle page's p95 is 17 ms.
ON_TIME_FRAME_MS = 17


def line(name, value, unit, base=None, target=None, limit=None):
    text = f"{name:<44} {value:9.1f} {unit:<4}"
    if base is not None:
        ratio = value / base
        text += f"  baseline {base:8.1f} {unit:<4} ratio {ratio:5.2f}x"
        if target is not None:
            text += f" (target <= {target}x: {'ok' if ratio <= target else 'OVER TARGET'})"
    elif limit is not None:
        text += f"  (target <= {limit} {unit}: {'ok' if value <= limit else 'OVER TARGET'})"
    print(text, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", choices=["release", "debug"], default="release")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--no-build", action="store_true",
                        help="use the Tandem binaries already in the target folder (the baseline is still built)")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1280x900x24", sys.executable, *sys.argv])

    baseline = build_baseline(args.profile)
    if args.no_build:
        out = TARGET / args.profile
        app, cli, fake = out / "tandem-app", out / "tandem", out / "tandem-fake-model"
        for binary in (app, cli, fake):
            if not binary.exists():
                sys.exit(f"{binary} is missing: run without --no-build")
    else:
        app, cli, fake = build_tandem(args.profile)
    base_runs, runs = [], []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="tandem-window-bench-") as tmp:
            workdir = Path(tmp)
            try:
                log(f"run {run + 1}/{args.runs}: baseline")
                base = measure_baseline(baseline, workdir)
                log(f"run {run + 1}/{args.runs}: tandem")
                ours = measure_tandem(app, cli, fake, workdir, args.turns)
            except (OSError, RuntimeError, TimeoutError) as error:
                log(f"run {run + 1} failed, left out: {error}")
                continue
        base_runs.append(base)
        runs.append(ours)
        log(json.dumps({"baseline": base, "tandem": ours}, default=str))
    if not runs:
        sys.exit("every run failed")

    print(f"\nWindow benchmark, {args.profile} builds, medians of {len(runs)} runs (WebKitGTK under Xvfb):")
    line("first paint (process start -> FCP)", median(runs, "first_paint") * 1000, "ms",
         median(base_runs, "first_paint") * 1000, 1.2)
    base_pss = median(base_runs, "pss_idle")
    line("PSS idle, folder open", median(runs, "pss_idle"), "MiB", base_pss, 1.25)
    line(f"PSS after {args.turns} turns", median(runs, "pss_turns"), "MiB", base_pss)
    print(f"{'DOM elements idle / after the turns':<44} {median(runs, 'dom_idle'):.0f} / {median(runs, 'dom_turns'):.0f}")
    line("PSS with a 10,000-message session", median(runs, "pss_10k"), "MiB", base_pss, 1.6)
    for key, name in (("frames_scroll", "scrolling the 10,000 messages"),
                      ("frames_stream", "streaming ~200 deltas/s")):
        line(f"frame p95, {name}", median(runs, key, "p95"), "ms", limit=ON_TIME_FRAME_MS)
        print(f"{'':<44} p50 {median(runs, key, 'p50'):.1f} ms, frames later than 18.7 ms: "
              f"{100 * median(runs, key, 'late'):.1f}% of {int(median(runs, key, 'frames'))}")
    print(f"{'baseline idle frames':<44} p50 {median(base_runs, 'frames_idle', 'p50'):.1f} ms, "
          f"p95 {median(base_runs, 'frames_idle', 'p95'):.1f} ms")
    print(f"{'baseline scrolling 2,000 static paragraphs':<44} p50 {median(base_runs, 'frames_scroll', 'p50'):.1f} ms, "
          f"p95 {median(base_runs, 'frames_scroll', 'p95'):.1f} ms")
    print(f"{'streaming turn took':<44} {median(runs, 'stream_seconds'):.1f} s for {STREAM_DELTAS} deltas")
    last = runs[-1]
    for key in ("parts_idle", "parts_turns", "parts_10k"):
        parts = ", ".join(f"{name} {mib:.0f}" for name, mib in sorted(last.get(key, {}).items()))
        print(f"{'last run PSS by process, ' + key[6:]:<44} {parts} (MiB)")


if __name__ == "__main__":
    main()
