#!/usr/bin/env python3
"""Runs one annotated Cairn test program and checks it against its annotations.

Usage:
    run_lang_test.py --cairn PATH_TO_CAIRN [--runtime-dir DIR] [--opt -O0|-O2] [--keep] FILE
    run_lang_test.py --list-annotations FILE      (prints what the runner read, runs nothing)

Exit status: 0 when the program behaved as annotated (nothing is printed), 1 when it did not
(a readable report on standard output), 2 when the test file or the command line is malformed.

Annotations (tests/lang/README.md has the details), each a `//` comment anywhere on a line:
    // expect: TEXT              one line of standard output (`// expect:` alone: an empty line)
    // expect re: REGEX          one line of standard output matching REGEX in full
    // error: LINE: PART         a compile error at LINE whose message contains PART
                                 (the file is then only checked with `cairn check FILE`)
    // runtime error: PART       the run exits with status 70 and standard error contains PART
    // exit: N                   the run exits with status N
    // stderr: PART              standard error contains PART (the status is unaffected)
    // stderr lacks: PART        standard error does not contain PART
    // run: ARGS                 a new run of this program with ARGS (split on spaces)
    // run program: PATH ARGS    a new run of another program (PATH relative to this file's folder)
    // stdin: TEXT               one line of the run's standard input
Expectations belong to the run started by the nearest `// run...:` above them; expectations
above the first one belong to a first run with no arguments (which exists only if there are
such expectations, or if there is no `// run...:` at all). All runs share one fresh store
(CAIRN_STORE points at a directory that does not exist yet, in a temporary folder).
"""

