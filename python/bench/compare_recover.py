#!/usr/bin/env python3
"""xml5dom against lxml's ``XMLParser(recover=True)`` (and BeautifulSoup's
"xml" builder, lxml underneath, when installed) on the same broken inputs:
what each keeps and what each's error log says. Writes
python/bench/compare_recover.md, whose tables docs/python-vs-lxml.md quotes.

The inputs are the repository's broken documents:

* the issue's named cases (``NAMED`` below: ``AT&T``, ``&nbsp;`` without a
  DTD, unclosed tags, an undeclared prefix, Windows-1252 bytes labelled
  UTF-8, and a few of their neighbours);
* every ``#data`` of the tree-construction suites (tests/tree-construction,
  the XML5 suite's tests/xml5lib-tests/tree-construction);
* tests/regressions/*.bin, tests/xpath/documents/broken-*.xml and the
  documents of tests/error_context/generate.py;
* 1 MB of the benchmarks' "damaged" records (bench-tools' ``generate
  damaged 1``: missing end tags, unquoted attributes, bare ``&``, stray
  ``<``, duplicate attributes, a truncated end).

Of these, only the documents that are not well-formed are compared (lxml's
default parser refuses them, or xml5dom reports an error).

What "kept" means: the multiset of the non-whitespace characters a program
can read back from the tree through the ElementTree API: every element's
text and tail, every attribute value, every comment's text, every
processing instruction's target and text, for the root element, its
descendants, and the comments and processing instructions beside it.
Whitespace is left out so that a parser that keeps a line end another
drops is not counted as keeping "more" ("in substance"). Of two parsers,
one "keeps less" on a file when some character (with its multiplicity) of
the other's multiset is missing from its own.

Requirements: the xml5dom package (``pip install ./python``), lxml;
beautifulsoup4 optional. ``generate`` is built with
``cargo build --release -p bench-tools --bin generate`` (the script runs
``cargo run`` for it).

Usage: python3 python/bench/compare_recover.py
"""

import ast
import collections
import io
import pathlib
import subprocess
import sys

from lxml import etree as lxml_etree

from xml5dom import etree

try:
    import bs4
except ImportError:  # the third column is left out
    bs4 = None

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
OUTPUT = pathlib.Path(__file__).resolve().parent / "compare_recover.md"

# The named cases, and a few neighbours of each. Bytes, as a file
# would hold them.
NAMED = [
    ("AT&T", b"<company><name>AT&T</name><note>R&D, Q&A</note></company>"),
    ("&nbsp; without a DTD", b"<p>Price:&nbsp;10&nbsp;&euro; &copy; ACME</p>"),
    ("unclosed tags", b"<list><item>one<item>two<br>three</list>"),
    ("unclosed at the end", b"<feed><entry><title>First</title><summary>cut off"),
    ("mismatched end tag", b"<a><b>bold</c> text</a>"),
    (
        "undeclared prefix",
        b"<rss><channel><media:title>Clip</media:title>"
        b"<item dc:creator='Ann'>x</item></channel></rss>",
    ),
    (
        "Windows-1252 labelled UTF-8",
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b"<p>caf\xe9 \x93quoted\x94 \x96 na\xefve</p>",
    ),
    ("unquoted attribute", b"<img src=a.png alt='A picture' width=10/>"),
    ("duplicate attribute", b"<p id='one' class='x' id='two'>text</p>"),
    ("stray <", b"<p>if a < b and c<d then</p>"),
]


def tree_construction_documents():
    """Every ``#data`` of the tree-construction suites' .dat files."""
    found = []
    for directory in ("tests/tree-construction", "tests/xml5lib-tests/tree-construction"):
        for path in sorted((REPOSITORY / directory).glob("*.dat")):
            lines = path.read_text(encoding="utf-8").split("\n")
            number = 0
            for at, line in enumerate(lines):
                if line != "#data":
                    continue
                end = at + 1
                while end < len(lines) and not lines[end].startswith("#"):
                    end += 1
                number += 1
                text = "\n".join(lines[at + 1 : end])
                found.append((f"{path.relative_to(REPOSITORY)} #{number}", text.encode("utf-8")))
    return found


