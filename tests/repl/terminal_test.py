#!/usr/bin/env python3
"""Drives `cairn repl` through a pseudo-terminal: the real line editor (llvm::LineEditor over
libedit), its prompts, Tab completion of names in scope, of fields after '.', of commands and of
database names, history kept across sessions in $CAIRN_HISTORY (the Up arrow in a second session recalls the
last line of the first), and Ctrl-C: it ends a loop that never ends with the runtime error
"interrupted" (the session and its variables remain), and a recursion without loops too; at a
prompt it drops what was typed.

Usage: terminal_test.py --cairn PATH_TO_CAIRN
Exit status 0 when it behaved so, 1 with a report otherwise.
"""

import argparse
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = float(os.environ.get("CAIRN_REPL_TEST_TIMEOUT", "120"))


class Session:
    def __init__(self, cairn, store, history):
        env = dict(os.environ)
        env["CAIRN_HISTORY"] = history
        env["TERM"] = "xterm"
        env.pop("CAIRN_STORE", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(cairn, [cairn, "repl", "--store", store], env)
        self.out = b""
        self.pos = 0  # where the next read_until looks from

    def read_until(self, text, what):
        """Reads until `text` (bytes) has appeared after the current position, and moves the
        position past it."""
        start = self.pos
        deadline = time.time() + TIMEOUT_S
        while text not in self.out[start:]:
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError(f"{what}: {text!r} did not appear; the terminal showed:\n"
                                     + self.out[start:].decode(errors="replace"))
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"{what}: the session ended before {text!r}:\n"
                                         + self.out[start:].decode(errors="replace"))
                self.out += chunk
        self.pos = self.out.index(text, start) + len(text)
        if text.endswith(b"> "):
            time.sleep(0.1)  # a prompt: let the editor set the terminal up for the line
        return True

    def type(self, keys):
        os.write(self.fd, keys)

    def interrupt(self, what):
        """Ctrl-C while an input runs: the runtime error `interrupted`, then the prompt."""
        time.sleep(0.5)
        self.type(b"\x03")
        start = self.pos
        self.read_until(b"runtime error: interrupted", what + " interrupted")
        # The terminal's echo of Ctrl-C ends its line: the error starts a line of its own (it
        # was joined to the echo, "^C<input 2>:1:1: ...").
        shown = self.out[start:self.pos]
        if b"^C<" in shown:
            raise AssertionError(what + ": the error joined the ^C echo: " + repr(shown))
        self.read_until(b"cairn> ", "the prompt after Ctrl-C in " + what)

    def end(self):
        # Ctrl-D at an empty prompt. Typed before the editor has put the terminal in its mode
        # for the new line, a key can be dropped with the pending input: then it is typed again.
        self.type(b"\x04")
        deadline = time.time() + TIMEOUT_S
        again = time.time() + 2
        tail = b""
        while time.time() < deadline:
            if time.time() > again:
                self.type(b"\x04")
                again = time.time() + 2
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                r, _, _ = select.select([self.fd], [], [], 0.2)
                if r:
                    tail += os.read(self.fd, 4096)
            except OSError:
                pass
        state = ""
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                state = f.read()
            with open(f"/proc/{self.pid}/wchan") as f:
                state += " wchan=" + f.read()
        except OSError:
            pass
        raise AssertionError("the session did not end after Ctrl-D; it showed "
                             + repr(tail) + "; state: " + state)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cairn", required=True)
    a = ap.parse_args()
    cairn = os.path.abspath(a.cairn)
    tmp = tempfile.mkdtemp(prefix="cairn-repl-terminal-")
    history = os.path.join(tmp, "history")
    store = os.path.join(tmp, "store")
    try:
        # A store with a database, made before the session: a session that has not opened the
        # store yet completes no database name after Tab (opening it would hold the store for the
        # rest of the session, for a keystroke), and another process can still use the store.
        subprocess.run([cairn, "--store", store, "db", "create", "pre-db"], check=True,
                       stdout=subprocess.DEVNULL)
        s = Session(cairn, store, history)
        s.read_until(b"cairn> ", "the first prompt")
        s.type(b":types pre\t")
        time.sleep(0.5)
        other = subprocess.run([cairn, "--store", store, "db", "list"], capture_output=True)
        if other.returncode != 0 or b"pre-db" not in other.stdout:
            raise AssertionError("Tab completion held the store: " + repr(other.stderr))
        s.type(b"-db\r")
        s.read_until(b"no classes stored in 'pre-db'", "the types of pre-db")
        s.read_until(b"cairn> ", "the prompt after :types")
        s.type(b"let answer_value = 42\r")
        s.read_until(b"cairn> ", "the prompt after a declaration")
        # An input over two lines: the continuation prompt.
        s.type(b"answer_value +\r")
        s.read_until(b"...> ", "the continuation prompt")
        s.type(b"1\r")
        s.read_until(b"43", "the value of a two-line input")
        s.read_until(b"cairn> ", "the prompt after a value")
        # Tab completes a name in scope.
        s.type(b"answer_v\t")
        s.read_until(b"alue", "the completion of answer_v")
        s.type(b"\r")
        s.read_until(b"42", "the value of the completed name")
        s.read_until(b"cairn> ", "the prompt")
        # ... a field after '.'.
        s.type(b"class Pt { xcoord: int; ycoord: int }\r")
        s.read_until(b"cairn> ", "the prompt after a class")
        s.type(b"let pt = new Pt { xcoord: 5, ycoord: 6 }\r")
        s.read_until(b"cairn> ", "the prompt after a variable")
        s.type(b"pt.yc\t")
        s.read_until(b"oord", "the completion of a field")
        s.type(b"\r")
        s.read_until(b"6", "the field's value")
        s.read_until(b"cairn> ", "the prompt")
        # ... a command.
        s.type(b":hel\t")
        s.read_until(b"p", "the completion of :hel")
        s.type(b"\r")
        s.read_until(b":quit", "the help text")
        s.read_until(b"cairn> ", "the prompt after :help")
        # ... a database's name after :open, :root and :types (it completed identifiers).
        s.type(b":create tab-db\r")
        s.read_until(b"cairn> ", "the prompt after :create")
        s.type(b":types tab-\t")
        s.read_until(b"db", "the completion of a database's name")
        s.type(b"\r")
        s.read_until(b"no classes stored in 'tab-db'", "the types of the completed database")
        s.read_until(b"cairn> ", "the prompt after :types")
        # Ctrl-C ends a running loop, not the session; the loop's work up to it stays.
        s.type(b"var spins = 0\r")
        s.read_until(b"cairn> ", "the prompt after a var")
        s.type(b"while true { spins = spins + 1 }\r")
        s.interrupt("a loop")
        s.type(b"spins > 0\r")
        s.read_until(b"true", "the loop's variable after Ctrl-C")
        s.read_until(b"cairn> ", "the prompt")
        # ... and a recursion without loops (the poll at every function's entry).
        s.type(b"fn fib(n: int) -> int { if n < 2 { return n } return fib(n - 1) + fib(n - 2) }\r")
        s.read_until(b"cairn> ", "the prompt after fib")
        s.type(b"fib(90)\r")
        s.interrupt("a recursion")
        # ... and at a prompt drops the unfinished input.
        s.type(b"spins +")
        time.sleep(0.2)
        s.type(b"\x03")
        s.read_until(b"cairn> ", "the prompt after Ctrl-C at a prompt")
        s.type(b"40 + 2\r")
        s.read_until(b"42", "an input after Ctrl-C at a prompt")
        s.read_until(b"cairn> ", "the prompt")
        s.type(b"\"hist\" + \"ory\"\r")
        s.read_until(b"\"history\"", "the last input's value")
        s.read_until(b"cairn> ", "the prompt")
        status = s.end()
        if status != 0:
            raise AssertionError(f"the first session exited with {status}")

        # A second session: the Up arrow recalls the first session's last line.
        s = Session(cairn, store, history)
        s.read_until(b"cairn> ", "the second session's prompt")
        s.type(b"\x1b[A")
        s.read_until(b"ory\"", "the recalled line")
        s.type(b"\r")
        s.read_until(b"\"history\"", "the recalled line's value")
        s.read_until(b"cairn> ", "the prompt")
        status = s.end()
        if status != 0:
            raise AssertionError(f"the second session exited with {status}")
    except AssertionError as e:
        print(f"terminal_test: {e}")
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
