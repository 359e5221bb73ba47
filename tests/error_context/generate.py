#!/usr/bin/env python3
"""Writes tests/error_context/libxml2.txt: for each document below, the
first error libxml2 (through lxml, recovering) reports, when it is "Opening
and ending tag mismatch: NAME line N and END", for tests/error_context.rs to
hold xml5dom's first error context to (the open element's local name, its
line, and the end tag). One line each, tab-separated: NAME, N, END, the
document (a line feed in it written `\\n`). libxml2 recovers otherwise than
XML5 after an error, so only the first is compared.

Run by hand when the list changes; the test only reads the file.
Requirements: `pip install lxml`.
Usage: python3 tests/error_context/generate.py
"""

import pathlib
import re

from lxml import etree

DOCUMENTS = [
    "<a><key>x</a>",
    "<r>\n<schema>\n  <x/>\n  <key>\n</schema>\n</r>",
    "<r><a><b><c></a></r>",
    "<r>\n <p:b xmlns:p='u'></x></p:b></r>",
    "<r>\n\n  <a>\n    <b>text\n    </a>\n</r>",
    "<list><item>one<item>two</list>",
    "<html><body><p>one<br>two</p></body></html>",
    "<r><a x='1'\n   y='2'>\n<b/></c></a></r>",
    "<feed>\n  <entry>\n    <title>t</titel>\n  </entry>\n</feed>",
    "<r>\r\n<a>\r\n<b>\r\n</a>\r\n</r>",
    "<r><caf\u00e9>\n<na\u00efve>x</caf\u00e9></r>",
    "<?xml version='1.0'?>\n<!-- c -->\n<root>\n<child>\n</root>",
]

MISMATCH = re.compile(r"^Opening and ending tag mismatch: (\S+) line (\d+) and (\S+)$")


def main():
    lines = []
    for document in DOCUMENTS:
        parser = etree.XMLParser(recover=True)
        try:
            etree.fromstring(document.encode("utf-8"), parser)
        except etree.XMLSyntaxError:
            pass
        first = parser.error_log[0] if len(parser.error_log) else None
        found = MISMATCH.match(first.message) if first is not None else None
        if found is None:
            raise SystemExit(f"no tag mismatch first in {document!r}: {first}")
        name, line, end = found.groups()
        escaped = document.replace("\r", "\\r").replace("\n", "\\n")
        lines.append(f"{name}\t{line}\t{end}\t{escaped}\n")
    out = pathlib.Path(__file__).resolve().parent / "libxml2.txt"
    out.write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