def error_context_documents():
    """The DOCUMENTS list of tests/error_context/generate.py, read without
    running the script."""
    path = REPOSITORY / "tests/error_context/generate.py"
    module = ast.parse(path.read_text(encoding="utf-8"))
    for node in module.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "DOCUMENTS":
            documents = ast.literal_eval(node.value)
            return [
                (f"tests/error_context/generate.py #{n}", text.encode("utf-8"))
                for n, text in enumerate(documents, 1)
            ]
    raise SystemExit("no DOCUMENTS in tests/error_context/generate.py")


def damaged_records():
    command = [
        "cargo", "run", "-q", "--release", "-p", "bench-tools", "--bin", "generate",
        "--", "damaged", "1",
    ]
    data = subprocess.run(command, cwd=REPOSITORY, check=True, capture_output=True).stdout
    return [("bench-tools generate damaged 1 (1 MB)", data)]


def inputs():
    found = [(f"named: {name}", data) for name, data in NAMED]
    found += tree_construction_documents()
    for path in sorted((REPOSITORY / "tests/regressions").glob("*.bin")):
        found.append((str(path.relative_to(REPOSITORY)), path.read_bytes()))
    for path in sorted((REPOSITORY / "tests/xpath/documents").glob("broken-*.xml")):
        found.append((str(path.relative_to(REPOSITORY)), path.read_bytes()))
    found += error_context_documents()
    found += damaged_records()
    return found


def group(name):
    if name.startswith("named:"):
        return "the issue's named cases"
    if name.startswith("tests/tree-construction"):
        return "tests/tree-construction"
    if name.startswith("tests/xml5lib-tests"):
        return "tests/xml5lib-tests/tree-construction"
    if name.startswith("tests/regressions"):
        return "tests/regressions"
    if name.startswith("tests/xpath"):
        return "tests/xpath/documents/broken-*"
    if name.startswith("tests/error_context"):
        return "tests/error_context"
    return "bench-tools damaged records"


class Kept:
    """What one parser kept of one document."""

    def __init__(self, characters, elements, attributes, errors, first_error, has_root):
        self.characters = characters
        self.elements = elements
        self.attributes = attributes
        self.errors = errors
        self.first_error = first_error
        self.has_root = has_root


def characters_of(text, into):
    # U+FFFD is what a parser puts where it lost characters: no character
    # of the input, so not one kept.
    if text:
        into.update(c for c in text if not c.isspace() and c != "\ufffd")


def attribute_values(element, module):
    if module is lxml_etree:
        # lxml's attrib.values() repeats the first value of an attribute a
        # recovered document has twice; the attribute nodes hold both.
        return [str(value) for value in element.xpath("@*")]
    return element.attrib.values()


def etree_kept(root, module, entity_tag=None):
    """The characters, elements and attributes readable through the
    ElementTree API from ``root`` and the nodes beside it."""
    characters = collections.Counter()
    elements = attributes = 0
    if root is None:
        return characters, 0, 0
    first = root
    while first.getprevious() is not None:
        first = first.getprevious()
    top = first
    while top is not None:
        for node in top.iter():
            if node.tag is module.Comment:
                characters_of(node.text, characters)
            elif node.tag is module.ProcessingInstruction:
                characters_of(node.target, characters)
                characters_of(node.text, characters)
            elif entity_tag is not None and node.tag is entity_tag:
                pass  # an unresolved reference (lxml): not the character it stands for
            else:
                elements += 1
                characters_of(node.text, characters)
                for value in attribute_values(node, module):
                    attributes += 1
                    characters_of(value, characters)
            if node is not top:
                characters_of(node.tail, characters)
        top = top.getnext()
    return characters, elements, attributes


def xml5dom_kept(data):
    tree = etree.parse(io.BytesIO(data))
    root = tree.getroot()
    characters, elements, attributes = etree_kept(root, etree)
    log = tree.error_log
    first = None
    if len(log):
        entry = log[0]
        first = f"{entry.line}:{entry.column} (offset {entry.offset}) {entry.code}: {entry.message}"
    return Kept(characters, elements, attributes, len(log), first, root is not None)


