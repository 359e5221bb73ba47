"""`iter()`: an iterator over the nodes found when it was called, as
lxml's iterator is (one pass), which also answers `len()` and indexing.
lxml is the oracle for what it yields."""

import io

import pytest
from lxml import etree as lxml_etree

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
