"""The BeautifulSoup builder "xml5" (issue 33), with bs4's own "xml"
builder (lxml underneath) as the oracle.

Well-formed documents: the soup ``"xml5"`` builds equals the one ``"xml"``
builds (``str(soup)`` and the tag tree), except where docs/python.md ("The
BeautifulSoup builder") says why not. Broken documents: every character of
xml5dom's tree is in the soup, and the comparison with ``"xml"`` is the one
python/bench/compare_bs4.py prints for docs/python.md.
"""

import collections
import pathlib
import subprocess
import sys

import pytest

bs4 = pytest.importorskip("bs4")
lxml_etree = pytest.importorskip("lxml.etree")

import xml5dom  # noqa: E402  (registers "xml5")
from bs4 import BeautifulSoup  # noqa: E402
from bs4.element import Comment, Doctype, NavigableString, ProcessingInstruction, Tag  # noqa: E402
from conftest import REPOSITORY  # noqa: E402
from xml5dom import etree  # noqa: E402
from xml5dom.bs4_builder import XML5TreeBuilder  # noqa: E402

sys.path.insert(0, str(REPOSITORY / "python" / "bench"))
import compare_bs4  # noqa: E402

DOCUMENTS = compare_bs4.well_formed_documents()
# The subprocesses import the xml5dom this process imported (installed, or
# the source tree with a built extension), not the source tree as such.
THIS_XML5DOM = str(pathlib.Path(xml5dom.__file__).resolve().parent.parent)
BROKEN = compare_bs4.broken_documents()


def soups(data):
    return BeautifulSoup(data, "xml5"), BeautifulSoup(data, "xml")


def tag_tree(soup):
    """Every node of the soup in document order: what each says."""
    nodes = []
    for node in soup.descendants:
        if isinstance(node, Tag):
            attrs = sorted((str(k), getattr(k, "prefix", None), getattr(k, "namespace", None), v) for k, v in node.attrs.items())
            nodes.append(("tag", node.name, node.prefix, node.namespace, attrs))
        else:
            nodes.append((type(node).__name__, str(node)))
    return nodes


def test_the_feature_name_finds_the_builder():
    assert bs4.builder.builder_registry.lookup("xml5") is XML5TreeBuilder
    assert bs4.builder.builder_registry.lookup("xml5dom") is XML5TreeBuilder
    # "xml" is still bs4's own.
    assert bs4.builder.builder_registry.lookup("xml") is not XML5TreeBuilder
    assert BeautifulSoup("<a/>", "xml5").builder.__class__ is XML5TreeBuilder


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(REPOSITORY)))
def test_a_well_formed_document_gives_the_soup_xml_gives(path):
    data = path.read_bytes()
    ours, theirs = soups(data)
    relative = str(path.relative_to(REPOSITORY))
    assert text_of(ours) == tree_text(data)
    if tags(theirs) < tags(ours):
        # lxml's target parser gives up after a DOCTYPE (external id or
        # internal subset) in these: "xml" holds only the start.
        assert str(ours).startswith(str(theirs).split("<!DOCTYPE")[0])
        return
    if relative in WELL_FORMED_DIFFERS:
        assert tag_tree(ours) != tag_tree(theirs)
        return
    assert tag_tree(ours) == tag_tree(theirs)
    assert str(ours) == str(theirs)


# Where "xml5" differs from "xml" on well-formed input (docs/python.md, "The
# BeautifulSoup builder"), beside the files where "xml" stops at the DOCTYPE.
WELL_FORMED_DIFFERS = {
    # lxml splits the text around CDATA sections differently.
    "tests/corpus/feeds/029-rss2-cdata-everywhere.xml": "text split at CDATA",
    "tests/corpus/odd/025-cdata-edge-cases.xml": "text split at CDATA",
    # An explicit xmlns:xml declaration is kept as the attribute it is.
    "tests/corpus/odd/061-xml-space-and-lang.xml": "xmlns:xml kept",
    "tests/c14n/input/ns-explicit-xml-prefix.xml": "xmlns:xml kept",
}


def tags(soup):
    return len(soup.find_all(True))


def text_of(soup):
    """The soup's text without the whitespace-only strings, which bs4
    shortens to one newline or space whatever the builder."""
    text = "".join(s for s in soup.find_all(string=True) if type(s) is NavigableString)
    return "".join(c for c in text if not c.isspace())


def tree_text(data):
    root = etree.fromstring(data)
    if root is None:
        return ""
    return "".join(c for c in "".join(root.xpath("//text()")) if not c.isspace())


@pytest.mark.parametrize("name, data", BROKEN, ids=[name for name, _ in BROKEN])
def test_a_broken_document_loses_no_character_in_the_soup(name, data):
    ours = BeautifulSoup(data, "xml5")
    assert text_of(ours) == tree_text(data)
    tree = etree.fromstring(data)
    if tree is not None:
        assert tags(ours) == sum(1 for e in tree.iter() if isinstance(e.tag, str))


def test_xml_drops_characters_that_xml5_keeps():
    rows = compare_bs4.rows()
    for row in rows:
        assert (row.xml5_chars, row.xml5_elements, row.xml5_attributes) == (
            row.tree_chars,
            row.tree_elements,
            row.tree_attributes,
        ), row.name
    # "xml" loses some on these inputs (docs/python.md lists them).
    assert sum(row.tree_chars - row.xml_chars for row in rows) > 0
    assert sum(row.tree_attributes - row.xml_attributes for row in rows) > 0


def test_a_deep_document_builds_without_recursion():
    depth = 1_000_000
    data = "<d>" * depth + "x" + "</d>" * depth
    soup = BeautifulSoup(data, "xml5")
    # bs4 itself walks the tree without recursion for these.
    assert soup.find(string="x") == "x"
    assert len(list(soup.descendants)) == depth + 1


def run_fresh(code):
    """Runs ``code`` in a new interpreter that imports this xml5dom."""
    env = {"PYTHONPATH": THIS_XML5DOM}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_importing_xml5dom_works_without_bs4():
    code = (
        "import sys, importlib.abc\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'bs4' or name.startswith('bs4.'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import xml5dom\n"
        "from xml5dom import etree\n"
        "assert etree.fromstring('<a>x</a>').text == 'x'\n"
        "assert 'bs4' not in sys.modules\n"
        "try:\n"
        "    import bs4\n"
        "except ModuleNotFoundError:\n"
        "    print('ok')\n"
    )
    result = run_fresh(code)
    assert result.stdout.strip() == "ok", result.stderr


def test_importing_xml5dom_does_not_import_bs4_and_registers_when_bs4_loads():
    code = (
        "import sys\n"
        "import xml5dom\n"
        "assert 'bs4' not in sys.modules\n"
        "from bs4 import BeautifulSoup\n"
        "print(BeautifulSoup('<a>AT&T</a>', 'xml5').a.string)\n"
    )
    result = run_fresh(code)
    assert result.stdout.strip() == "AT&T", result.stderr