import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Seconds per run; the GC stress runs set CAIRN_LANG_RUN_TIMEOUT higher (a collection at every
# allocation in a Debug runtime).
RUN_TIMEOUT_S = int(os.environ.get("CAIRN_LANG_RUN_TIMEOUT", "60"))
BUILD_TIMEOUT_S = 600
RUNTIME_ERROR_STATUS = 70

# The annotation markers, longest first where one is a prefix of another.
ANNOTATION = re.compile(
    r"//\s?(expect re|expect|error|runtime error|exit|stderr lacks|stderr|run program|run|stdin):(?: (.*))?$")
# A compile error line on standard error: FILE:LINE:COL: error: MESSAGE
REPORTED_ERROR = re.compile(r"^(\S.*?):(\d+):(\d+): error: (.*)$")


class Malformed(Exception):
    """The test file's annotations do not make sense."""


class Run:
    def __init__(self, program, args, origin):
        self.program = program      # absolute path of the program to build
        self.args = args            # list of arguments
        self.origin = origin        # "line N" where the run was declared, for reports
        self.expect = []            # list of (kind, text, line): kind "text" or "re"
        self.runtime_errors = []    # list of (part, line)
        self.stderr = []            # list of (part, line): parts of standard error, any status
        self.stderr_lacks = []      # list of (part, line): not in standard error
        self.exit = None            # expected exit status, None: default
        self.stdin = []             # lines of standard input

    def has_expectations(self):
        return bool(self.expect or self.runtime_errors or self.stderr or self.stderr_lacks or
                    self.exit is not None or self.stdin)

    def expected_status(self):
        if self.exit is not None:
            return self.exit
        return RUNTIME_ERROR_STATUS if self.runtime_errors else 0

    def describe(self):
        name = os.path.basename(self.program)
        return "%s %s (%s)" % (name, " ".join(self.args), self.origin) if self.args else \
            "%s (%s)" % (name, self.origin)


class Test:
    def __init__(self, path):
        self.path = path
        self.errors = []            # list of (line, part, annotation line)
        self.runs = []


def parse(path):
    """Reads the annotations of the test file at path."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    folder = os.path.dirname(path)
    test = Test(path)
    implicit = Run(path, [], "the first run")
    runs = [implicit]
    for number, line in enumerate(lines, start=1):
        m = ANNOTATION.search(line.rstrip("\r"))
        if not m:
            continue
        kind, value = m.group(1), m.group(2)
        current = runs[-1]
        where = "line %d" % number
        if kind == "expect":
            current.expect.append(("text", value or "", number))
        elif kind == "expect re":
            if not value:
                raise Malformed("%s: `// expect re:` without a regular expression" % where)
            try:
                re.compile(value)
            except re.error as e:
                raise Malformed("%s: bad regular expression %r: %s" % (where, value, e))
            current.expect.append(("re", value, number))
        elif kind == "error":
            em = re.match(r"^(\d+): (.+)$", value or "")
            if not em:
                raise Malformed("%s: `// error:` needs `LINE: PART`" % where)
            err_line = int(em.group(1))
            if err_line < 1 or err_line > len(lines):
                raise Malformed("%s: `// error:` names line %d, outside the file" % (where, err_line))
            test.errors.append((err_line, em.group(2), number))
        elif kind == "runtime error":
            if not value:
                raise Malformed("%s: `// runtime error:` without a message" % where)
            current.runtime_errors.append((value, number))
        elif kind == "stderr lacks":
            if not value:
                raise Malformed("%s: `// stderr lacks:` without a message" % where)
            current.stderr_lacks.append((value, number))
        elif kind == "stderr":
            if not value:
                raise Malformed("%s: `// stderr:` without a message" % where)
            current.stderr.append((value, number))
        elif kind == "exit":
            if not value or not re.match(r"^\d+$", value.strip()):
                raise Malformed("%s: `// exit:` needs a number" % where)
            if current.exit is not None:
                raise Malformed("%s: a second `// exit:` for one run" % where)
            current.exit = int(value.strip())
        elif kind == "stdin":
            current.stdin.append(value or "")
        elif kind in ("run", "run program"):
            if kind == "run":
                program, args = path, (value or "").split()
            else:
                words = (value or "").split()
                if not words:
                    raise Malformed("%s: `// run program:` needs a path" % where)
                program = os.path.normpath(os.path.join(folder, words[0]))
                args = words[1:]
                if not os.path.isfile(program):
                    raise Malformed("%s: no program %s" % (where, program))
            runs.append(Run(program, args, where))
    # The implicit first run exists if anything was expected of it, or if it is the only run.
    if len(runs) > 1 and not implicit.has_expectations():
        runs.pop(0)
    test.runs = runs
    if test.errors:
        if len(runs) > 1 or any(r.has_expectations() for r in runs):
            raise Malformed("a file with `// error:` lines is only checked, never run: it may "
                            "not have `// expect`, `// run`, `// runtime error` or `// exit` lines")
    return test


def describe_output(text):
    return text if text else "(nothing)"


def indent(text, prefix="    "):
    return "\n".join(prefix + l for l in text.rstrip("\n").split("\n")) if text else prefix + "(nothing)"


def same_file(reported, path, cwd):
    candidate = reported if os.path.isabs(reported) else os.path.join(cwd, reported)
    if os.path.exists(candidate):
        return os.path.realpath(candidate) == os.path.realpath(path)
    return os.path.basename(reported) == os.path.basename(path)


def check_compile_errors(test, cairn, tmp):
    """`cairn check FILE`: status 1, every expected error reported, nothing else reported."""
    cmd = [cairn, "check", test.path]
    try:
        p = subprocess.run(cmd, cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return ["`%s` did not finish within %d s" % (" ".join(cmd), RUN_TIMEOUT_S)]
    stderr = p.stderr.decode("utf-8", errors="replace")
    stdout = p.stdout.decode("utf-8", errors="replace")
    problems = []
    if p.returncode != 1:
        problems.append("`cairn check` exited with status %d, expected 1" % p.returncode)
    reported = []   # (line, col, message, reported file is this file)
    for l in stderr.split("\n"):
        m = REPORTED_ERROR.match(l)
        if m:
            reported.append((int(m.group(2)), int(m.group(3)), m.group(4),
                             same_file(m.group(1), test.path, tmp), l))
    for line, part, ann in test.errors:
        if not any(r[3] and r[0] == line and part in r[2] for r in reported):
            on_line = [r[2] for r in reported if r[3] and r[0] == line]
            msg = "missing: an error at line %d containing %r (annotation on line %d)" % (
                line, part, ann)
            if on_line:
                msg += "; reported at that line: " + "; ".join(repr(x) for x in on_line)
            problems.append(msg)
    expected_lines = {e[0] for e in test.errors}
    for r in reported:
        if not r[3]:
            problems.append("unexpected: an error in another file: %s" % r[4])
        elif r[0] not in expected_lines:
            problems.append("unexpected: an error at line %d (no `// error: %d: ...`): %s" % (
                r[0], r[0], r[2]))
    if problems:
        problems.append("standard error of `cairn check`:\n" + indent(stderr))
        if stdout:
            problems.append("standard output of `cairn check`:\n" + indent(stdout))
    return problems


def build(program, cairn, runtime_dir, opt, out, tmp):
    cmd = [cairn, "build", program, "-o", out]
    if runtime_dir:
        cmd += ["--runtime-dir", runtime_dir]
    if opt:
        cmd.append(opt)
    try:
        p = subprocess.run(cmd, cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=BUILD_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "`%s` did not finish within %d s" % (" ".join(cmd), BUILD_TIMEOUT_S)
    if p.returncode != 0 or not os.path.exists(out):
        return "the build failed (status %d): %s\n%s" % (
            p.returncode, " ".join(cmd),
            indent((p.stdout + p.stderr).decode("utf-8", errors="replace")))
    # A build that succeeded after an internal error (twins that differed, built again in one
    # piece: frontend/lower/emit.h, E1) is a failure of the compiler all the same.
    if b"internal error" in p.stderr:
        return "the build reported an internal error: %s\n%s" % (
            " ".join(cmd), indent(p.stderr.decode("utf-8", errors="replace")))
    return None


def compare_output(run, stdout):
    """Problems with standard output: a diff of expected and actual lines."""
    actual = stdout.split("\n")
    missing_newline = False
    if actual and actual[-1] == "":
        actual.pop()
    elif stdout:
        missing_newline = True
    ok = len(actual) == len(run.expect)
    shown_expected = []
    for i, (kind, text, _) in enumerate(run.expect):
        if kind == "text":
            good = i < len(actual) and actual[i] == text
            shown_expected.append(text)
        else:
            good = i < len(actual) and re.fullmatch(text, actual[i]) is not None
            # A matching line is shown as it was printed, so the diff shows only real changes.
            shown_expected.append(actual[i] if good else "re: " + text)
        ok = ok and good
    problems = []
    if not ok:
        diff = difflib.unified_diff(shown_expected, actual, "expected", "actual", lineterm="", n=3)
        problems.append("standard output differs:\n" + indent("\n".join(diff)))
    if missing_newline:
        problems.append("standard output does not end with a newline (its last line: %r)" %
                        actual[-1])
    return problems


def execute(run, exe, store, tmp):
    env = dict(os.environ)
    env["CAIRN_STORE"] = store
    stdin = "".join(l + "\n" for l in run.stdin).encode("utf-8", errors="surrogateescape")
    try:
        p = subprocess.run([exe] + run.args, cwd=tmp, env=env, input=stdin, capture_output=True,
                           timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return ["did not finish within %d s" % RUN_TIMEOUT_S]
    stdout = p.stdout.decode("utf-8", errors="surrogateescape")
    stderr = p.stderr.decode("utf-8", errors="replace")
    problems = []
    status = p.returncode
    if status != run.expected_status():
        what = "status %d" % status if status >= 0 else "signal %d" % -status
        problems.append("exited with %s, expected status %d" % (what, run.expected_status()))
    for part, ann in run.runtime_errors + run.stderr:
        if part not in stderr:
            problems.append("standard error does not contain %r (annotation on line %d)" %
                            (part, ann))
    for part, ann in run.stderr_lacks:
        if part in stderr:
            problems.append("standard error contains %r (annotation on line %d)" % (part, ann))
    problems += compare_output(run, stdout)
    if problems:
        problems.append("standard error:\n" + indent(stderr))
    return problems


def run_test(test, cairn, runtime_dir, opt, keep):
    tmp = tempfile.mkdtemp(prefix="cairn-lang-")
    try:
        if test.errors:
            return check_compile_errors(test, cairn, tmp)
        store = os.path.join(tmp, "store")
        built = {}
        problems = []
        for index, run in enumerate(test.runs, start=1):
            if run.program not in built:
                exe = os.path.join(tmp, "prog%d" % (len(built) + 1))
                failure = build(run.program, cairn, runtime_dir, opt, exe, tmp)
                if failure:
                    return problems + ["run %d of %d, %s: %s" % (index, len(test.runs),
                                                               run.describe(), failure)]
                built[run.program] = exe
            found = execute(run, built[run.program], store, tmp)
            if found:
                header = "run %d of %d, %s:" % (index, len(test.runs), run.describe())
                # Later runs depend on this one's effects on the store: stop here.
                return problems + [header + "\n" + indent("\n".join(found), "  ")]
        return problems
    finally:
        if keep:
            print("kept %s" % tmp, file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def usage(message):
    print("run_lang_test.py: %s" % message, file=sys.stderr)
    print("usage: run_lang_test.py --cairn PATH [--runtime-dir DIR] [--opt -O0|-O2] [--keep] FILE",
          file=sys.stderr)
    print("       run_lang_test.py --list-annotations FILE", file=sys.stderr)
    sys.exit(2)


def parse_command_line(argv):
    opts = {"cairn": None, "runtime_dir": None, "opt": None, "keep": False, "list": False}
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--cairn", "--runtime-dir", "--opt"):
            if i + 1 >= len(argv):
                usage("%s needs a value" % a)
            opts[a[2:].replace("-", "_")] = argv[i + 1]
            i += 2
            continue
        if a.startswith("--cairn=") or a.startswith("--runtime-dir=") or a.startswith("--opt="):
            k, v = a[2:].split("=", 1)
            opts[k.replace("-", "_")] = v
        elif a == "--keep":
            opts["keep"] = True
        elif a == "--list-annotations":
            opts["list"] = True
        elif a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        elif a.startswith("-"):
            usage("unknown option %s" % a)
        else:
            files.append(a)
        i += 1
    if len(files) != 1:
        usage("give exactly one test file")
    for k in ("cairn", "runtime_dir"):
        if opts[k] and os.sep in opts[k]:
            opts[k] = os.path.abspath(opts[k])
    if opts["opt"] not in (None, "", "-O0", "-O2"):
        usage("--opt must be -O0 or -O2")
    if not opts["list"] and not opts["cairn"]:
        usage("--cairn is required")
    return opts, os.path.abspath(files[0])


def list_annotations(test):
    if test.errors:
        print("check: cairn check %s" % test.path)
        for line, part, _ in test.errors:
            print("  error at line %d: %s" % (line, part))
        return
    for i, run in enumerate(test.runs, start=1):
        print("run %d: %s %s" % (i, os.path.relpath(run.program), " ".join(run.args)))
        for line in run.stdin:
            print("  stdin: %s" % line)
        for kind, text, _ in run.expect:
            print("  expect%s: %s" % (" re" if kind == "re" else "", text))
        for part, _ in run.runtime_errors:
            print("  runtime error: %s" % part)
        for part, _ in run.stderr:
            print("  stderr: %s" % part)
        for part, _ in run.stderr_lacks:
            print("  stderr lacks: %s" % part)
        print("  exit status: %d" % run.expected_status())


def main():
    opts, path = parse_command_line(sys.argv[1:])
    if not os.path.isfile(path):
        usage("no file %s" % path)
    try:
        test = parse(path)
    except Malformed as e:
        print("%s: malformed test: %s" % (path, e))
        return 2
    if opts["list"]:
        list_annotations(test)
        return 0
    problems = run_test(test, opts["cairn"], opts["runtime_dir"], opts["opt"], opts["keep"])
    if problems:
        print("FAIL %s" % path)
        for p in problems:
            print(indent(p, "  "))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
