#!/usr/bin/env python3
"""Draws the chart of an OO7 result file (cairn-oo7 suite or compare): chart.py RESULT.json OUT.png

suite:   per operation, Cairn's cold and hot time (work + commit), log scale.
compare: per operation, Cairn cold and hot, the transient C++ peer (hot) and the RocksDB
         object-per-key peer cold and hot, log scale.
Needs matplotlib (Debian: python3-matplotlib; scripts/setup installs it)."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def total(it):
    if it is None:
        return None
    return max(it["ms"] + it["commit_ms"], 0.001)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: chart.py RESULT.json OUT.png")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    results = data["results"]
    ops = []
    for r in results:
        if r["op"] not in ops:
            ops.append(r["op"])
    if data["kind"] == "compare":
        series = [("cairn", "cold", "Cairn cold"), ("cairn", "hot", "Cairn hot"),
                  ("transient", "hot", "C++ transient"), ("kv", "cold", "C++ RocksDB cold"),
                  ("kv", "hot", "C++ RocksDB hot")]
    else:
        series = [("cairn", "cold", "cold"), ("cairn", "hot", "hot")]
    by = {(r["impl"], r["op"]): r for r in results}
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(8, len(ops) * 0.75), 5))
    for i, (impl, which, label) in enumerate(series):
        xs, ys = [], []
        for j, op in enumerate(ops):
            r = by.get((impl, op))
            v = total(r[which]) if r else None
            if v is not None:
                xs.append(j + (i - (len(series) - 1) / 2) * width)
                ys.append(v)
        ax.bar(xs, ys, width, label=label)
    ax.set_yscale("log")
    ax.set_xticks(range(len(ops)))
    ax.set_xticklabels(ops, rotation=45)
    ax.set_ylabel("ms (work + commit), log scale")
    title = "OO7 %s, %s, %d connections/part, %d iterations, mode %s" % (
        data["kind"], data["config"], data["conns"], data["iterations"], data["mode"])
    if data.get("warm"):
        title += " (cold figures warm: page cache not dropped)"
    ax.set_title(title)
    ax.legend(fontsize="small")
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=100)


if __name__ == "__main__":
    main()
