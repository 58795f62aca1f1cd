# SPDX-License-Identifier: Apache-2.0
"""The reader's files call "down" only (format/src/reader_internal.h, the layer table).

    check_reader_layers.py SRC_DIR            check: exit 1 and one line per call that goes up
    check_reader_layers.py SRC_DIR --graph    print who calls whom (file -> files it calls)

A call is a use of a function that another file of SRC_DIR defines, not static (a call, or
taking its address); a call to an inline function of reader_internal.h counts as the calls that function
makes. Layers come from the lines ` *  N  file.c  ...` of the table in reader_internal.h: a file
may call only files of a LOWER layer (files of one layer never call each other), so no cycle.
"""
import os
import re
import sys

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case",
            "__attribute__", "__builtin_expect", "defined"}


def strip(text):
    """Comments and string/char literals removed (newlines kept)."""
    out = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    out = re.sub(r"//[^\n]*", "", out)
    out = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', out)
    out = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", out)
    return out


def functions(text, with_static=True):
    """{name: body} of the functions defined at file level (first column); without the static
    ones when with_static is false."""
    found = {}
    for m in re.finditer(r"^[A-Za-z_][^;{}()#]*?\b([A-Za-z_]\w*)\s*\(([^;{}]*?)\)\s*"
                         r"(?:__attribute__\s*\(\([^;{}]*?\)\)\s*)?\{", text, flags=re.M | re.S):
        name = m.group(1)
        if not with_static and re.match(r"static\b", m.group(0)):
            continue
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        found[name] = text[m.end():i]
    return found


def used(body):
    return {n for n in re.findall(r"\b([A-Za-z_]\w*)\s*\(", body) if n not in KEYWORDS} | \
           set(re.findall(r"[=,(]\s*&?\s*([A-Za-z_]\w*)\s*[,;)]", body))


def main():
    src = sys.argv[1]
    header = strip(open(os.path.join(src, "reader_internal.h")).read())
    raw_header = open(os.path.join(src, "reader_internal.h")).read()
    inline = functions(header)
    files = sorted(f for f in os.listdir(src) if f.endswith(".c"))
    defs, bodies = {}, {}
    for f in files:
        text = strip(open(os.path.join(src, f)).read())
        bodies[f] = functions(text)
        for name in functions(text, with_static=False):
            defs.setdefault(name, set()).add(f)

    def expand(names, seen):
        out = set()
        for n in names:
            if n in inline and n not in seen:
                seen.add(n)
                out |= expand(used(inline[n]), seen)
            else:
                out.add(n)
        return out

    calls = {}
    for f in files:
        for name, body in bodies[f].items():
            for callee in expand(used(body), set()):
                for g in defs.get(callee, ()):
                    if g != f and callee not in bodies[f]:
                        calls.setdefault(f, {}).setdefault(g, set()).add(callee)
    if "--graph" in sys.argv:
        for f in files:
            targets = calls.get(f, {})
            print(f + " -> " + (", ".join("%s (%s)" % (g, " ".join(sorted(targets[g])))
                                          for g in sorted(targets)) or "-"))
        return 0
    layer = {m.group(2): int(m.group(1))
             for m in re.finditer(r"^ \*\s+(\d+)\s+(\w+\.c)\b", raw_header, flags=re.M)}
    bad = 0
    for f in files:
        if f not in layer:
            print("%s: not in the layer table of reader_internal.h" % f)
            bad += 1
            continue
        for g, names in sorted(calls.get(f, {}).items()):
            if layer.get(g, -1) >= layer[f]:
                print("%s (layer %d) calls %s (layer %s): %s" % (f, layer[f], g, layer.get(g, "?"),
                                                                  " ".join(sorted(names))))
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
