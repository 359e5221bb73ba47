"""A generated tree of XML files for the Dask example's test (issue 33):
deterministic (a seeded generator), a few hundred files in nested
directories, well-formed and broken in several ways, in several
encodings, with files `-r` skips and one that cannot be read.

Run as a script to write a tree: `python dask_tree.py OUT [COUNT]`
(docs/python.md's figure uses it with COUNT 4000)."""

import os
import random
import sys

# Documents in text form: (name, text). Each is written as UTF-8 unless
# its writer below says otherwise.
WELL_FORMED = [
    ("plain", '<?xml version="1.0"?>\n<feed><entry id="{n}">item {n}</entry></feed>\n'),
    ("namespaced", '<a:r xmlns:a="urn:a" xmlns="urn:d"><a:x y="1"/><z>{n}</z></a:r>'),
    ("cdata", "<r><![CDATA[<not> & markup {n}]]><!-- c --><?pi data?></r>"),
    ("entities", '<!DOCTYPE r [<!ENTITY e "value {n}">]>\n<r>&e; &amp; &#233;</r>'),
    ("crlf", "<r>\r\n  <line>{n}</line>\r\n  <line/>\r\n</r>\r\n"),
    ("deep", "<r>" + "<d>" * 40 + "{n}" + "</d>" * 40 + "</r>"),
]

# Well-formed, with a warning (XML allows it, XML5 flags it).
WARNED = [
    ("control-reference", "<r>&#x85; {n}</r>"),
    ("external-entity", '<!DOCTYPE r SYSTEM "r.dtd">\n<r>&e; {n}</r>'),
]

BROKEN = [
    ("bare-ampersand", "<p>AT&T {n}</p>"),
    ("mismatched", "<a>\n<b>text {n}</a>"),
    ("unclosed", "<r><a><b>{n}"),
    ("unquoted", "<r a=1 b='{n}'/>"),
    ("duplicate-attribute", '<r a="1" a="{n}"/>'),
    ("undeclared-entity", "<p>a&nbsp;b {n}</p>"),
    ("unbound-prefix", "<x:a>{n}</x:a>"),
    ("truncated", '<r><item name="{n}'),
    ("after-root", "<r>{n}</r><r2/>text"),
    ("no-root", "just text {n}"),
    ("empty", ""),
    ("illegal-reference", "<r>&#1; {n}</r>"),
    ("lt-in-attribute", '<r a="x<y {n}"/>'),
    ("stray-end", "<r>{n}</x></r>"),
    ("bad-comment", "<r><!-- a -- b {n} --></r>"),
    # Reaches the entity expansion limit: not read whole.
    (
        "laughs",
        '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">'
        '<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">'
        '<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">'
        "]><r>&e; {n}</r>",
    ),
]


def _encoded(kind, text, n):
    """Bytes of one document in one of several encodings."""
    if kind == "utf-16le":
        if text.startswith("<?xml "):
            text = text.replace("?>", ' encoding="UTF-16"?>', 1)
        else:
            text = '<?xml version="1.0" encoding="UTF-16"?>\n' + text
        return "\ufeff".encode("utf-16-le") + text.encode("utf-16-le")
    if kind == "utf-16be":
        return "\ufeff".encode("utf-16-be") + text.encode("utf-16-be")
    if kind == "latin-1":
        return ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<r>caf\u00e9 %d \u00bd</r>' % n).encode(
            "latin-1"
        )
    if kind == "cp1252-as-utf8":
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<r>caf\u00e9 \u201cq\u201d %d</r>' % n).encode(
            "cp1252"
        )
    if kind == "utf-8-bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    return text.encode("utf-8")


ENCODINGS = ["utf-8"] * 6 + ["utf-16le", "utf-16be", "latin-1", "cp1252-as-utf8", "utf-8-bom"]
DIRECTORIES = ["", "a", "a/b", "a/b/c", "a/b/c/d", "b", "b/x.xml", "c/d", "z"]
EXTENSIONS = ["xml"] * 8 + ["svg", "rss", "XML", "xsd"]
SKIPPED_EXTENSIONS = ["txt", "html", "json"]


def write_tree(root, count=300, seed=33):
    """Write `count` documents under `root` (plus files `-r` skips and a
    dangling link `unreadable.xml`); return the paths written that `-r`
    takes, in no particular order."""
    rng = random.Random(seed)
    documents = WELL_FORMED * 3 + WARNED + BROKEN
    taken = []
    for n in range(count):
        directory = os.path.join(root, rng.choice(DIRECTORIES))
        os.makedirs(directory, exist_ok=True)
        name, template = rng.choice(documents)
        encoding = rng.choice(ENCODINGS)
        extension = rng.choice(EXTENSIONS)
        path = os.path.join(directory, "%04d-%s-%s.%s" % (n, name, encoding, extension))
        with open(path, "wb") as file:
            file.write(_encoded(encoding, template.format(n=n), n))
        taken.append(path)
        if n % 40 == 0:
            skipped = os.path.join(directory, "%04d-%s.%s" % (n, name, rng.choice(SKIPPED_EXTENSIONS)))
            with open(skipped, "wb") as file:
                file.write(b"<not-checked>")
    # Names in byte order, not in dictionary order: `Z` before `a`.
    for name in ("Z-upper.xml", "a-lower.xml"):
        path = os.path.join(root, name)
        with open(path, "wb") as file:
            file.write(b"<r>unclosed")
        taken.append(path)
    # Hidden names without an extension, as Rust sees them.
    for name in (".xml", "noextension"):
        with open(os.path.join(root, name), "wb") as file:
            file.write(b"<r>")
    # Unreadable, for root too: a link to nothing, named as an XML file.
    unreadable = os.path.join(root, "a", "unreadable.xml")
    os.symlink("missing-target.xml", unreadable)
    taken.append(unreadable)
    # Two links to a parent: each directory is read once (without that, the
    # walk would double at every level).
    for link in ("up", "up-again"):
        os.symlink("..", os.path.join(root, "a", link))
    return taken


if __name__ == "__main__":
    write_tree(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 300)
