#!/usr/bin/env python3
"""Writes the front end's tables of Unicode code points, as sorted inclusive ranges, from the
Unicode database of the Python that runs it:

- lexer/name_chars_table.inc: the code points above ASCII that may start a name (XID_Start) and
  that may continue one (XID_Continue; str.isidentifier is defined by those two properties),
  less the default-ignorable code points, which show as nothing (U+3164, the Hangul filler, is a
  letter that looks like a space; the variation selectors are marks that look like nothing), so
  that two names that look alike are one name (lexer/name_chars.h, N1);
- lexer/nfc_table.inc: what Normalization Form C needs (lexer/nfc.h): each code point's
  canonical combining class, its full canonical decomposition, and the primary composites
  (a pair that NFC composes; Hangul syllables are computed, not listed);
- source/char_width_table.inc: the default-ignorable code points, those a terminal shows in no
  column (marks, format characters, the default-ignorables) and in two (East Asian wide and full-width), for the
  diagnostics' caret (source/utf8.h, U2).

Run it again to move to a newer Unicode version:  python3 frontend/gen_unicode_tables.py
"""
import os
import unicodedata

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), as ranges.
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]


def ignorable(cp):
    return any(a <= cp <= b for a, b in DEFAULT_IGNORABLE)


def zero_width(cp):
    return ignorable(cp) or unicodedata.category(chr(cp)) in ("Mn", "Me", "Cf")


def ranges(accepts):
    out, first = [], None
    for cp in range(0x80, 0x110000):
        if accepts(cp):
            if first is None:
                first = cp
        elif first is not None:
            out.append((first, cp - 1))
            first = None
    if first is not None:
        out.append((first, 0x10FFFF))
    return out


def table(comment, name, rs):
    lines = [f"// {comment}", f"constexpr CodePointRange {name}[] = {{"]
    row = []
    for a, b in rs:
        row.append(f"{{0x{a:X}, 0x{b:X}}},")
        if len(row) == 4:
            lines.append("    " + " ".join(row))
            row = []
    if row:
        lines.append("    " + " ".join(row))
    lines.append("};")
    return "\n".join(lines)


def combining_classes():
    out = []  # (first, last, class), runs of one non-zero class
    for cp in range(0x110000):
        c = unicodedata.combining(chr(cp))
        if c == 0:
            continue
        if out and out[-1][1] == cp - 1 and out[-1][2] == c:
            out[-1] = (out[-1][0], cp, c)
        else:
            out.append((cp, cp, c))
    return out


def hangul_syllable(cp):
    return 0xAC00 <= cp <= 0xD7A3


def nfc_tables():
    ccc = combining_classes()
    lines = ["// Canonical combining classes other than 0: {first, last, class}.",
             "constexpr CombiningRun kCombining[] = {"]
    for i in range(0, len(ccc), 4):
        lines.append("    " + " ".join(f"{{0x{a:X}, 0x{b:X}, {c}}}," for a, b, c in ccc[i:i + 4]))
    lines.append("};")
    # Full canonical decompositions (NFD of the code point), Hangul syllables left out.
    pool, entries = [], []
    for cp in range(0x80, 0x110000):
        if hangul_syllable(cp):
            continue
        d = unicodedata.normalize("NFD", chr(cp))
        if d != chr(cp):
            entries.append((cp, len(pool), len(d)))
            pool.extend(ord(ch) for ch in d)
    lines.append("// Full canonical decompositions: {code point, start in kDecompositionPool, length}.")
    lines.append("constexpr Decomposition kDecompositions[] = {")
    for i in range(0, len(entries), 4):
        lines.append("    " + " ".join(f"{{0x{c:X}, {o}, {n}}}," for c, o, n in entries[i:i + 4]))
    lines.append("};")
    lines.append("constexpr uint32_t kDecompositionPool[] = {")
    for i in range(0, len(pool), 8):
        lines.append("    " + " ".join(f"0x{c:X}," for c in pool[i:i + 8]))
    lines.append("};")
    # Primary composites: a two-code-point canonical decomposition that NFC composes back
    # (which leaves out the composition exclusions and the singletons).
    pairs = []
    for cp in range(0x80, 0x110000):
        d = unicodedata.decomposition(chr(cp))
        if not d or d.startswith("<"):
            continue
        parts = [int(x, 16) for x in d.split()]
        if len(parts) == 2 and unicodedata.normalize("NFC", chr(parts[0]) + chr(parts[1])) == chr(cp):
            pairs.append(((parts[0] << 21) | parts[1], cp))
    pairs.sort()
    lines.append("// Primary composites: {first << 21 | second, composite}, sorted by the pair.")
    lines.append("constexpr Composition kCompositions[] = {")
    for i in range(0, len(pairs), 4):
        lines.append("    " + " ".join(f"{{0x{k:X}, 0x{c:X}}}," for k, c in pairs[i:i + 4]))
    lines.append("};")
    return "\n".join(lines)


def write(path, tables):
    header = (f"// Generated by frontend/gen_unicode_tables.py from Unicode "
              f"{unicodedata.unidata_version}: do not edit.")
    with open(path, "w") as out:
        out.write("\n".join([header] + tables) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "lexer", "name_chars_table.inc"), [
        table("XID_Start above ASCII, less the default-ignorable code points.", "kNameStart",
              ranges(lambda cp: chr(cp).isidentifier() and not ignorable(cp))),
        table("XID_Continue above ASCII, less the default-ignorable code points.",
              "kNameContinue",
              ranges(lambda cp: ("a" + chr(cp)).isidentifier() and not ignorable(cp))),
    ])
    write(os.path.join(here, "lexer", "nfc_table.inc"), [nfc_tables()])
    write(os.path.join(here, "source", "char_width_table.inc"), [
        table("Default_Ignorable_Code_Point: shown as nothing at all.", "kDefaultIgnorable",
              DEFAULT_IGNORABLE),
        table("Shown in no column: marks (Mn, Me), format characters (Cf), default-ignorables.",
              "kZeroWidth", ranges(zero_width)),
        table("Shown in two columns: East Asian wide (W) and full-width (F), less the above.",
              "kDoubleWidth",
              ranges(lambda cp: unicodedata.east_asian_width(chr(cp)) in ("W", "F")
                     and not zero_width(cp))),
    ])


if __name__ == "__main__":
    main()
