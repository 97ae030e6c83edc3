#!/usr/bin/env python3
"""The OO7 tests (tests/oo7/README.md): run_oo7_test.py --bin BUILD/bin CASE

Each case runs build/bin/cairn-oo7 (and cairn-oo7-peer) as a user would, on a fresh store in a
temporary folder, and checks what they print. Exit 0 on success; on a failure it says what
differed and exits 1. Python 3, standard library only."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Every operation that `run all` knows, with Summary points between the pairs that must undo each
# other.
ALL_OPS = ("T1 T6 T2a T2b T2c T3a T3b T3c T4 T7 T8 T9 Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Summary Insert "
           "Summary Delete Summary T5do Summary T5undo Summary").split()
# The counts issue 14 gives for the small configuration with 3 connections per part.
SMALL_COUNTS = {"T1": 43740, "T6": 2187, "T2a": 2187, "T2b": 43740, "T2c": 174960, "T4": 83106,
                "T8": 2632, "T9": 0, "Q1": 10, "Q7": 10000, "Q8": 10000}
SUMMARY_KEYS = ("modules complex base composites parts connections idx_part_id idx_part_date "
                "idx_comp_id idx_doc_title idx_doc_id idx_base_id checksum").split()


class Failure(Exception):
    pass


class Env:
    def __init__(self, bin_dir, tmp):
        self.oo7 = os.path.join(bin_dir, "cairn-oo7")
        self.peer = os.path.join(bin_dir, "cairn-oo7-peer")
        self.tmp = tmp
        self.env = dict(os.environ, CAIRN_STORE=os.path.join(tmp, "store"))

    def run(self, argv, expect_status=0, timeout=900):
        p = subprocess.run(argv, cwd=self.tmp, env=self.env, capture_output=True, text=True,
                           timeout=timeout)
        if expect_status is not None and p.returncode != expect_status:
            raise Failure("%s exited with %d, not %d\n--- stdout\n%s--- stderr\n%s" % (
                " ".join(argv), p.returncode, expect_status, p.stdout, p.stderr))
        return p

    def cairn(self, *args, **kw):
        return self.run([self.oo7] + list(args), **kw)

    def transient(self, config, ops, iterations=1):
        return self.run([self.peer, "run", "--impl", "transient", "--config", config,
                         "--iterations", str(iterations)] + ops)


def fields(line):
    return dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)


def lines(out, prefix):
    return [l for l in out.splitlines() if l.startswith(prefix + " ")]


def iterations(out):
    """[(op, iter, count)] of the ITER lines."""
    return [(f["op"], int(f["iter"]), int(f["count"])) for f in map(fields, lines(out, "ITER"))]


def summaries(out):
    return [{k: f[k] for k in SUMMARY_KEYS} for f in map(fields, lines(out, "SUMMARY"))]


def gen_summary(out):
    g = lines(out, "GEN")
    if len(g) != 1:
        raise Failure("expected one GEN line in:\n" + out)
    f = fields(g[0])
    return {k: f[k] for k in SUMMARY_KEYS}


def check(cond, what):
    if not cond:
        raise Failure(what)


# --- cases ---------------------------------------------------------------------------------------

def case_peers_agree(e):
    """Every operation gives the same count in Cairn and in both peers on the tiny instance, and
    the instance (and its state after each pair of operations) has the same summary."""
    gen = e.cairn("gen", "--config", "tiny").stdout
    kv_dir = os.path.join(e.tmp, "kv")
    kv_gen = e.run([e.peer, "gen", "--impl", "kv", "--dir", kv_dir, "--config", "tiny"]).stdout
    check(gen_summary(gen) == gen_summary(kv_gen), "cairn and kv generated different instances:\n%s%s"
          % (gen, kv_gen))
    c = e.cairn("run", "--db", "oo7-tiny-3", "--iterations", "2", *ALL_OPS).stdout
    t = e.transient("tiny", ALL_OPS, iterations=2).stdout
    k = e.run([e.peer, "run", "--impl", "kv", "--dir", kv_dir, "--iterations", "2"] + ALL_OPS).stdout
    check(gen_summary(gen) == gen_summary(t), "the transient peer generated another instance")
    for name, other in (("transient", t), ("kv", k)):
        check(iterations(c) == iterations(other), "counts differ, cairn vs %s:\n%s\n%s" % (
            name, iterations(c), iterations(other)))
        check(summaries(c) == summaries(other), "summaries differ, cairn vs %s" % name)
    check(len(iterations(c)) == 2 * (len(ALL_OPS) - 5), "not every iteration ran")


def case_pairs_restore(e):
    """Insert then Delete, and T5do then T5undo, leave every count, index and checksum as they
    were, in one process and across processes (each step a fresh process on the store)."""
    gen = gen_summary(e.cairn("gen", "--config", "tiny").stdout)
    one = e.cairn("run", "--db", "oo7-tiny-3", "--iterations", "3", "Summary", "Insert",
                  "Summary", "Delete", "Summary", "T5do", "Summary", "T5undo", "Summary").stdout
    s = summaries(one)
    check(s[0] == gen, "the first summary is not the generated instance's")
    check(s[1]["composites"] == str(int(gen["composites"]) + 30) and
          s[1]["idx_part_date"] == str(int(gen["idx_part_date"]) + 300),
          "Insert x3 did not add 30 composites and 300 indexed parts: %s" % s[1])
    check(s[2] == gen, "Insert then Delete did not restore the instance:\n%s\n%s" % (gen, s[2]))
    check(s[3]["checksum"] != gen["checksum"], "T5do changed nothing")
    check(s[4] == gen, "T5do then T5undo did not restore the instance")
    counts = iterations(one)
    check([n for op, _, n in counts if op == "Delete"] == [10, 10, 10], "Delete counts: %s" % counts)
    check([n for op, i, n in counts if op == "T5do"][1:] == [0, 0], "T5do changed documents twice")
    for step in ("Insert", "Insert", "Delete", "Delete", "T5do", "T5undo"):
        e.cairn("run", "--db", "oo7-tiny-3", step)
    after = summaries(e.cairn("check", "--db", "oo7-tiny-3").stdout)
    check(after == [gen], "the steps in separate processes did not restore the instance")


def case_mode_one(e):
    """--mode one: one transaction for all iterations, committed after the last (the only
    iteration with a commit time and pages written); the counts and the instance afterwards are
    those of the RocksDB peer run the same way."""
    e.cairn("gen", "--config", "tiny")
    kv_dir = os.path.join(e.tmp, "kv")
    e.run([e.peer, "gen", "--impl", "kv", "--dir", kv_dir, "--config", "tiny"])
    ops = ["T2b", "T3a", "Insert", "Summary"]
    c = e.cairn("run", "--db", "oo7-tiny-3", "--mode", "one", "--iterations", "3", *ops).stdout
    k = e.run([e.peer, "run", "--impl", "kv", "--dir", kv_dir, "--mode", "one", "--iterations",
               "3"] + ops).stdout
    check(iterations(c) == iterations(k), "counts differ:\n%s\n%s" % (iterations(c), iterations(k)))
    check(summaries(c) == summaries(k), "the instances differ after the runs")
    for f in map(fields, lines(c, "ITER")):
        committed = f["iter"] == "3"
        check((float(f["commit_ms"]) > 0) == committed and (int(f["written"]) > 0) == committed,
              "iteration %s of %s: commit_ms %s, written %s" % (f["iter"], f["op"],
                                                                f["commit_ms"], f["written"]))
    again = summaries(e.cairn("check", "--db", "oo7-tiny-3").stdout)
    check(again == summaries(c), "what was committed differs from what the run saw")


def case_gen_deterministic(e):
    """The same seed gives the same instance; another seed another."""
    a = gen_summary(e.cairn("gen", "--config", "tiny", "--db", "a").stdout)
    b = gen_summary(e.cairn("gen", "--config", "tiny", "--db", "b").stdout)
    c = gen_summary(e.cairn("gen", "--config", "tiny", "--db", "c", "--seed", "2").stdout)
    check(a == b, "two generations with seed 1 differ:\n%s\n%s" % (a, b))
    check(a["checksum"] != c["checksum"], "seeds 1 and 2 gave the same checksum")
    check(a["parts"] == "500" and a["connections"] == "1500" and a["base"] == "27",
          "the tiny instance's counts: %s" % a)
    check(summaries(e.cairn("check", "--db", "a").stdout) == [a],
          "the database read back in a new process differs from what gen built")
    again = e.cairn("gen", "--config", "tiny", "--db", "a", expect_status=1)
    check("exists" in again.stdout and "--replace" in again.stdout, "gen over a database: " + again.stdout)


def case_small_counts(e):
    """The small configuration's counts (issue 14), cold in a new process and hot, and the same
    again from a freshly opened database in another process."""
    e.cairn("gen")
    ops = list(SMALL_COUNTS)
    first = iterations(e.cairn("run", "--db", "oo7-small-3", "--iterations", "2", *ops).stdout)
    second = iterations(e.cairn("run", "--db", "oo7-small-3", *ops).stdout)
    for op, i, n in first + second:
        check(n == SMALL_COUNTS[op], "%s iteration %d counted %d, not %d" % (op, i, n, SMALL_COUNTS[op]))
    check(len(first) == 2 * len(ops) and len(second) == len(ops), "not every iteration ran")


def case_suite(e):
    """suite generates the database when it is not there, runs each operation in a fresh process,
    prints the table, writes JSON (and the chart when matplotlib is there); a second suite reuses
    the database, and makes it again when its classes are not this build's."""
    results = os.path.join(e.tmp, "results")
    out = e.cairn("suite", "--config", "tiny", "--iterations", "3", "--results", results).stdout
    check("generating oo7-tiny-3" in out, "suite did not generate the database:\n" + out)
    for op in "T1 T6 T2a T2b T2c T3a T4 T8 T9 Q1 Q2 Q3 Q4 Q5 Q6 Q7 Q8 Insert Delete".split():
        check(re.search(r"^%s +\d+ " % op, out, re.M), "no row for %s in:\n%s" % (op, out))
    check(re.search(r"^T1 +810 ", out, re.M), "T1's row does not count 810:\n" + out)
    js = os.path.join(results, "suite-tiny-3.json")
    check(os.path.exists(js), "no " + js)
    import json
    data = json.load(open(js))
    check(len(data["results"]) == 19 and data["results"][0]["op"] == "T1", "JSON results")
    check(all(len(r["iterations"]) == 3 for r in data["results"]), "JSON iterations")
    check(data["results"][0]["cold"]["faulted"] > 0, "cold T1 faulted no pages")
    png = os.path.join(results, "suite-tiny-3.png")
    check(os.path.exists(png) or "chart: not drawn" in out, "neither a chart nor a reason")
    out2 = e.cairn("suite", "--config", "tiny", "--iterations", "2", "--ops", "T1,Q7",
                   "--results", results).stdout
    check("generating" not in out2, "the second suite generated again")
    # A database of the same name whose root's class is defined otherwise (as one made by an
    # earlier cairn-oo7 whose classes changed): the suite says so and generates it again.
    stale = os.path.join(e.tmp, "stale.cairn")
    with open(stale, "w") as f:
        f.write('class OO7Db { x: int }\n'
                'fn main() {\n'
                '    Database.drop("oo7-tiny-3")\n'
                '    let d = Database.create("oo7-tiny-3")\n'
                '    atomic { d.root = new OO7Db { x: 1 } }\n'
                '}\n')
    e.run([os.path.join(os.path.dirname(e.oo7), "cairn"), "run", stale])
    out3 = e.cairn("suite", "--config", "tiny", "--iterations", "2", "--ops", "T1",
                   "--results", results).stdout
    check("was made by an earlier cairn-oo7 whose classes differ" in out3 and
          "generating oo7-tiny-3" in out3 and re.search(r"^T1 +810 ", out3, re.M),
          "the suite did not make a stale database again:\n" + out3)


