#!/usr/bin/env bash
# Runs the front end's fuzz target for CAIRN_FUZZ_SECONDS (default 60) on a corpus seeded with
# every .cairn file under the given folder. Fails on any crash, sanitizer report or hang (a
# single input taking more than 10 s). Usage: run_fuzz.sh FUZZER SEED_DIR WORK_DIR
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3
seconds=${CAIRN_FUZZ_SECONDS:-60}
mkdir -p "$work/corpus" "$work/artifacts"
find "$seeds" -name '*.cairn' -exec cp {} "$work/corpus/" \; 2>/dev/null || true
cd "$work"
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=8192 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/corpus"
