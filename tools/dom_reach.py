#!/usr/bin/env python3
"""How far the DOM's crate-private items reach (issue 34): the `pub(crate)`
items of src/dom/ and, of those, the ones named in a file outside src/dom/.

    python3 tools/dom_reach.py [--list] [SRC]     # SRC defaults to src

An item is a `pub(crate)` fn, struct, enum, trait, type, const, static or
field declared in src/dom/ (a re-export, `pub(crate) use`, counts as the
items it re-exports, so it is not counted again). It is "used outside"
when a file of SRC outside dom/ names it: a type, trait, const or static
as a word, a fn as `name(` after `.` or `::`, a field as `.name` not
followed by `(`. Names are matched as text, so a method of another type
with the same name counts too; the figure is for comparing a before and an
after, measured alike.
"""

import os
import re
import sys

ITEM = re.compile(
    r"pub\(crate\)\s+(?:const\s+fn|unsafe\s+fn|fn|struct|enum|trait|type|const|static)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
FIELD = re.compile(r"^\s*pub\(crate\)\s+([a-z_][a-z0-9_]*)\s*:", re.M)
KIND = re.compile(r"pub\(crate\)\s+(const\s+fn|unsafe\s+fn|fn|struct|enum|trait|type|const|static)\s+")


def rust_files(root):
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".rs"):
                yield os.path.join(directory, name)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    listing = "--list" in sys.argv
    src = args[0] if args else "src"
    dom = os.path.join(src, "dom")
    items = {}
    for path in rust_files(dom):
        text = open(path, encoding="utf-8").read()
        for match in ITEM.finditer(text):
            kind = KIND.match(text, match.start()).group(1).split()[-1]
            items.setdefault(match.group(1), kind)
        for match in FIELD.finditer(text):
            items.setdefault(match.group(1), "field")
    outside = ""
    for path in rust_files(src):
        if not os.path.abspath(path).startswith(os.path.abspath(dom) + os.sep):
            outside += open(path, encoding="utf-8").read() + "\n"
    used = []
    for name, kind in sorted(items.items()):
        if kind == "fn":
            pattern = r"(?:\.|::)" + re.escape(name) + r"\s*(?:::<[^>]*>)?\("
        elif kind == "field":
            pattern = r"\." + re.escape(name) + r"\b(?!\s*\()"
        else:
            pattern = r"\b" + re.escape(name) + r"\b"
        if re.search(pattern, outside):
            used.append((name, kind))
    print("pub(crate) items in %s: %d; named outside it: %d" % (dom, len(items), len(used)))
    if listing:
        for name, kind in used:
            print("  %s %s" % (kind, name))


if __name__ == "__main__":
    main()