def lxml_kept(data):
    parser = lxml_etree.XMLParser(recover=True)
    try:
        root = lxml_etree.fromstring(data, parser)
    except lxml_etree.XMLSyntaxError:
        root = None
    characters, elements, attributes = etree_kept(root, lxml_etree, lxml_etree.Entity)
    log = parser.error_log
    first = None
    if len(log):
        entry = log[0]
        first = f"{entry.line}:{entry.column} {entry.type_name}: {entry.message.strip()}"
    return Kept(characters, elements, attributes, len(log), first, root is not None)


def soup_kept(data):
    soup = bs4.BeautifulSoup(data, "xml")
    characters = collections.Counter()
    elements = attributes = 0
    for node in soup.descendants:
        if isinstance(node, bs4.element.Tag):
            elements += 1
            for name, value in node.attrs.items():
                if name == "xmlns" or name.startswith("xmlns:"):
                    continue  # a namespace declaration, not in lxml's attrib either
                attributes += 1
                characters_of(" ".join(value) if isinstance(value, list) else value, characters)
        elif isinstance(node, (bs4.element.Doctype, bs4.element.XMLProcessingInstruction)):
            # The DOCTYPE (the ElementTree walk leaves it out too), and the
            # XML declaration BeautifulSoup writes of its own.
            if isinstance(node, bs4.element.XMLProcessingInstruction) and not node.startswith("xml "):
                characters_of(str(node), characters)
        elif isinstance(node, bs4.element.NavigableString):
            characters_of(str(node), characters)
    return Kept(characters, elements, attributes, None, None, elements > 0)


def missing(ours, theirs):
    """How many characters of ``theirs`` are not in ``ours`` (multiset)."""
    return sum((theirs - ours).values())


def well_formed(data):
    try:
        lxml_etree.fromstring(data, lxml_etree.XMLParser(resolve_entities=False, load_dtd=False))
    except lxml_etree.XMLSyntaxError:
        return False
    return etree.parse(io.BytesIO(data)).is_well_formed


def shown(characters, limit=40):
    text = "".join(sorted(characters.elements()))
    if len(text) > limit:
        text = text[:limit] + "…"
    return "`" + text.replace("`", "ˋ").replace("|", "\\|") + "`" if text else "—"


