#!/usr/bin/env python3
"""Runs one scripted REPL test: sessions of `cairn repl` fed through a pipe, their output compared
with the expected transcript.

Usage:
    run_repl_test.py --cairn PATH_TO_CAIRN [--keep] FILE.repl

Exit status: 0 when every session printed what the file expects (nothing is printed), 1 when
not (a readable report on standard output), 2 when the file or the command line is malformed.

The file (tests/repl/README.md):
    > TEXT              a line of input to the session (several make one input while it goes on)
    TEXT                the next line of the session's output (standard output and standard
                        error, merged); `#` followed by digits (an object's identity number)
                        matches any number
    ~ REGEX             the next line of output matches REGEX in full
    # TEXT              a comment (a line starting with '#' and a space, or '#' alone)
    --- session         the session ends (its input is closed) and the next one begins
    --- program FILE [ARGS]  `cairn run --store STORE FILE ARGS` before the next session, FILE
                        relative to the test's folder; it must succeed, its output is not compared
    --- bin NAME [ARGS] NAME (an executable in --bin, build/bin) with ARGS, its store the test's
                        ($CAIRN_STORE) and its folder the test's; it must succeed
    --- capture VAR REGEX  the first match of REGEX's group 1 in the output of the last
                        program or bin, as {{VAR}} in the expected lines after it
    --- status N        the session's exit status must be N (default 0)
    --- args ARGS       extra arguments of the next session's `cairn repl` (FILE paths relative to
                        the test's folder when they end in .cairn)
All sessions and programs share one fresh store.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_S = int(os.environ.get("CAIRN_REPL_TEST_TIMEOUT", "300"))
IDENTITY = re.compile(r"#\d+")


class Malformed(Exception):
    pass


class Step:
    def __init__(self, kind, line):
        self.kind = kind          # "session" or "program"
        self.line = line          # where it starts in the file
        self.input = []           # session: input lines
        self.expect = []          # session: (kind, text, line) with kind "text" or "re"
        self.status = 0
        self.args = []            # session: extra arguments; program: FILE ARGS


def parse(path):
    steps = []
    current = None

    def session(lineno):
        nonlocal current
        if current is None or current.kind != "session":
            current = Step("session", lineno)
            steps.append(current)
        return current

    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for lineno, line in enumerate(lines, 1):
        if line == "#" or line.startswith("# "):
            continue
        if line.startswith("--- "):
            words = line[4:].split()
            if not words:
                raise Malformed(f"line {lineno}: '---' needs a word")
            if words[0] == "session":
                session(lineno)
                current = None
            elif words[0] in ("program", "bin"):
                if len(words) < 2:
                    raise Malformed(f"line {lineno}: '--- {words[0]}' needs a file")
                step = Step(words[0], lineno)
                step.args = words[1:]
                steps.append(step)
                current = None
            elif words[0] == "capture":
                if len(words) < 3:
                    raise Malformed(f"line {lineno}: '--- capture' needs a name and a regex")
                step = Step("capture", lineno)
                step.args = [words[1], line[4:].split(None, 2)[2]]
                steps.append(step)
                current = None
            elif words[0] == "status":
                session(lineno).status = int(words[1])
            elif words[0] == "args":
                session(lineno).args += words[1:]
            else:
                raise Malformed(f"line {lineno}: unknown '--- {words[0]}'")
            continue
        if line.startswith("> ") or line == ">":
            session(lineno).input.append(line[2:])
        elif line.startswith("~ "):
            session(lineno).expect.append(("re", line[2:], lineno))
        else:
            session(lineno).expect.append(("text", line, lineno))
    return steps


def normalize(text):
    return IDENTITY.sub("#N", text)


def substitute(text, values):
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values.get(m.group(1), m.group(0)), text)


def check_session(step, out, status, report, values):
    got = out.split("\n")
    if got and got[-1] == "":
        got.pop()
    ok = True
    for i, (kind, text, lineno) in enumerate(step.expect):
        text = substitute(text, values)
        line = got[i] if i < len(got) else None
        if line is None:
            report.append(f"line {lineno}: expected {text!r}, the output ended")
            ok = False
            break
        if kind == "text" and normalize(line) != normalize(text):
            report.append(f"line {lineno}: expected {text!r}\n{'':>10}got      {line!r}")
            ok = False
            break
        if kind == "re" and not re.fullmatch(text, line):
            report.append(f"line {lineno}: expected a match of {text!r}\n{'':>10}got {line!r}")
            ok = False
            break
    if ok and len(got) > len(step.expect):
        report.append(f"session at line {step.line}: more output than expected, from "
                      f"{got[len(step.expect)]!r}")
        ok = False
    if status != step.status:
        report.append(f"session at line {step.line}: exit status {status}, expected {step.status}")
        ok = False
    if not ok:
        report.append("the session's whole output:\n" + out)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cairn", required=True)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--bin", default=None, help="the folder of --- bin executables")
    ap.add_argument("file")
    a = ap.parse_args()
    a.cairn = os.path.abspath(a.cairn)
    try:
        steps = parse(a.file)
    except (Malformed, ValueError) as e:
        print(f"{a.file}: {e}")
        return 2
    folder = os.path.dirname(os.path.abspath(a.file))
    tmp = tempfile.mkdtemp(prefix="cairn-repl-test-")
    store = os.path.join(tmp, "store")
    env = dict(os.environ)
    env["CAIRN_STORE"] = store
    env.pop("CAIRN_HISTORY", None)
    report = []
    values = {}
    last_output = ""
    bin_dir = a.bin or os.path.dirname(a.cairn)
    try:
        for step in steps:
            if step.kind in ("program", "bin"):
                if step.kind == "program":
                    cmd = [a.cairn, "run", "--store", store,
                           os.path.join(folder, step.args[0])] + step.args[1:]
                else:
                    cmd = [os.path.join(bin_dir, step.args[0])] + step.args[1:]
                r = subprocess.run(cmd, cwd=folder if step.kind == "bin" else tmp, env=env,
                                   capture_output=True, text=True, timeout=TIMEOUT_S)
                last_output = r.stdout + r.stderr
                if r.returncode != 0:
                    report.append(f"line {step.line}: {' '.join(cmd)} exited with "
                                  f"{r.returncode}:\n{r.stdout}{r.stderr}")
                    break
                continue
            if step.kind == "capture":
                m = re.search(step.args[1], last_output)
                if not m:
                    report.append(f"line {step.line}: no match of {step.args[1]!r} in:\n"
                                  + last_output)
                    break
                values[step.args[0]] = m.group(1)
                continue
            args = [os.path.join(folder, x) if x.endswith(".cairn") else x for x in step.args]
            cmd = [a.cairn, "repl", "--store", store] + args
            r = subprocess.run(cmd, cwd=folder, env=env, input="\n".join(step.input) + "\n",
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=TIMEOUT_S)
            if not check_session(step, r.stdout, r.returncode, report, values):
                break
    except subprocess.TimeoutExpired as e:
        report.append(f"timed out after {TIMEOUT_S} s: {e.cmd}")
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if report:
        print(f"{a.file}:")
        print("\n".join(report))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
