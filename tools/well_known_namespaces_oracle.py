#!/usr/bin/env python3
"""Checks the table of well-known prefixes (`WELL_KNOWN_NAMESPACES`,
src/dom/mod.rs; issue 35) against the namespace tables of feed and HTML
libraries that quote the specifications, and prints where each URI is
found, as docs/conformance.md ("Well-known prefixes") lists it.

    python3 tools/well_known_namespaces_oracle.py

It installs into a scratch directory, with the ordinary clients, the
packages it reads (nothing is imported or run from them):

* feedparser 6.0.14 (PyPI): `feedparser/namespaces/*.py`, `mixin.py`;
* html5lib (PyPI): `html5lib/constants.py`;
* feedsmith 3.0.1 (npm): `dist/namespaces/*/common/config.mjs`;
* podcast-partytime 5.0.0 (npm): `docs/podcast-index.md`, its copy of the
  Podcast Index namespace documents.

A URI counts as found where the source holds it quoted, exactly (`exact`)
or only in another case (`case`: feedparser compares namespaces without
case). Exit status 1 if a URI of the table is found exactly in none.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def table():
    """The (prefix, URI) pairs of WELL_KNOWN_NAMESPACES."""
    source = open(os.path.join(ROOT, "src/dom/mod.rs"), encoding="utf-8").read()
    body = source.split("pub const WELL_KNOWN_NAMESPACES", 1)[1].split("];", 1)[0]
    return re.findall(r'\(\s*"([^"]+)",\s*"([^"]+)",?\s*\)', body)


def fetch(scratch):
    """The text of each library's namespace sources, by library."""
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", scratch]
    subprocess.run(pip + ["feedparser==6.0.14", "html5lib"], check=True)
    subprocess.run(
        ["npm", "pack", "--silent", "feedsmith@3.0.1", "podcast-partytime@5.0.0"],
        cwd=scratch,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    for archive in glob.glob(os.path.join(scratch, "*.whl")):
        subprocess.run(["unzip", "-q", "-o", archive, "-d", scratch], check=True)
    for archive in glob.glob(os.path.join(scratch, "*.tgz")):
        name = os.path.basename(archive).rsplit("-", 1)[0]
        os.makedirs(os.path.join(scratch, name), exist_ok=True)
        subprocess.run(["tar", "xzf", archive, "-C", os.path.join(scratch, name)], check=True)
    sources = {
        "feedparser": glob.glob(os.path.join(scratch, "feedparser/namespaces/*.py"))
        + [os.path.join(scratch, "feedparser/mixin.py")],
        "html5lib": [os.path.join(scratch, "html5lib/constants.py")],
        "feedsmith": glob.glob(
            os.path.join(scratch, "feedsmith/package/dist/namespaces/*/common/config.mjs")
        ),
        "podcast-partytime": [
            os.path.join(scratch, "podcast-partytime/package/docs/podcast-index.md")
        ],
    }
    return {
        library: "\n".join(open(path, encoding="utf-8").read() for path in paths)
        for library, paths in sources.items()
    }


def found(uri, text):
    """'exact', 'case' or None: how `uri` is quoted in `text`."""
    quoted = [q + uri + q for q in "\"'`"]
    if any(q in text for q in quoted):
        return "exact"
    lowered = text.lower()
    if any(q.lower() in lowered for q in quoted):
        return "case"
    return None


def main():
    with tempfile.TemporaryDirectory() as scratch:
        texts = fetch(scratch)
    missing = []
    for prefix, uri in table():
        where = []
        for library, text in texts.items():
            how = found(uri, text)
            if how:
                where.append(library if how == "exact" else f"{library} (case)")
        if not any("(case)" not in w for w in where):
            missing.append(prefix)
        print(f"{prefix}\t{uri}\t{', '.join(where) or '-'}")
    if missing:
        print(f"found exactly in no library: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
