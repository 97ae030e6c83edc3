#!/usr/bin/env python3
"""Writes link stubs of the large shared libraries every Cairn program links (link_stubs.h).

A stub is a shared library with the real one's soname that defines only the dynamic symbols
the runtime's libraries name (defined or undefined there), each with the real symbol's type,
binding, size and version. Linking against it records in the executable exactly what linking
against the real library records (the same DT_NEEDED, the same version needs, the same exported
symbols), and the program runs against the real library. lld reads a stub's few hundred
symbols instead of the real library's tens of thousands: librocksdb.so exports about 16,000 and
libstdc++.so about 6,000, which were a third of a small program's link.

usage: make_link_stubs.py --out DIR --cc CC --archive LIB.a ... --library REPLACES=PATH ...
  REPLACES is the link argument the stub stands for (the library's path, or -lstdc++).
Writes DIR/<name of PATH> for each library and DIR/stubs.txt, a line per stub:
  REPLACES <tab> stub's file name (in DIR) <tab> real file <tab> its size <tab> its mtime in ns
cairn uses a stub only while the real file still has that size and mtime.
"""
import argparse
import os
import re
import subprocess
import sys


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def archive_symbols(archives):
    """Every global symbol the archives' members define or reference."""
    names = set()
    for archive in archives:
        for line in run(["nm", "-P", "-g", archive]).splitlines():
            words = line.split()
            # "name type [value size]"; member headers end in ':'.
            if len(words) >= 2 and not words[0].endswith(":"):
                names.add(words[0])
    return names


def dynamic_symbols(library):
    """The defined dynamic symbols: name -> (type, binding, size, version or None)."""
    symbols = {}
    for line in run(["readelf", "-W", "--dyn-syms", library]).splitlines():
        words = line.split()
        # Num: Value Size Type Bind Vis Ndx Name [(version index)]
        if len(words) < 8 or not re.fullmatch(r"\d+:", words[0]) or words[6] == "UND":
            continue
        name, version, default = words[7], None, True
        if "@@" in name:
            name, version = name.split("@@", 1)
        elif "@" in name:
            name, version = name.split("@", 1)
            default = False
        if name in symbols and not default:
            continue  # an older version of a symbol whose default version is kept
        size = int(words[2], 0) if words[2].startswith("0x") else int(words[2])
        symbols[name] = (words[3], words[4], size, version)
    return symbols


def soname(library):
    found = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", run(["readelf", "-d", library]))
    if not found:
        sys.exit(f"make_link_stubs: {library} has no soname")
    return found.group(1)


def write_stub(cc, library, wanted, out_dir, name):
    symbols = {n: s for n, s in dynamic_symbols(library).items() if n in wanted}
    asm, versions = [], {}
    for n, (kind, binding, size, version) in sorted(symbols.items()):
        versions.setdefault(version, []).append(n)
        asm.append(f'.weak "{n}"' if binding == "WEAK" else f'.globl "{n}"')
        if kind in ("FUNC", "IFUNC"):
            asm += [".text", f'.type "{n}",@function', f'"{n}":', "  ret"]
        else:
            section = '.section .tbss,"awT",@nobits' if kind == "TLS" else ".data"
            asm += [section, f'.type "{n}",@object', f'.size "{n}",{size}', f'"{n}":',
                    f"  .zero {max(size, 1)}"]
    base = os.path.join(out_dir, name)
    with open(base + ".s", "w") as f:
        f.write("\n".join(asm) + "\n")
    args = [cc, "-shared", "-nostdlib", "-o", base, f"-Wl,-soname,{soname(library)}", base + ".s"]
    nodes = [f"{v} {{ global: " + " ".join(f'"{n}";' for n in ns) + " };"
             for v, ns in sorted(versions.items(), key=lambda kv: kv[0] or "") if v]
    if nodes:
        with open(base + ".map", "w") as f:
            f.write("\n".join(nodes) + "\n")
        args.append(f"-Wl,--version-script,{base}.map")
    subprocess.run(args, check=True)
    return base


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--cc", required=True)
    parser.add_argument("--archive", action="append", default=[])
    parser.add_argument("--library", action="append", default=[])
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # The manifest goes first and comes back last: an interrupted run leaves none, and then no
    # stub is used.
    manifest = os.path.join(args.out, "stubs.txt")
    if os.path.exists(manifest):
        os.remove(manifest)
    wanted = archive_symbols(args.archive)
    lines = []
    for spec in args.library:
        replaces, path = spec.split("=", 1)
        real = os.path.realpath(path)
        stub = write_stub(args.cc, real, wanted, args.out, os.path.basename(path))
        st = os.stat(real)
        lines.append(f"{replaces}\t{os.path.basename(stub)}\t{real}\t{st.st_size}\t{st.st_mtime_ns}")
    with open(manifest + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(manifest + ".tmp", manifest)


if __name__ == "__main__":
    main()