def case_compare(e):
    """compare runs the three implementations on one instance and ends with the RESULT line."""
    results = os.path.join(e.tmp, "results")
    out = e.cairn("compare", "--config", "tiny", "--iterations", "3", "--results", results).stdout
    last = out.strip().splitlines()[-1]
    check(re.fullmatch(r"RESULT oo7 t1_hot_vs_transient=\S+ t1_cold_vs_kv=\S+ t1_hot_vs_kv=\S+ "
                       r"insert_commit_vs_kv=\S+ gen_ambiguous_share=[0-9.]+", last),
          "the last line is not the RESULT line: " + last)
    check("same instance in all three" in out, "compare did not check the instances")
    check(os.path.exists(os.path.join(results, "compare-tiny-3.json")), "no compare JSON")


def case_usage(e):
    """Bad command lines say what is wrong and exit 2; a missing database exits 1."""
    for args, says in ((["frobnicate"], "unknown command 'frobnicate'"),
                       (["run"], "run needs operations"),
                       (["run", "T99"], "unknown operation 'T99'"),
                       (["gen", "--config", "huge"], "no configuration 'huge'"),
                       (["gen", "--conns", "4"], "no configuration 'small' with 4 connections"),
                       (["run", "T1", "--iterations", "0"], "--iterations must be at least 1"),
                       (["run", "T1", "--mode", "some"], "--mode is one or many"),
                       (["suite", "--bogus"], "unknown option '--bogus'")):
        p = e.cairn(*args, expect_status=2)
        check(says in p.stdout and "usage: cairn-oo7" in p.stdout, "%s: %s" % (args, p.stdout))
    p = e.cairn("run", "T1", "--db", "nothing", expect_status=1)
    check("there is no database 'nothing'" in p.stdout, p.stdout)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="cairn-oo7-test-")
    try:
        CASES[a.case](Env(os.path.abspath(a.bin), tmp))
    except Failure as f:
        print("FAILED %s: %s" % (a.case, f))
        return 1
    finally:
        if a.keep:
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
