#!/bin/sh
# check.sh PROGRAM SCRATCH MODE: writes the database, runs PROGRAM MODE on it, and checks that the
# runtime's faults were served without a stack dump from LLVM (none before SERVED on stderr), and
# that the real crash got LLVM's stack dump, once, and killed the process by SIGSEGV (status 139
# from the shell). With EXPECT_FAILURE=1, checks that this does not hold (the control).
set -u
prog=$1 scratch=$2 mode=$3
store=$scratch/llvm_signals-$mode.store
rm -rf "$store"
mkdir -p "$scratch"
"$prog" write "$store" || { echo "FAIL: write"; exit 1; }
"$prog" "$mode" "$store" >"$scratch/$mode.out" 2>"$scratch/$mode.err"
status=$?
rm -rf "$store"
echo "--- stdout"; cat "$scratch/$mode.out"; echo "--- stderr"; cat "$scratch/$mode.err"
problem=""
grep -q '^SERVED$' "$scratch/$mode.out" || problem="the runtime's faults were not served"
grep -q 'TOUCHED' "$scratch/$mode.out" && problem="the forbidden page was read"
[ "$status" -eq 139 ] || problem="exit status $status, expected 139 (SIGSEGV)"
dumps=$(awk '/^SERVED$/ { served = 1 }
             /llvm::sys::PrintStackTrace/ { if (served) after++; else before++ }
             END { printf "%d %d", before, after }' "$scratch/$mode.err")
[ "$dumps" = "0 1" ] || problem="LLVM's stack dumps before and after SERVED: $dumps, expected 0 1"
if [ "${EXPECT_FAILURE:-0}" = 1 ]; then
  [ -n "$problem" ] || { echo "FAIL: the control passed"; exit 1; }
  echo "ok (the control fails as expected: $problem)"
  exit 0
fi
[ -z "$problem" ] || { echo "FAIL: $problem"; exit 1; }
echo "ok"
