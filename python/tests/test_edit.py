"""Edits through the library's checked edit API, against lxml doing the
same edits; refused edits raise ValueError and change nothing."""

import pytest
from lxml import etree as lxml_etree

from xml5dom import etree

SOURCE = "<r xmlns:x='urn:x'><a>1</a>t1<b k='v'>2</b>t2<c/></r>"


def both():
    return etree.fromstring(SOURCE), lxml_etree.fromstring(SOURCE)


def shape(root):
    return [(name(e.tag), dict(e.attrib), e.text, e.tail) for e in root.iter()]


def name(tag):
    """A tag, with the Comment and ProcessingInstruction factories (each
    module's own) by name."""
    return tag if isinstance(tag, str) else tag.__name__


EDITS = {
    "text": lambda r: setattr(r[0], "text", "new"),
    "text of empty": lambda r: setattr(r[2], "text", "inside"),
    "text to None": lambda r: setattr(r[1], "text", None),
    "tail": lambda r: setattr(r[0], "tail", "T"),
    "tail to None": lambda r: setattr(r[1], "tail", None),
    "tail of last": lambda r: setattr(r[2], "tail", "end"),
    "set": lambda r: r[1].set("k", "w"),
    "set new": lambda r: r[2].set("n", "1 < 2 & \"3\""),
    "set namespaced": lambda r: r[0].set("{urn:x}f", "y"),
    "append moves with tail": lambda r: r.append(r[0]),
    "insert first": lambda r: r.insert(0, r[2]),
    "insert negative": lambda r: r.insert(-1, r[0]),
    "insert past the end": lambda r: r.insert(10, r[0]),
    "append into child": lambda r: r[2].append(r[1]),
    "remove takes the tail": lambda r: r.remove(r[1]),
    "extend": lambda r: r[2].extend([r[0], r[1]]),
    "clear": lambda r: r[1].clear(),
    "clear keeping the tail": lambda r: r[1].clear(keep_tail=True),
    "clear the root": lambda r: r.clear(),
    "addnext goes after the tail": lambda r: r[0].addnext(r[2]),
    "addnext of the last": lambda r: r[2].addnext(r[0]),
    "addprevious": lambda r: r[1].addprevious(r[2]),
    "replace": lambda r: r.replace(r[0], r[2]),
    "replace a child with its own child": lambda r: r[1].append(r[0]) or r.replace(r[0], r[0][0]),
    "setitem": lambda r: r.__setitem__(1, r[2]),
    "setitem negative": lambda r: r.__setitem__(-3, r[2]),
    "setitem slice": lambda r: r.__setitem__(slice(0, 2), [r[2]]),
    "setitem empty slice inserts": lambda r: r.__setitem__(slice(1, 1), [r[2]]),
    "delitem": lambda r: r.__delitem__(1),
    "delitem slice": lambda r: r.__delitem__(slice(1, None)),
    "delitem extended slice": lambda r: r.__delitem__(slice(None, None, -2)),
    "attrib set": lambda r: r[1].attrib.__setitem__("k", "new"),
    "attrib del": lambda r: r[1].attrib.__delitem__("k"),
    "attrib update": lambda r: r[1].attrib.update({"{urn:x}q": "1", "k": "2"}),
    "attrib pop": lambda r: r[1].attrib.pop("k"),
    "attrib clear": lambda r: r[1].attrib.clear(),
}


@pytest.mark.parametrize("name", EDITS)
def test_edit_matches_lxml(name):
    ours, theirs = both()
    EDITS[name](ours)
    EDITS[name](theirs)
    assert shape(ours) == shape(theirs)
    # The edited document reads back as the tree is.
    again = etree.fromstring(etree.tostring(ours))
    assert shape(again) == shape(theirs)


def test_edits_with_new_elements_match_lxml():
    ours, theirs = both()
    for module, r in ((etree, ours), (lxml_etree, theirs)):
        r[::2] = [r[1], module.Element("n", m="1")]
        r[1:1] = [module.Element("o"), module.Comment(" c ")]
        r.insert(0, module.ProcessingInstruction("pi", "data"))
        r[-1].addprevious(module.Element("p"))
        r[-1].addnext(module.SubElement(module.Element("q"), "s"))
        r.replace(r[0], module.Element("{urn:x}first"))
        r[0].tail = "after first"
    assert shape(ours) == shape(theirs)
    assert shape(etree.fromstring(etree.tostring(ours))) == shape(theirs)
    with pytest.raises(ValueError):
        ours[::2] = [etree.Element("too-few")]


def test_sub_element_matches_lxml():
    ours, theirs = both()
    for module, root in ((etree, ours), (lxml_etree, theirs)):
        made = module.SubElement(root, "d", {"z": "1"}, q="2")
        made.text = "D"
        module.SubElement(root[0], "{urn:x}e")
    assert shape(ours) == shape(theirs)
    assert etree.tostring(ours) == (
        b"<r xmlns:x='urn:x'><a>1<x:e/></a>t1<b k='v'>2</b>t2<c/>"
        b'<d q="2" z="1">D</d></r>'
    )


def test_an_unedited_part_is_copied_and_the_edit_written_in():
    root = etree.fromstring("<r  a = '1' ><b   x='y'/></r >")
    root[0].set("x", "z")
    assert etree.tostring(root) == b"<r  a = '1' ><b   x='z'/></r >"


def test_refused_edits_raise_value_error_and_change_nothing():
    root = etree.fromstring(SOURCE)
    before = etree.tostring(root)
    with pytest.raises(ValueError):
        root.set("bad name", "1")
    with pytest.raises(ValueError):
        root[0].text = "\x01"
    with pytest.raises(ValueError):
        etree.SubElement(root, "1bad")
    with pytest.raises(ValueError):
        etree.SubElement(root, "ok", {"bad name": "1"})
    with pytest.raises(ValueError):
        root[0].append(root)  # a cycle
    with pytest.raises(ValueError):
        root[0].remove(root[1])  # not its child
    with pytest.raises(ValueError):
        root.remove(etree.fromstring("<z/>"))  # another document
    with pytest.raises(ValueError):
        root.index(etree.fromstring("<z/>"))
    with pytest.raises(ValueError):
        root.replace(etree.fromstring("<z/>"), etree.Element("y"))  # not a child
    with pytest.raises(ValueError):
        root[0].addnext(root)  # a cycle
    with pytest.raises(ValueError):
        root[1].replace(root[1], root)  # not a child (itself)
    with pytest.raises(ValueError):
        root[0].attrib["bad name"] = "1"
    with pytest.raises(ValueError):
        root[0].attrib.update({"ok": "1", "p:x": "2"})  # lxml's rule: no prefix
    with pytest.raises(ValueError):
        root[1].attrib.update([("k", "changed"), ("n", "\x02")])
    with pytest.raises(ValueError):
        etree.SubElement(root, "{urn:x}")
    with pytest.raises(ValueError):
        etree.SubElement(root, "ok", nsmap={"p:q": "urn:q"})
    with pytest.raises(ValueError):
        root.tail = "after the root"
    assert etree.tostring(root) == before


def test_a_removed_element_stays_readable():
    root = etree.fromstring(SOURCE)
    b = root[1]
    root.remove(b)
    assert b.tag == "b" and b.text == "2" and b.getparent() is None
    assert [e.tag for e in root] == ["a", "c"]
    assert etree.tostring(root) == b"<r xmlns:x='urn:x'><a>1</a>t1<c/></r>"
