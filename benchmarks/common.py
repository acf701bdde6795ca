"""What the file-tool benchmarks share: the Linux kernel source tree (Debian's linux-source-6.1, unpacked once
into benchmarks/.cache/), the release build of the engine's bench driver, and timing helpers."""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CACHE = HERE / ".cache"
TARBALL = Path("/usr/src/linux-source-6.1.tar.xz")
TREE = CACHE / "linux-source-6.1"
# Cargo's target folder: CARGO_TARGET_DIR when set (relative to the repository, where cargo runs), else target/.
TARGET = REPO / os.environ.get("CARGO_TARGET_DIR", "target")
BENCH = TARGET / "release" / "examples" / "file_tools_bench"


def kernel_tree() -> str:
    """The kernel tree, reached through a link outside this repository so that the repository's own .gitignore
    (which ignores benchmarks/.cache) does not hide it. It is made a git checkout so that the kernel's own
    .gitignore files apply, as in a real clone; Debian's top-level "ignore everything" lines are removed."""
    if not TREE.exists():
        if not TARBALL.exists():
            subprocess.run(["apt-get", "install", "-y", "linux-source-6.1"], check=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        print(f"unpacking {TARBALL} into {CACHE} (once)...", file=sys.stderr)
        subprocess.run(["tar", "xf", str(TARBALL), "-C", str(CACHE)], check=True)
    gitignore = TREE / ".gitignore"
    lines = gitignore.read_text().split("\n")
    kept = [l for l in lines if l not in ("/*", "!/debian/")]
    if kept != lines:
        gitignore.write_text("\n".join(kept))
    if not (TREE / ".git").exists():
        subprocess.run(["git", "init", "-q", str(TREE)], check=True)
    link = Path(tempfile.gettempdir()) / "tandem-bench-linux"
    if not link.is_symlink() or os.readlink(link) != str(TREE):
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(TREE)
    return str(link)


def build_bench() -> str:
    """Builds the engine's bench driver in release mode (only the engine, never the app)."""
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "tandem-engine", "--example", "file_tools_bench", "--features", "test-support"],
        cwd=REPO,
        check=True,
    )
    return str(BENCH)


def timed(cmd, **kw):
    """Runs `cmd` (list, or str for a shell), returning (seconds, completed process)."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, shell=isinstance(cmd, str), **kw)
    return time.perf_counter() - start, proc


def median_ms(samples):
    return statistics.median(samples) * 1000.0


def report(name, ours_ms, peer_ms, peer_name, target, extra=""):
    ratio = ours_ms / peer_ms if peer_ms > 0 else float("inf")
    verdict = "ok" if ratio <= target else "OVER TARGET"
    print(f"{name:<44} tool {ours_ms:8.1f} ms   {peer_name} {peer_ms:8.1f} ms   ratio {ratio:5.2f}x "
          f"(target {target}x: {verdict}) {extra}")
    return ratio
