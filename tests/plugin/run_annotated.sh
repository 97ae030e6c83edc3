#!/usr/bin/env bash
# Runs the `RUN:` lines of an annotated test file (an .ll or .c file with `; RUN:` or `// RUN:`
# comments, in the manner of LLVM's lit), each as one bash pipeline with pipefail; the test
# passes when every line succeeds. Substitutions:
#   %opt %FileCheck %not %split-file %clang   the tools (from the environment, see CMakeLists)
#   %plugin    the CairnDescriptors plugin       %include   runtime/include
#   %s         this file   %S  its folder        %t         a scratch path for this test
# Usage: run_annotated.sh FILE SCRATCH_DIR
set -euo pipefail
file="$1"
scratch="$2"
mkdir -p "$scratch"
name="$(basename "$file")"
tmp="$scratch/$name.tmp"

mapfile -t lines < <(sed -n -E 's@^[[:space:]]*(;|//)[[:space:]]*RUN:[[:space:]]?(.*)$@\2@p' "$file")
if [ ${#lines[@]} -eq 0 ]; then
  echo "$file: no RUN: lines" >&2
  exit 2
fi
for line in "${lines[@]}"; do
  cmd="$line"
  cmd="${cmd//%FileCheck/${FILECHECK:-}}"
  cmd="${cmd//%not/${NOT:-}}"
  cmd="${cmd//%opt/${OPT:-}}"
  cmd="${cmd//%plugin/${PLUGIN:-}}"
  cmd="${cmd//%split-file/${SPLIT_FILE:-}}"
  cmd="${cmd//%clang/${CLANG:-}}"
  cmd="${cmd//%include/${INCLUDE:-}}"
  cmd="${cmd//%s/$file}"
  cmd="${cmd//%S/$(dirname "$file")}"
  cmd="${cmd//%t/$tmp}"
  echo "RUN: $cmd"
  if ! bash -o pipefail -c "$cmd"; then
    echo "FAILED: $line" >&2
    exit 1
  fi
done
