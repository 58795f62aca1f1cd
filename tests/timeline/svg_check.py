#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# svg_check.py FILE.svg LANE... [-- LEGEND...]: the SVG written by `evrec timeline` parses as XML,
# is an <svg> document with drawing in it, and its metadata lists exactly these lanes (in this
# order) and at least these legend names. Exit 0 when it does, 1 with a message when not.
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
TL = "{urn:evrec:timeline}"

args = sys.argv[2:]
lanes, legend = (args[: args.index("--")], args[args.index("--") + 1 :]) if "--" in args else (args, [])
root = ET.parse(sys.argv[1]).getroot()
if root.tag != SVG + "svg":
    sys.exit("root element is %s, not svg" % root.tag)
drawn = sum(1 for e in root.iter() if e.tag in (SVG + "path", SVG + "rect", SVG + "use"))
if drawn < 10:
    sys.exit("only %d drawing elements" % drawn)
tl = root.find(SVG + "metadata/" + TL + "timeline")
if tl is None:
    sys.exit("no tl:timeline metadata")
got = [e.get("label") for e in tl.findall(TL + "lane")]
if got != lanes:
    sys.exit("lanes %r, expected %r" % (got, lanes))
names = {e.get("name") for e in tl.findall(TL + "legend")}
missing = [n for n in legend if n not in names]
if missing:
    sys.exit("legend lacks %r (has %r)" % (missing, sorted(names)))
print("ok: %d drawing elements, lanes %s" % (drawn, ", ".join(got)))
