#!/usr/bin/env bash
# Permission decisions per second (single-threaded) for a realistic mix of compound commands against 10, 100 and
# 1,000 rules, printed beside tree-sitter's parse time for the same commands, with the ratio.
# Targets: a decision costs at most 3x the parse alone; with 100 rules at least 20,000 decisions per second.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet --release -p tandem-engine --example permissions_bench