def cell(text, limit=90):
    if text is None:
        return "—"
    text = text.replace("\n", " ").replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def main():
    rows = []
    skipped = 0
    for name, data in inputs():
        if well_formed(data):
            skipped += 1
            continue
        ours = xml5dom_kept(data)
        lxml = lxml_kept(data)
        soup = soup_kept(data) if bs4 is not None else None
        rows.append((name, data, ours, lxml, soup))

    out = []
    total = len(rows)
    lxml_less = sum(1 for _, _, o, l, _ in rows if missing(l.characters, o.characters) > 0)
    ours_less = sum(1 for _, _, o, l, _ in rows if missing(o.characters, l.characters) > 0)
    out.append("# xml5dom and lxml `recover=True` on broken inputs (generated)\n")
    out.append(
        "Written by `python3 python/bench/compare_recover.py` (lxml "
        f"{lxml_etree.__version__}, libxml2 {'.'.join(map(str, lxml_etree.LIBXML_VERSION))}"
        + (f", beautifulsoup4 {bs4.__version__}" if bs4 is not None else "")
        + f"); docs/python-vs-lxml.md says how to read it. {total} documents that are "
        f"not well-formed ({skipped} well-formed ones of the same sources left out).\n"
    )
    out.append("## Summary\n")
    out.append(
        "| | xml5dom | lxml recover=True"
        + (" | BeautifulSoup xml" if bs4 else "")
        + " |\n| --- | ---: | ---: |"
        + (" ---: |" if bs4 else "")
    )

    def line(label, values):
        out.append(f"| {label} | " + " | ".join(str(v) for v in values) + " |")

    parsers = [2, 3] + ([4] if bs4 else [])
    line("documents", [total] * len(parsers))
    line(
        "non-whitespace characters kept",
        [sum(sum(row[p].characters.values()) for row in rows) for p in parsers],
    )
    line("elements kept", [sum(row[p].elements for row in rows) for p in parsers])
    line("attributes kept", [sum(row[p].attributes for row in rows) for p in parsers])
    line("documents with no root element", [sum(not row[p].has_root for row in rows) for p in parsers])
    line(
        "documents where it keeps fewer characters (xml5dom: than lxml; the others: than xml5dom)",
        [ours_less, lxml_less]
        + ([sum(1 for r in rows if missing(r[4].characters, r[2].characters) > 0)] if bs4 else []),
    )
    line(
        "error log entries",
        [sum(r[2].errors for r in rows), sum(r[3].errors for r in rows)] + (["(no log)"] if bs4 else []),
    )
    line(
        "documents with no error logged",
        [sum(r[2].errors == 0 for r in rows), sum(r[3].errors == 0 for r in rows)]
        + (["(no log)"] if bs4 else []),
    )
    out.append("")

    out.append("## By source\n")
    out.append(
        "| source | documents | lxml keeps fewer characters | xml5dom keeps fewer characters | "
        "characters only xml5dom kept | characters only lxml kept |"
    )
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    groups = collections.OrderedDict()
    for row in rows:
        groups.setdefault(group(row[0]), []).append(row)
    for name, members in groups.items():
        out.append(
            f"| {name} | {len(members)} "
            f"| {sum(1 for r in members if missing(r[3].characters, r[2].characters) > 0)} "
            f"| {sum(1 for r in members if missing(r[2].characters, r[3].characters) > 0)} "
            f"| {sum(missing(r[3].characters, r[2].characters) for r in members)} "
            f"| {sum(missing(r[2].characters, r[3].characters) for r in members)} |"
        )
    out.append("")

    out.append("## The issue's named cases\n")
    out.append(
        "| case | input | characters only xml5dom kept | characters only lxml kept "
        "| elements / attributes (xml5dom, lxml) | xml5dom's log | lxml's log |"
    )
    out.append("| --- | --- | --- | --- | --- | --- | --- |")
    for name, data, ours, lxml, _ in rows:
        if not name.startswith("named:"):
            continue
        out.append(
            f"| {name[len('named: '):]} | `{cell(ascii(data)[2:-1], 70)}` "
            f"| {shown(ours.characters - lxml.characters)} | {shown(lxml.characters - ours.characters)} "
            f"| {ours.elements}/{ours.attributes}, {lxml.elements}/{lxml.attributes} "
            f"| {ours.errors}: {cell(ours.first_error)} | {lxml.errors}: {cell(lxml.first_error)} |"
        )
    out.append("")

    out.append("## Every document where lxml keeps a character xml5dom does not\n")
    out.append("| document | input | only lxml kept | only xml5dom kept | xml5dom's first error |")
    out.append("| --- | --- | --- | --- | --- |")
    for name, data, ours, lxml, _ in rows:
        if missing(ours.characters, lxml.characters) > 0:
            out.append(
                f"| {name} | `{cell(ascii(data)[2:-1], 60)}` | {shown(lxml.characters - ours.characters)} "
                f"| {shown(ours.characters - lxml.characters)} | {cell(ours.first_error, 70)} |"
            )
    out.append("")

    out.append("## Every document\n")
    out.append(
        "Characters, elements, attributes and error log entries of each parser "
        "(xml5dom / lxml" + (" / BeautifulSoup" if bs4 else "") + ").\n"
    )
    out.append("| document | characters | elements | attributes | log entries |")
    out.append("| --- | --- | --- | --- | --- |")
    for name, _, ours, lxml, soup in rows:
        kept = [ours, lxml] + ([soup] if soup else [])
        out.append(
            f"| {name} | {' / '.join(str(sum(k.characters.values())) for k in kept)} "
            f"| {' / '.join(str(k.elements) for k in kept)} "
            f"| {' / '.join(str(k.attributes) for k in kept)} "
            f"| {ours.errors} / {lxml.errors} |"
        )
    OUTPUT.write_text("\n".join(out) + "\n", encoding="utf-8")
    print("\n".join(out[: out.index("## Every document where lxml keeps a character xml5dom does not\n")]))
    print(f"wrote {OUTPUT.relative_to(REPOSITORY)}", file=sys.stderr)


if __name__ == "__main__":
    main()
