"""What BeautifulSoup keeps of broken XML: the "xml5" builder (xml5dom)
against bs4's own "xml" builder (lxml's recovering parser).

    PYTHONPATH=python/python python python/bench/compare_bs4.py

For each broken document (the repository's data files lxml refuses, and
the cases of python/tests/test_broken.py), counts what each soup holds of
what xml5dom's tree holds: the non-space characters of the text, the
elements and the attributes. The table goes into docs/python.md ("The
BeautifulSoup builder"); python/tests/test_bs4.py checks the same
figures' "xml5" column is always complete.
"""

import collections
import pathlib

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
DATA_DIRECTORIES = ["tests/corpus", "tests/c14n/input", "examples/data"]

# Well-formed files where "xml" keeps less than the document: lxml's
# target parser stops at the first reference to an entity the internal
# subset declares (filled in by test_bs4 from what it finds).
XML_LOSES_CONTENT = {}

# python/tests/test_broken.py's named cases.
NAMED_CASES = {
    "bare ampersand": b"<company><name>AT&T</name><note>R&D, Q&A</note></company>",
    "HTML entities, no DTD": b"<p>Price:&nbsp;10&nbsp;&euro; &copy; ACME</p>",
    "unquoted attribute": b"<r><item name=x>one</item><item>two</item></r>",
    "unclosed elements": b"<list><item>one<item>two<br>three</list>",
    "truncated feed": b"<feed><entry><title>First</title><summary>cut off",
    "undeclared prefixes": b"<rss><channel><media:title>Clip</media:title><item dc:creator='Ann'>x</item></channel></rss>",
    "windows-1252 in UTF-8": b'<?xml version="1.0" encoding="UTF-8"?>\n<p>caf\xe9 \x93quoted\x94 \x96 na\xefve</p>',
}


def _paths():
    paths = []
    for directory in DATA_DIRECTORIES:
        paths.extend(sorted((REPOSITORY / directory).rglob("*.xml")))
    return paths


def _lxml_accepts(data):
    from lxml import etree as lxml_etree

    parser = lxml_etree.XMLParser(resolve_entities=True, no_network=True, load_dtd=False, huge_tree=True)
    try:
        lxml_etree.fromstring(data, parser)
        return True
    except lxml_etree.XMLSyntaxError:
        return False


def well_formed_documents():
    return [p for p in _paths() if _lxml_accepts(p.read_bytes())]


def broken_documents():
    """(name, bytes) of every broken input."""
    cases = [(str(p.relative_to(REPOSITORY)), p.read_bytes()) for p in _paths()]
    cases = [(name, data) for name, data in cases if not _lxml_accepts(data)]
    return cases + [(f"test_broken: {name}", data) for name, data in NAMED_CASES.items()]


class Row:
    """What xml5dom's tree and each soup hold of one broken document."""

    def __init__(self, name, data):
        from bs4 import BeautifulSoup

        import xml5dom  # noqa: F401  (registers "xml5")
        from xml5dom import etree

        root = etree.fromstring(data)
        self.name = name
        elements = [e for e in root.iter() if isinstance(e.tag, str)] if root is not None else []
        text = "".join(root.xpath("//text()")) if root is not None else ""
        values = "".join(v for e in elements for v in e.attrib.values())
        self.tree_chars = _count(text + values)
        self.tree_elements = len(elements)
        self.tree_attributes = sum(len(e.attrib) for e in elements)
        ours, theirs = BeautifulSoup(data, "xml5"), BeautifulSoup(data, "xml")
        self.xml5_chars, self.xml5_elements, self.xml5_attributes = _soup_counts(ours)
        self.xml_chars, self.xml_elements, self.xml_attributes = _soup_counts(theirs)


def _count(text):
    return sum(1 for c in text if not c.isspace())


def _soup_counts(soup):
    from bs4.element import NavigableString

    text = "".join(s for s in soup.find_all(string=True) if type(s) is NavigableString)
    tags = soup.find_all(True)
    # Namespace declarations are not attributes in xml5dom's tree.
    values = [
        v for tag in tags for k, v in tag.attrs.items() if k != "xmlns" and not k.startswith("xmlns:")
    ]
    return _count(text + "".join(values)), len(tags), len(values)


def rows():
    return [Row(name, data) for name, data in broken_documents()]


def main():
    table = rows()
    kinds = ("chars", "elements", "attributes")
    print("| document | " + " | ".join(f"{k}: tree / xml5 / xml" for k in kinds) + " |")
    print("|---|" + "---:|" * len(kinds))

    def cells(source):
        return " | ".join(
            " / ".join(str(getattr(source, f"{who}_{k}")) for who in ("tree", "xml5", "xml")) for k in kinds
        )

    for r in table:
        print(f"| {r.name} | {cells(r)} |")
    total = Row.__new__(Row)
    for who in ("tree", "xml5", "xml"):
        for k in kinds:
            setattr(total, f"{who}_{k}", sum(getattr(r, f"{who}_{k}") for r in table))
    print(f"| **all {len(table)}** | {cells(total)} |")


if __name__ == "__main__":
    main()
