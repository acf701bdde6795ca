#!/usr/bin/env bash
# Peak memory of one Edit of a huge text file: the `tandem` binary (crates/cli) running `tool --calls` (a Read of 5
# lines, then an Edit replacing one unique line in the middle) against Python doing the same change the plain way
# (read the file, replace, write a temporary file, rename), in the same run, on a 1 GiB file made anew in a
# temporary folder. Prints each one's peak resident memory (`/usr/bin/time`), its multiple of the file size, and the
# ratio Tandem / Python (Python holds the old and the new text: twice the file).
# Target: at most 2.5× the file size (the old bytes and the new text, plus the process).
# Usage: benchmarks/edit_large.sh   (SIZE_MIB=N for another file size; TANDEM_BIN=path to skip the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MIB=${SIZE_MIB:-1024}
if [ ! -x /usr/bin/time ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq time >/dev/null || { echo "edit_large.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
fi
if [ -z "${TANDEM_BIN:-}" ]; then
  cargo build --quiet --release -p tandem-cli
  TANDEM_BIN="$(realpath "${CARGO_TARGET_DIR:-target}/release/tandem")"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/project"
exec env HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
  python3 - "$SIZE_MIB" "$work" "$TANDEM_BIN" <<'PY'
import json
import re
import subprocess
import sys
from pathlib import Path

size_mib, work, tandem = int(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
project = work / "project"
big = project / "big.txt"
line = b"the quick brown fox jumps over the lazy dog, a line of a very large text file\n"
lines = (size_mib << 20) // len(line)


def make():
    with open(big, "wb") as f:
        block = line * 100_000
        for start in range(0, lines, 100_000):
            count = min(100_000, lines - start)
            if start <= lines // 2 < start + count:
                before = lines // 2 - start
                f.write(line * before + b"THE ONE MARKER LINE\n" + line * (count - before))
            else:
                f.write(block if count == 100_000 else line * count)


def peak_kib(cmd, stdin=None):
    out = subprocess.run(["/usr/bin/time", "-v", *cmd], input=stdin, capture_output=True, check=True)
    kib = int(re.search(rb"Maximum resident set size \(kbytes\): (\d+)", out.stderr).group(1))
    return kib, out.stdout


make()
size = big.stat().st_size
calls = "\n".join(json.dumps(c) for c in [
    {"tool": "Read", "input": {"file_path": str(big), "limit": 5}},
    {"tool": "Edit", "input": {"file_path": str(big), "old_string": "THE ONE MARKER LINE",
                               "new_string": "THE CHANGED MARKER LINE"}},
]) + "\n"
tandem_kib, out = peak_kib([tandem, "tool", "--calls", "-", "--cwd", str(project), "--permission-mode",
                            "acceptEdits"], calls.encode())
answers = [json.loads(l) for l in out.decode().splitlines()]
assert all(not a["is_error"] for a in answers), answers

make()
peer = f"""
import os
p = {str(big)!r}
data = open(p, 'rb').read()
new = data.replace(b'THE ONE MARKER LINE', b'THE CHANGED MARKER LINE', 1)
tmp = p + '.tmp'
with open(tmp, 'wb') as f:
    f.write(new)
    f.flush()
    os.fsync(f.fileno())
os.rename(tmp, p)
"""
python_kib, _ = peak_kib([sys.executable, "-c", peer])

mib = size / (1 << 20)
print(f"file: {mib:.0f} MiB")
print(f"tandem Edit  peak {tandem_kib / 1024:8.0f} MiB  {tandem_kib * 1024 / size:4.2f}x the file")
print(f"python peer  peak {python_kib / 1024:8.0f} MiB  {python_kib * 1024 / size:4.2f}x the file")
print(f"ratio tandem / python: {tandem_kib / python_kib:.2f}x")
PY
