"""`iter()`: an iterator over the nodes found when it was called, as
lxml's iterator is (one pass), which also answers `len()` and indexing.
lxml is the oracle for what it yields."""

import io

import pytest
from lxml import etree as lxml_etree

from conftest import REPOSITORY
from xml5dom import _xml5dom, etree

TEXT = (
    '<r xmlns:a="urn:a"><x i="1"/><!--c--><x i="2"><a:x i="3"/></x>'
    '<?pi data?><y/><x i="4"/></r>'
)


def summary(nodes):
    return [(n.tag if isinstance(n.tag, str) else n.tag.__name__, n.get("i")) for n in nodes]


@pytest.mark.parametrize("tag", [None, "x", "{urn:a}x", "{*}x", "*", "{}x", "missing"])
def test_yields_what_lxml_yields(tag):
    ours = etree.fromstring(TEXT)
    theirs = lxml_etree.fromstring(TEXT)
    assert summary(ours.iter(tag)) == summary(theirs.iter(tag))
    assert summary(ours.getroottree().iter(tag)) == summary(theirs.getroottree().iter(tag))


def test_one_pass_as_lxml_iterators():
    root = etree.fromstring(TEXT)
    nodes = root.iter("x")
    assert isinstance(nodes, _xml5dom._ElementIterator)
    assert iter(nodes) is nodes
    assert next(nodes).get("i") == "1"
    assert [n.get("i") for n in nodes] == ["2", "4"]
    assert list(nodes) == []
    with pytest.raises(StopIteration):
        next(nodes)


def test_len_and_indexing_over_every_node_found():
    root = etree.fromstring(TEXT)
    nodes = root.iter("{*}x")
    next(nodes)
    # Handed-out nodes still count: len and indices cover all of them.
    assert len(nodes) == 4
    assert nodes[0].get("i") == "1"
    assert nodes[-1].get("i") == "4"
    assert [n.get("i") for n in nodes[1:3]] == ["2", "3"]
    assert [n.get("i") for n in nodes[::-2]] == ["4", "2"]
    with pytest.raises(IndexError):
        nodes[4]
    with pytest.raises(TypeError):
        nodes["x"]
    # The rest of the pass is unchanged by indexing.
    assert [n.get("i") for n in nodes] == ["2", "3", "4"]


def test_nodes_fixed_when_called():
    root = etree.fromstring(TEXT)
    removed = []
    # Removing each node found on the way: every one is still handed out
    # (lxml's live iterator skips the nested one), and all go.
    for node in root.iter("{*}x"):
        removed.append(node.get("i"))
        node.getparent().remove(node)
    assert removed == ["1", "2", "3", "4"]
    assert summary(root.iter()) == [
        ("r", None),
        ("Comment", None),
        ("ProcessingInstruction", None),
        ("y", None),
    ]
    # Added during a walk: not handed out.
    found = []
    for node in root.iter("y"):
        found.append(node)
        etree.SubElement(root, "y")
    assert len(found) == 1
    assert len(root.iter("y")) == 2


def test_a_tree_without_a_root_iterates_nothing():
    tree = etree.parse(io.BytesIO(b"<!-- only a comment -->"))
    assert tree.getroot() is None
    nodes = tree.iter()
    assert len(nodes) == 0
    assert list(nodes) == []


AXES = [
    ("iterchildren", {}),
    ("iterchildren", {"reversed": True}),
    ("itersiblings", {}),
    ("itersiblings", {"preceding": True}),
    ("iterancestors", {}),
    ("iterdescendants", {}),
]


@pytest.mark.parametrize("tags", [(), ("x",), ("{urn:a}x",), ("{*}x",), ("*",), ("x", "y"), (None,)])
@pytest.mark.parametrize("axis, options", AXES)
def test_the_axes_yield_what_lxml_yields(axis, options, tags):
    # From every node of the document, as lxml (elements, comments and
    # processing instructions; a tag filters elements).
    ours = etree.fromstring(TEXT)
    theirs = lxml_etree.fromstring(TEXT)
    for mine, other in zip(ours.iter(), theirs.iter()):
        got = summary(getattr(mine, axis)(*tags, **options))
        want = summary(getattr(other, axis)(*tags, **options))
        assert got == want, (axis, options, tags, summary([other]))


def test_the_axes_over_the_corpus_match_lxml():
    compared = 0
    for path in (REPOSITORY / "tests/corpus").rglob("*.xml"):
        data = path.read_bytes()
        try:
            theirs = lxml_etree.fromstring(data, lxml_etree.XMLParser(load_dtd=False, no_network=True))
        except lxml_etree.XMLSyntaxError:
            continue
        ours = etree.fromstring(data)
        if not ours.getroottree().is_well_formed:
            continue
        compared += 1
        # The first 200 elements of each: every axis from each is a walk
        # of its own, quadratic over a whole wide document.
        for mine, other, _ in zip(ours.iter("*"), theirs.iter("*"), range(200)):
            for axis, options in AXES:
                got = [n.tag for n in getattr(mine, axis)("*", **options)]
                want = [n.tag for n in getattr(other, axis)("*", **options)]
                assert got == want, (path, axis, options, other.tag)
    assert compared > 100


def test_iteration_follows_an_element_moved_into_another_document():
    source = etree.fromstring("<s><m><k/><k/></m><n/></s>")
    moved = source[0]
    target = etree.fromstring("<t><u/></t>")
    target.append(moved)
    assert [n.tag for n in moved.iter()] == ["m", "k", "k"]
    assert [n.tag for n in moved.iterchildren()] == ["k", "k"]
    assert [n.tag for n in moved.iterancestors()] == ["t"]
    assert [n.tag for n in moved.itersiblings(preceding=True)] == ["u"]
    assert [n.getparent().tag for n in moved.iterdescendants()] == ["m", "m"]


def test_a_tag_that_is_no_string_is_refused():
    root = etree.fromstring(TEXT)
    for axis, _ in AXES:
        with pytest.raises(TypeError):
            getattr(root, axis)(3)


def test_indexing_and_c14n2_follow_an_element_moved_into_another_document():
    source = etree.fromstring("<s><m><k i='1'/><k i='2'/></m><n/></s>")
    moved = source[0]
    target = etree.fromstring("<t><u/></t>")
    target.append(moved)
    assert [k.get("i") for k in (moved[0], moved[-1])] == ["1", "2"]
    assert [k.get("i") for k in moved[0:2]] == ["1", "2"]
    assert etree.tostring(moved, method="c14n2") == b'<m><k i="1"></k><k i="2"></k></m>'
