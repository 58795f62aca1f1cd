#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTF tests: `evrec export --ctf` and the babeltrace2 plugin `evrec` (viewer-cli/ctf).

Every recording is read twice: by `evrec dump --raw` and by the babeltrace2 CLI (sink.text.pretty,
--clock-seconds), either from the CTF trace that `evrec export --ctf` wrote or straight from the
.evr file through the plugin. The two must agree record by record: event name, every field
(dotted path and value: an enum's label, or its number when the value has no name) and the time
(to 1 ns). babeltrace2 gives the records in time order; `evrec dump` in file order, so the dump is
sorted by time first (a stable sort: records of equal time keep their file order, as the plugin
keeps them).

usage: test_ctf.py --evrec EVREC --fixtures MAKE_CTF_FIXTURES --work DIR [--plugin-dir DIR]
                   [--demo EVREC_DEMO] [--bt-preload LIBS] CASE
CASE: export | plugin | losses | order | dir. Exit 0 pass, 1 fail, 77 skipped (no babeltrace2).
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

SKIP = 77


class Failure(Exception):
    pass


BT_ENV = None  # environment of the babeltrace2 runs (sanitizer builds: --bt-preload)


def run(cmd, expect=None):
    env = BT_ENV if BT_ENV is not None and cmd[0] == "babeltrace2" else None
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", env=env)
    if expect is not None and p.returncode != expect:
        raise Failure("%s: exit %d (expected %d)\nstdout:\n%s\nstderr:\n%s"
                      % (" ".join(cmd), p.returncode, expect, p.stdout[-3000:], p.stderr[-3000:]))
    return p


# ---- `evrec dump --raw` -------------------------------------------------------------------------

TOKEN = re.compile(r'(?:"(?:[^"\\]|\\.)*"|[^\s"])+')


def unquote(s):
    """A name or value as `evrec dump` prints it: plain, or quoted with \\" \\\\ \\xNN escapes."""
    if not s.startswith('"'):
        return s
    out, i, body = [], 0, s[1:-1]
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n == "x":
                out.append(chr(int(body[i + 2:i + 4], 16)))
                i += 4
                continue
            out.append(n)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def split_field(tok):
    """path=value, '=' outside quotes."""
    inq = False
    for i, c in enumerate(tok):
        if c == '"' and (i == 0 or tok[i - 1] != "\\"):
            inq = not inq
        elif c == "=" and not inq:
            return unquote(tok[:i]), unquote(tok[i + 1:])
    return None


def to_ns(sec):
    whole, _, frac = sec.partition(".")
    return int(whole) * 1000000000 + int((frac + "000000000")[:9])


def parse_dump_file_order(text):
    """Records of `evrec dump --raw` as (ns, event, [(path, value)]), in file order."""
    recs = []
    for line in text.splitlines():
        toks = TOKEN.findall(line)
        if len(toks) < 2:
            continue
        t = to_ns(toks[0]) if "." in toks[0] else int(toks[0])
        fields = []
        for tok in toks[2:]:
            if tok.startswith("[") or tok == "(unverified)":
                break  # the marker, the unverified flag
            kv = split_field(tok)
            if kv is not None:  # else the class column
                fields.append(kv)
        recs.append((t, unquote(toks[1]), fields))
    return recs


def parse_dump(text):
    """The same in time order, equal times in file order (a stable sort), as babeltrace2 has them."""
    return sorted(parse_dump_file_order(text), key=lambda r: r[0])


# ---- babeltrace2 sink.text.pretty ---------------------------------------------------------------

PRETTY = re.compile(r"^\[(\d+\.\d+)\] \([^)]*\) (.*?): (\{.*\})?\s*$")


class Payload:
    """Recursive descent over `{ a = 1, in = { p = 2 }, color = ( "Red" : container = 0 ) }`."""

    def __init__(self, s):
        self.s, self.i = s, 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def expect(self, c):
        self.ws()
        if not self.s.startswith(c, self.i):
            raise Failure("babeltrace2 output: expected %r at %d in %s" % (c, self.i, self.s))
        self.i += len(c)

    def peek(self, c):
        self.ws()
        return self.s.startswith(c, self.i)

    def ident(self):
        self.ws()
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(self.s, self.i)
        if not m:
            raise Failure("babeltrace2 output: expected a name at %d in %s" % (self.i, self.s))
        self.i = m.end()
        return m.group(0)

    def string(self):
        self.expect('"')
        out = []
        while self.s[self.i] != '"':
            if self.s[self.i] == "\\":
                self.i += 1
            out.append(self.s[self.i])
            self.i += 1
        self.i += 1
        return "".join(out)

    def number(self):
        self.ws()
        m = re.compile(r"0x[0-9A-Fa-f]+|\d+").match(self.s, self.i)
        if not m:
            raise Failure("babeltrace2 output: expected a number at %d in %s" % (self.i, self.s))
        self.i = m.end()
        return str(int(m.group(0), 0))

    def struct(self, prefix, out):
        self.expect("{")
        first = True
        while not self.peek("}"):
            if not first:
                self.expect(",")
            first = False
            name = self.ident()
            self.expect("=")
            self.value(prefix + name, out)
        self.expect("}")

    def value(self, path, out):
        if self.peek("{"):
            self.struct(path + ".", out)
        elif self.peek("("):
            self.expect("(")
            labels = []
            if self.peek("<unknown>"):
                self.expect("<unknown>")
            elif self.peek("{"):
                self.expect("{")
                labels.append(self.string())
                while self.peek(","):
                    self.expect(",")
                    labels.append(self.string())
                self.expect("}")
            else:
                labels.append(self.string())
            self.expect(":")
            self.expect("container")
            self.expect("=")
            num = self.number()
            self.expect(")")
            out.append((path, labels[0] if len(labels) == 1 else num))
        else:
            out.append((path, self.number()))


def parse_pretty(text):
    recs = []
    for line in text.splitlines():
        m = PRETTY.match(line)
        if not m:
            raise Failure("unexpected babeltrace2 line: %s" % line)
        fields = []
        if m.group(3):
            Payload(m.group(3)).struct("", fields)
        recs.append((to_ns(m.group(1)), m.group(2), fields))
    return recs


def compare(dump, ctf, what):
    if len(dump) != len(ctf):
        raise Failure("%s: evrec dump has %d records, babeltrace2 %d" % (what, len(dump), len(ctf)))
    names = set()
    labels = set()
    for k, (d, c) in enumerate(zip(dump, ctf)):
        if d[1] != c[1]:
            raise Failure("%s: record %d: event %s in the dump, %s in CTF" % (what, k, d[1], c[1]))
        if [p for p, _ in d[2]] != [p for p, _ in c[2]]:
            raise Failure("%s: record %d (%s): fields %s in the dump, %s in CTF"
                          % (what, k, d[1], d[2], c[2]))
        for (p, dv), (_, cv) in zip(d[2], c[2]):
            same = dv == cv
            if not same and dv.isdigit() and cv.isdigit():
                same = int(dv) == int(cv)
            if not same:
                raise Failure("%s: record %d (%s): %s=%s in the dump, %s in CTF" % (what, k, d[1], p, dv, cv))
            if not dv.isdigit():
                labels.add(dv)
        if abs(d[0] - c[0]) > 1:
            raise Failure("%s: record %d (%s): %d ns in the dump, %d ns in CTF" % (what, k, d[1], d[0], c[0]))
        names.add(d[1])
    return names, labels


# ---- the cases ------------------------------------------------------------------------------------

class Ctx:
    def __init__(self, a):
        self.a = a
        self.work = os.path.abspath(a.work)
        self.fx = os.path.join(self.work, "fixtures")
        self.out = os.path.join(self.work, "out-" + a.case)

    def setup(self):
        if shutil.which("babeltrace2") is None:
            print("SKIP: the babeltrace2 CLI is not installed (Debian: babeltrace2)")
            sys.exit(SKIP)
        shutil.rmtree(self.out, ignore_errors=True)  # this test's own output from an earlier run
        os.makedirs(self.out)
        fxdir = os.path.join(self.work, "fixtures-" + self.a.case)
        shutil.rmtree(fxdir, ignore_errors=True)
        os.makedirs(fxdir)
        run([self.a.fixtures, fxdir], expect=0)
        self.fx = fxdir
        probe = run([self.a.evrec, "export", "--ctf", os.path.join(self.out, "probe"), self.f("all.evr")])
        if "built without CTF support" in probe.stderr:
            print("SKIP: evrec was built without libbabeltrace2 (no export --ctf)")
            sys.exit(SKIP)
        if probe.returncode != 0:
            raise Failure("export --ctf of all.evr failed:\n" + probe.stderr)

    def f(self, name):
        return os.path.join(self.fx, name)

    def dump(self, path, expect=0, extra=()):
        return parse_dump(run([self.a.evrec, "dump", "--raw"] + list(extra) + [path], expect=expect).stdout)

    def export(self, path, expect=0, extra=()):
        d = os.path.join(self.out, os.path.basename(path) + ".ctf")
        shutil.rmtree(d, ignore_errors=True)  # made by this test
        p = run([self.a.evrec, "export"] + list(extra) + ["--ctf", d, path], expect=expect)
        return d, p

    def bt(self, args, expect=0):
        return run(["babeltrace2"] + args + ["--clock-seconds"], expect=expect)

    def bt_plugin(self, inputs, expect=0, params=""):
        arr = ",".join('"%s"' % i for i in inputs)
        return self.bt(["--plugin-path=" + self.a.plugin_dir, "-c", "source.evrec.file",
                        "-p", "inputs=[%s]%s" % (arr, params)], expect=expect)

    def demo(self, name, extra=()):
        if not self.a.demo:
            return None
        path = os.path.join(self.out, name)
        run([self.a.demo, "-o", path, "--frames", "20"] + list(extra), expect=0)
        return path


def header_counts(path):
    with open(path, "rb") as fh:
        h = fh.read(48)
    dropped, = struct.unpack(">Q", h[32:40])
    overwritten, = struct.unpack(">I", h[40:44])
    return dropped, overwritten


def case_export(c):
    """Every fixture through export --ctf; babeltrace2 reads the CTF back like `evrec dump`."""
    files = ["all.evr", "all.ccore", "ticks.evr", "reorder.evr", "drops.evr", "cyclic.evr"]
    demo = c.demo("demo.evr")
    if demo:
        files.append(demo)
    all_names, all_labels = set(), set()
    for name in files:
        path = name if os.path.isabs(name) else c.f(name)
        d, p = c.export(path)
        if not os.path.isfile(os.path.join(d, "metadata")):
            raise Failure("%s: no metadata in %s" % (name, d))
        if "CTF 1.8 trace of" not in p.stdout:
            raise Failure("%s: no summary: %s" % (name, p.stdout))
        ctf = parse_pretty(c.bt([d]).stdout)
        n, l = compare(c.dump(path), ctf, "export " + name)
        all_names |= n
        all_labels |= l
    # the demo-like file shows every kind: nested fields, static and run-time enum names
    for want in ("EventControl", "EvAll", "EvSimple"):
        if want not in all_names:
            raise Failure("event %s never seen" % want)
    for want in ("Start", "Tick", "Stop", "Red", "Info", "High", "Special", "TaskA", "Task B"):
        if want not in all_labels:
            raise Failure("enum label %s never compared" % want)
    meta = run(["babeltrace2", "-o", "ctf-metadata", c.export(c.f("all.evr"))[0]], expect=0).stdout
    for want in ('"Task B" = 101', 'name = "EvAll"', "freq = 1000000000", "absolute = false"):
        if want not in meta:
            raise Failure("CTF metadata lacks %s" % want)


def case_plugin(c):
    """source.evrec.file loaded with --plugin-path: by name, and found by itself for a .evr file."""
    files = ["all.evr", "all.ccore", "ticks.evr"]
    demo = c.demo("demo.evr")
    if demo:
        files.append(demo)
    for name in files:
        path = name if os.path.isabs(name) else c.f(name)
        dump = c.dump(path)
        compare(dump, parse_pretty(c.bt_plugin([path]).stdout), "plugin " + name)
        if path.endswith(".evr"):
            auto = c.bt(["--plugin-path=" + c.a.plugin_dir, path]).stdout
            compare(dump, parse_pretty(auto), "plugin auto-discovery " + name)
    # two inputs: two traces on one clock, merged by time
    both = parse_pretty(c.bt_plugin([c.f("all.evr"), c.f("ticks.evr")]).stdout)
    if len(both) != len(c.dump(c.f("all.evr"))) + len(c.dump(c.f("ticks.evr"))):
        raise Failure("two inputs: %d records" % len(both))
    # a filter on the .evr file: filter.utils.trimmer seeks (to the beginning, then forward)
    cut = parse_pretty(c.bt(["--plugin-path=" + c.a.plugin_dir, c.f("reorder.evr"),
                             "--begin=0.2", "--end=0.4"]).stdout)
    if [f[0][1] for _, _, f in cut] != ["2", "6", "4", "5"]:
        raise Failure("trimmer on reorder.evr: %s" % cut)
    # listed by babeltrace2, with its help
    lp = run(["babeltrace2", "--plugin-path=" + c.a.plugin_dir, "help", "source.evrec.file"], expect=0).stdout
    if "inputs" not in lp:
        raise Failure("babeltrace2 help source.evrec.file:\n" + lp)
    # a bad input: a clear error naming the file
    p = c.bt_plugin([c.f("missing.evr")], expect=1)
    if "missing.evr" not in p.stderr:
        raise Failure("missing input: no error naming it:\n" + p.stderr)
    p = c.bt(["--plugin-path=" + c.a.plugin_dir, "-c", "source.evrec.file", "-p", "inputs=[\"%s\"],colour=1"
              % c.f("all.evr")], expect=1)
    if "unknown parameter `colour`" not in p.stderr:
        raise Failure("unknown parameter not reported:\n" + p.stderr)


DISCARDED = re.compile(r"Tracer discarded (\d+) events? between")
DISCARDED_AT = re.compile(r"Tracer discarded \d+ events? between \[(\d+\.\d+)\] and \[(\d+\.\d+)\]")


def discarded(stderr):
    return [int(x) for x in DISCARDED.findall(stderr)]


def case_losses(c):
    """Dropped, overwritten and damaged records become discarded-events messages."""
    # dropped (one-shot buffer full): after the last record
    dropped, _ = header_counts(c.f("drops.evr"))
    if dropped == 0:
        raise Failure("drops.evr has no drops")
    d, p = c.export(c.f("drops.evr"))
    if "%d dropped" % dropped not in p.stdout:
        raise Failure("export summary lacks the drops: " + p.stdout)
    for how, out in (("CTF", c.bt([d])), ("plugin", c.bt_plugin([c.f("drops.evr")]))):
        if discarded(out.stderr) != [dropped]:
            raise Failure("%s: discarded %s, expected [%d]:\n%s" % (how, discarded(out.stderr), dropped, out.stderr))
    # overwritten (cyclic buffer): before the first record
    _, overwritten = header_counts(c.f("cyclic.evr"))
    if overwritten == 0:
        raise Failure("cyclic.evr has nothing overwritten")
    d, p = c.export(c.f("cyclic.evr"))
    if "%d overwritten" % overwritten not in p.stdout:
        raise Failure("export summary lacks the overwritten records: " + p.stdout)
    for how, out in (("CTF", c.bt([d])), ("plugin", c.bt_plugin([c.f("cyclic.evr")]))):
        if discarded(out.stderr) != [overwritten]:
            raise Failure("%s: discarded %s, expected [%d]" % (how, discarded(out.stderr), overwritten))
        if not out.stdout.strip():
            raise Failure("%s: no events" % how)
    # damage: the records before the broken chunk, then the rest as discarded (header count)
    dump = c.dump(c.f("damaged.evr"), expect=1)
    full = c.dump(c.f("all.evr"))
    lost = len(full) - len(dump)
    d, p = c.export(c.f("damaged.evr"), expect=1)
    if "offset" not in p.stderr or "CRC" not in p.stderr:
        raise Failure("export of damaged.evr: no damage report:\n" + p.stderr)
    if not all(line.startswith("evrec: ") for line in p.stderr.splitlines()):
        raise Failure("export stderr lines without the evrec: prefix:\n" + p.stderr)
    for how, out in (("CTF", c.bt([d])), ("plugin", c.bt_plugin([c.f("damaged.evr")]))):
        compare(dump, parse_pretty(out.stdout), "damaged " + how)
        if discarded(out.stderr) != [lost]:
            raise Failure("%s: discarded %s, expected [%d]" % (how, discarded(out.stderr), lost))
    # damage in the middle (SYNC chunks): one discarded-events message at the gap, between the
    # last record before it and the first after it, with the count of records lost
    dump = c.dump(c.f("gap.evr"), expect=1)
    lines = run([c.a.evrec, "dump", "--raw", "--index", c.f("gap.evr")], expect=1).stdout.splitlines()
    idx = [int(l.split()[0][1:]) for l in lines if l.startswith("#")]
    jumps = [(a, b) for a, b in zip(idx, idx[1:]) if b != a + 1]
    if len(jumps) != 1:
        raise Failure("gap.evr: %d gaps in dump's indices, expected 1" % len(jumps))
    before, after = jumps[0]
    lost = after - before - 1
    m = re.search(r"\(after damage: (\d+) records? lost\)", "\n".join(lines))
    if not m or int(m.group(1)) != lost:
        raise Failure("gap.evr: dump does not say %d records lost after damage" % lost)
    d, p = c.export(c.f("gap.evr"), expect=1)
    if "%d lost to damage in 1 gap" % lost not in p.stdout:
        raise Failure("export summary lacks the gap: " + p.stdout)
    t_before, t_after = dump[idx.index(before)][0], dump[idx.index(after)][0]
    for how, out in (("CTF", c.bt([d])), ("plugin", c.bt_plugin([c.f("gap.evr")]))):
        compare(dump, parse_pretty(out.stdout), "gap " + how)
        if discarded(out.stderr) != [lost]:
            raise Failure("%s: gap.evr discarded %s, expected [%d]:\n%s" % (how, discarded(out.stderr), lost, out.stderr))
        # where: from the last record before the gap to the first after it
        m = DISCARDED_AT.search(out.stderr)
        if not m or (to_ns(m.group(1)), to_ns(m.group(2))) != (t_before, t_after):
            raise Failure("%s: gap.evr: discarded events not between [%d ns] and [%d ns]:\n%s"
                          % (how, t_before, t_after, out.stderr))
    # the demo with a small buffer: real drops
    demo = c.demo("demo-small.evr", ["--buffer", "4K"])
    if demo:
        dropped, _ = header_counts(demo)
        d, _ = c.export(demo)
        out = c.bt([d])
        compare(c.dump(demo), parse_pretty(out.stdout), "demo with a 4K buffer")
        if dropped and discarded(out.stderr) != [dropped]:
            raise Failure("demo: discarded %s, expected [%d]" % (discarded(out.stderr), dropped))


def case_order(c):
    """Records stamped out of order come out in time order; beyond the window they are clamped."""
    path = c.f("reorder.evr")
    file_order = [f[0][1] for _, n, f in parse_dump_file_order(run([c.a.evrec, "dump", "--raw", path], expect=0).stdout) if n == "EvSimple"]
    if file_order != ["1", "2", "3", "4", "5", "6", "7"]:
        raise Failure("reorder.evr: unexpected file order %s" % file_order)
    d, p = c.export(path)
    if "2 records stamped earlier" not in p.stdout:
        raise Failure("export summary lacks the reordering: " + p.stdout)
    ctf = parse_pretty(c.bt([d]).stdout)
    compare(c.dump(path), ctf, "reorder")
    got = [f[0][1] for _, n, f in ctf if n == "EvSimple"]
    if got != ["1", "3", "2", "6", "4", "5", "7"]:
        raise Failure("reorder: order %s" % got)
    # a window of 1 record: the late records get the time of the record before them
    for how, out in (("plugin", c.bt_plugin([path], params=",reorder-window=1")),
                     ("CTF", c.bt([c.export(path, extra=["--reorder-window", "1"])[0]]))):
        recs = parse_pretty(out.stdout)
        times = [t for t, _, _ in recs]
        if times != sorted(times) or len(recs) != 9:
            raise Failure("%s: window 1: times not in order: %s" % (how, times))
        got = [f[0][1] for _, n, f in recs if n == "EvSimple"]
        if got != ["1", "2", "3", "4", "5", "6", "7"]:
            raise Failure("%s: window 1: order %s" % (how, got))
    out = c.bt_plugin([path], params=",reorder-window=1")
    if "reorder-window=1" not in out.stderr:
        raise Failure("no warning about clamped records:\n" + out.stderr)


def case_dir(c):
    """export --ctf writes only into a new or empty DIR and deletes nothing it did not make."""
    src = c.f("all.evr")
    # a non-empty directory is refused, untouched
    full = os.path.join(c.out, "full")
    os.makedirs(full)
    with open(os.path.join(full, "keep.txt"), "w") as fh:
        fh.write("mine\n")
    p = run([c.a.evrec, "export", "--ctf", full, src], expect=1)
    if "not empty" not in p.stderr:
        raise Failure("non-empty DIR: " + p.stderr)
    if sorted(os.listdir(full)) != ["keep.txt"] or open(os.path.join(full, "keep.txt")).read() != "mine\n":
        raise Failure("non-empty DIR was changed: %s" % os.listdir(full))
    # a file is refused, untouched
    afile = os.path.join(c.out, "afile")
    with open(afile, "w") as fh:
        fh.write("data\n")
    p = run([c.a.evrec, "export", "--ctf", afile, src], expect=1)
    if "not a directory" not in p.stderr or open(afile).read() != "data\n":
        raise Failure("DIR that is a file: " + p.stderr)
    # an empty directory is used; nothing is left but the trace
    empty = os.path.join(c.out, "empty")
    os.makedirs(empty)
    run([c.a.evrec, "export", "-q", "--ctf", empty, src], expect=0)
    left = sorted(os.listdir(empty))
    if "metadata" not in left or len(left) != 2:
        raise Failure("empty DIR: left %s" % left)
    # a bad input: nothing created
    new = os.path.join(c.out, "new")
    p = run([c.a.evrec, "export", "--ctf", new, c.f("missing.evr")], expect=1)
    if os.path.exists(new) or "missing.evr" not in p.stderr:
        raise Failure("bad input: DIR created or no error: " + p.stderr)
    # a missing parent: a clear error
    p = run([c.a.evrec, "export", "--ctf", os.path.join(c.out, "no", "such"), src], expect=1)
    if "cannot create" not in p.stderr:
        raise Failure("missing parent: " + p.stderr)
    # usage
    run([c.a.evrec, "export", "--ctf", src], expect=2)
    p = run([c.a.evrec, "export", "--help"], expect=0)
    if "--ctf DIR" not in p.stdout:
        raise Failure("help: " + p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--evrec", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--plugin-dir")
    ap.add_argument("--demo")
    ap.add_argument("--bt-preload", help="LD_PRELOAD for babeltrace2 (the sanitizers' run-times)")
    ap.add_argument("case", choices=["export", "plugin", "losses", "order", "dir"])
    a = ap.parse_args()
    if a.bt_preload:
        global BT_ENV
        BT_ENV = dict(os.environ, LD_PRELOAD=a.bt_preload, ASAN_OPTIONS="detect_leaks=0")
    c = Ctx(a)
    c.setup()
    if a.case == "plugin" and not a.plugin_dir:
        print("SKIP: the babeltrace2 plugin was not built")
        return SKIP
    try:
        {"export": case_export, "plugin": case_plugin, "losses": case_losses,
         "order": case_order, "dir": case_dir}[a.case](c)
    except Failure as e:
        print("FAIL:", e)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
