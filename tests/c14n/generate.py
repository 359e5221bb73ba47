#!/usr/bin/env python3
"""Generates tests/c14n/expected/ from tests/c14n/input/ with libxml2.

Run once, by hand, when the inputs were written; the outputs are checked in
and this script is not part of the test run (tests/canonical.rs only reads
the files it wrote).

- NAME.c14n-comments: `xmllint --c14n NAME.xml` (Canonical XML 1.0 with
  comments; xmllint has no option for the form without them);
- NAME.c14n: lxml (libxml2 underneath), `tostring(method="c14n",
  with_comments=False)`.

The other forms (Exclusive, 1.1, PrefixLists, document subsets) are
written by generate_libxml2.py beside this script, which calls libxml2's
C14N code directly.

Requirements: xmllint (Debian's libxml2-utils) and `pip install lxml`.
Usage: python3 tests/c14n/generate.py
"""

import pathlib
import subprocess
import sys

from lxml import etree

HERE = pathlib.Path(__file__).resolve().parent
INPUT = HERE / "input"
EXPECTED = HERE / "expected"


def main():
    EXPECTED.mkdir(exist_ok=True)
    failures = 0
    for path in sorted(INPUT.glob("*.xml")):
        name = path.stem
        # With comments: xmllint.
        run = subprocess.run(
            ["xmllint", "--c14n", str(path)], capture_output=True, check=False
        )
        if run.returncode != 0 or run.stderr:
            print(f"{name}: xmllint: {run.stderr.decode(errors='replace')}", file=sys.stderr)
            failures += 1
            continue
        (EXPECTED / f"{name}.c14n-comments").write_bytes(run.stdout)

        # Without comments: lxml.
        parser = etree.XMLParser(resolve_entities=True, load_dtd=False, no_network=True)
        tree = etree.parse(str(path), parser)
        out = etree.tostring(tree, method="c14n", with_comments=False)
        (EXPECTED / f"{name}.c14n").write_bytes(out)
    if failures:
        sys.exit(f"{failures} input(s) failed")


if __name__ == "__main__":
    main()
