"""Streaming (issue 33): ``etree.iterparse`` and ``etree.XMLPullParser``,
with lxml as the oracle on well-formed input and xml5dom's own tree on
broken input.

* Well-formed documents (every file of the repository's test data lxml
  accepts, python/bench/compare_bs4.py's ``well_formed_documents``): the
  events with all six of lxml's kinds equal lxml's ``iterparse`` of the same
  file, each event read as it is handed out (a later event changes the
  tree), whether the input comes from a path, from a file object whose
  ``read(n)`` returns pieces of random sizes, or through ``XMLPullParser``
  fed in pieces of random sizes. The same with ``tag=`` filters on
  documents with namespaces.
* Broken documents: each element handed out at ``end`` is, at that moment,
  the element ``etree.parse`` builds of the whole input (in the order the
  ends come, post-order); the ``error`` events are the tree's
  ``error_log``, in its order, and none comes after the end of an element
  that starts after it.
* lxml's memory idiom (``elem.clear()`` and deleting the earlier siblings
  at ``end``) on a generated feed keeps the tree small and gives the same
  records as the whole tree.
* Edge cases: empty input, a BOM, text only, a 100,000-deep unclosed
  nesting fed 7 bytes at a time, bad event names, ``recover=False``,
  ``str`` and ``bytes`` feeds, feeding after ``close()``.

The test logic was checked with lxml standing in for xml5dom: with
``XML5DOM_ITERPARSE_SELF_CHECK=lxml`` in the environment, lxml (recovering,
``huge_tree``) is the implementation under test and its own ``fromstring``
the reference tree; the tests that need what lxml has not (``error``
events, recovery that keeps every character) are skipped then. What fails
in that mode is lxml's own: the comments and processing instructions of an
internal subset, which lxml hands out and the oracle leaves out (xml5dom's
tree has none), attribute defaults, records lxml's recovery loses, the
100,000-deep nesting (past libxml2's depth limit), and broken documents
where libxml2's recovery of a stream differs from its recovery of the
whole document.
"""

import collections
import io
import os
import pathlib
import random
import sys

import pytest

lxml_etree = pytest.importorskip("lxml.etree")

from conftest import REPOSITORY  # noqa: E402
from test_broken import damaged_records  # noqa: E402
from test_lxml_oracle import ATTRIB_DIFFERS  # noqa: E402
from xml5dom import etree  # noqa: E402

sys.path.insert(0, str(REPOSITORY / "python" / "bench"))
import compare_bs4  # noqa: E402

LXML_EVENTS = ("start", "end", "start-ns", "end-ns", "comment", "pi")
# What lxml's parse of the repository's test data is read with everywhere
# (compare_bs4._lxml_accepts, test_lxml_oracle.lxml_tree): entities of the
# internal subset expanded, nothing loaded.
LXML_OPTIONS = {"resolve_entities": True, "no_network": True, "load_dtd": False, "huge_tree": True}

SELF_CHECK = os.environ.get("XML5DOM_ITERPARSE_SELF_CHECK") == "lxml"
STREAMING = hasattr(etree, "iterparse") and hasattr(etree, "XMLPullParser")
streaming = pytest.mark.skipif(
    not (STREAMING or SELF_CHECK), reason="xml5dom.etree has no iterparse/XMLPullParser (issue 33)"
)
xml5dom_only = pytest.mark.skipif(
    SELF_CHECK or not STREAMING, reason="needs xml5dom's error events and recovery"
)


class Xml5dom:
    """The implementation under test, and the tree it must agree with."""

    module = etree
    iterparse = staticmethod(getattr(etree, "iterparse", None))
    XMLPullParser = getattr(etree, "XMLPullParser", None)
    XMLSyntaxError = etree.XMLSyntaxError

    @staticmethod
    def whole_tree(data):
        """The tree of the whole input: its root (or None), its log, and
        its top-level nodes (comments and PIs without a root element too)."""
        tree = etree.parse(io.BytesIO(data))
        top = [n for n in tree.xpath("/node()") if not isinstance(n, str)]
        return tree.getroot(), list(tree.error_log), top


class LxmlSelfCheck:
    """lxml in xml5dom's place, to check the test logic itself."""

    module = lxml_etree
    XMLSyntaxError = lxml_etree.XMLSyntaxError

    @staticmethod
    def iterparse(source, events=("end",), tag=None, *, recover=True):
        return lxml_etree.iterparse(source, events=events, tag=tag, recover=recover, **LXML_OPTIONS)

    @staticmethod
    def XMLPullParser(events=None, *, tag=None, recover=True):
        return lxml_etree.XMLPullParser(events, tag=tag, recover=recover, **LXML_OPTIONS)

    @staticmethod
    def whole_tree(data):
        parser = lxml_etree.XMLParser(recover=True, **LXML_OPTIONS)
        root = lxml_etree.fromstring(data, parser)
        return root, list(parser.error_log), top_level(root)


IMPL = LxmlSelfCheck if SELF_CHECK else Xml5dom


# --- reading what an event hands out, at the time it is handed out ---------

NOTHING = frozenset()

# Where lxml's element at "start" is not the one in its tree: libxml2 builds
# an element of an entity's replacement text apart and hands it out before
# it puts a copy of it under the parent (its getparent() is None at its
# start and at its end), so its nsmap then lacks the namespaces the parent
# declares. xml5dom hands out the element of the tree.
NSMAP_AT_START_DIFFERS = {
    "tests/c14n/input/entity-expansion-with-namespaces.xml": "an element of an entity's text",
}


def differs(path):
    """What of a well-formed document's events is not compared, and why."""
    name = relative(path)
    left_out = set()
    if name in ATTRIB_DIFFERS:
        # A default the internal subset declares beside an external DTD:
        # xml5dom applies it, lxml does not (test_lxml_oracle.ATTRIB_DIFFERS).
        left_out.add("attrib")
    if name in NSMAP_AT_START_DIFFERS:
        left_out.add("nsmap")
    return frozenset(left_out)



def no_empty(value, module):
    # lxml gives '' where xml5dom gives None for the text of an empty CDATA
    # section, comment or processing instruction (docs/python.md, "An empty
    # CDATA section makes no text"; test_lxml_oracle.summary does the same).
    if value == "" and module is lxml_etree:
        return None
    return value


def node_row(node, module, left_out=NOTHING):
    """One node of a subtree: its kind, name, attributes and text."""
    if node.tag is module.Comment:
        return ("comment", no_empty(node.text, module))
    if node.tag is module.ProcessingInstruction:
        return ("pi", node.target, no_empty(node.text, module))
    attrib = None if "attrib" in left_out else sorted(node.attrib.items())
    return ("element", node.tag, attrib, no_empty(node.text, module))


def subtree(element, module, left_out=NOTHING):
    """The element and everything under it, as it is now, in document
    order: each node's depth, row and tail (not the element's own tail,
    which the parser need not have read at its end)."""
    rows, stack = [], [(element, 0)]
    while stack:
        node, depth = stack.pop()
        tail = no_empty(node.tail, module) if depth else None
        rows.append((depth, node_row(node, module, left_out), tail))
        stack.extend((child, depth + 1) for child in reversed(list(node)))
    return rows


def start_row(element, module, left_out=NOTHING):
    # The default namespace's key None as '' (no prefix is ''), to sort.
    nsmap = sorted((prefix or "", uri) for prefix, uri in element.nsmap.items() if prefix != "xml")
    nsmap = None if "nsmap" in left_out else nsmap
    attrib = None if "attrib" in left_out else sorted(element.attrib.items())
    return (element.tag, element.prefix, attrib, nsmap)


def snapshot(event, value, module, left_out=NOTHING):
    """What an event says, read when it is handed out."""
    if event == "start":
        return (event, start_row(value, module, left_out))
    if event == "end":
        return (event, subtree(value, module, left_out))
    if event in ("comment", "pi"):
        return (event, node_row(value, module))
    if event == "start-ns":
        return (event, tuple(value))
    if event == "end-ns":
        return (event, value)
    if event == "error":
        return (event, entry_row(value))
    raise AssertionError("unexpected event %r" % (event,))


def entry_row(entry):
    return (entry.line, entry.column, getattr(entry, "offset", None), entry.type_name)


# --- ways of handing the input over ----------------------------------------


class PieceReader:
    """A binary file whose ``read(n)`` returns 1 to ``min(n, limit)``
    bytes, at random, as a pipe or a socket may (``read()`` returns the
    rest, as a file's does)."""

    def __init__(self, data, seed, limit):
        self.data, self.at = data, 0
        self.random, self.limit = random.Random(seed), limit

    def read(self, size=-1):
        if size is None or size < 0:
            size = len(self.data) - self.at
        else:
            size = self.random.randint(1, max(1, min(size, self.limit)))
        piece = self.data[self.at : self.at + size]
        self.at += len(piece)
        return piece


def pieces(data, seed, limit):
    """``data`` cut at random places, in pieces of 1 to ``limit`` bytes."""
    chooser = random.Random(seed)
    at = 0
    while at < len(data):
        size = chooser.randint(1, limit)
        yield data[at : at + size]
        at += size


# (seed, largest piece): pieces of a few bytes cut every token and every
# UTF-8 sequence somewhere; larger ones cut fewer.
CHUNKINGS = [(1, 7), (2, 300)]


def iterator_snapshots(iterator, module, left_out=NOTHING):
    for event, value in iterator:
        yield snapshot(event, value, module, left_out), value


def stream_events(iterator, module, left_out=NOTHING):
    return [snapshot(event, value, module, left_out) for event, value in iterator]


def pull_events(data, seed, limit, module, left_out=NOTHING, **options):
    """The events of an XMLPullParser fed ``data`` in random pieces, read
    after each piece and after ``close()``; and what ``close()`` returned."""
    parser = IMPL.XMLPullParser(**options)
    found = []
    for piece in pieces(data, seed, limit):
        parser.feed(piece)
        found.extend(stream_events(parser.read_events(), module, left_out))
    root = parser.close()
    found.extend(stream_events(parser.read_events(), module, left_out))
    return found, root, parser


# --- lxml's events -----------------------------------------------------------


def document_nodes(root):
    """The comments, processing instructions and elements of the document
    (those of the internal subset are not: they are not in the tree)."""
    first = root
    while first.getprevious() is not None:
        first = first.getprevious()
    nodes = set()
    while first is not None:
        nodes.update(first.iter())
        first = first.getnext()
    return nodes


def lxml_events(path, events=LXML_EVENTS, tag=None, left_out=NOTHING):
    """lxml's events of the file, read as test_lxml_oracle reads lxml's
    tree (with the internal subset's attribute defaults where lxml can
    apply them without loading an external DTD)."""
    error = None
    for defaults in (True, False):
        handed = []
        iterator = lxml_etree.iterparse(str(path), events=events, tag=tag, attribute_defaults=defaults, **LXML_OPTIONS)
        try:
            for event, value in iterator:
                handed.append((snapshot(event, value, lxml_etree, left_out), value))
        except lxml_etree.XMLSyntaxError as refused:
            error = refused
            continue
        # libxml2 hands out the comments and processing instructions of the
        # internal subset too; they are in no tree, xml5dom's or lxml's
        # (docs/python.md, XPath: "not in XPath's data model and not in
        # xml5dom's tree"), so no event of xml5dom's gives them.
        in_document = document_nodes(iterator.root)
        return [what for what, value in handed if what[0] not in ("comment", "pi") or value in in_document]
    raise error


# --- the documents -----------------------------------------------------------

WELL_FORMED = compare_bs4.well_formed_documents()


def relative(path):
    return str(path.relative_to(REPOSITORY))


def tree_construction_cases():
    """The inputs of the XML5 tree-construction cases (.dat files: the
    lines after `#data` up to `#errors` or `#document`)."""
    cases = []
    for directory in ("tests/tree-construction", "tests/xml5lib-tests/tree-construction"):
        for path in sorted((REPOSITORY / directory).glob("*.dat")):
            lines = path.read_text(encoding="utf-8").split("\n")
            for number, line in enumerate(lines):
                if line != "#data":
                    continue
                end = number + 1
                while end < len(lines) and lines[end] not in ("#errors", "#document"):
                    end += 1
                data = "\n".join(lines[number + 1 : end]).encode("utf-8")
                cases.append(("%s:%d" % (relative(path), number + 1), data))
    return cases


def truncated_documents():
    """Well-formed documents cut short at random places: what a stream
    that breaks off gives."""
    chooser = random.Random(33)
    cases = []
    for path in WELL_FORMED[::25]:
        data = path.read_bytes()
        for _ in range(2):
            at = chooser.randrange(1, len(data))
            cases.append(("%s cut at %d" % (relative(path), at), data[:at]))
    return cases


def broken_inputs():
    cases = list(compare_bs4.broken_documents())
    cases += [
        ("tests/regressions/" + path.name, path.read_bytes())
        for path in sorted((REPOSITORY / "tests" / "regressions").glob("*.bin"))
    ]
    cases += tree_construction_cases()
    cases += truncated_documents()
    cases.append(("test_broken.damaged_records(300)", damaged_records(300)[0]))
    return cases


BROKEN = broken_inputs()


def test_the_data_is_there():
    assert len(WELL_FORMED) > 200
    assert len(BROKEN) > 300
    assert sum(1 for name, _ in BROKEN if name.startswith("tests/regressions/")) > 10


def test_iterparse_and_xmlpullparser_are_there():
    assert STREAMING or SELF_CHECK, "xml5dom.etree has no iterparse or no XMLPullParser (issue 33)"


# --- 1. well-formed documents: lxml's events ---------------------------------


@streaming
@pytest.mark.parametrize("path", WELL_FORMED, ids=relative)
def test_events_equal_lxml_on_a_well_formed_document(path):
    left_out = differs(path)
    expected = lxml_events(path, left_out=left_out)
    module = IMPL.module
    data = path.read_bytes()

    iterator = IMPL.iterparse(str(path), events=LXML_EVENTS)
    assert iterator.root is None
    handed = list(iterator_snapshots(iterator, module, left_out))
    assert [what for what, _ in handed] == expected, "from the path"
    last_end = [value for what, value in handed if what[0] == "end"][-1]
    assert iterator.root is not None and iterator.root == last_end
    assert iterator.root.getparent() is None

    for seed, limit in CHUNKINGS[:1]:
        reader = PieceReader(data, seed, limit)
        found = stream_events(IMPL.iterparse(reader, events=LXML_EVENTS), module, left_out)
        assert found == expected, "from a file read in pieces of 1..%d bytes (seed %d)" % (limit, seed)
    for seed, limit in CHUNKINGS:
        found, root, _ = pull_events(data, seed, limit, module, left_out=left_out, events=LXML_EVENTS)
        assert found == expected, "XMLPullParser fed 1..%d bytes at a time (seed %d)" % (limit, seed)
        assert root is not None and root.tag == last_end.tag


@streaming
def test_a_source_is_a_path_a_path_object_or_a_binary_file():
    path = REPOSITORY / "tests" / "corpus" / "odd" / "080-everything-together.xml"
    left_out = differs(path)
    expected = lxml_events(path, left_out=left_out)
    module = IMPL.module
    with open(path, "rb") as file:
        sources = [str(path), pathlib.Path(path), file, io.BytesIO(path.read_bytes())]
        for source in sources:
            found = stream_events(IMPL.iterparse(source, events=LXML_EVENTS), module, left_out)
            assert found == expected, type(source).__name__


@xml5dom_only
@pytest.mark.parametrize("path", WELL_FORMED[::10], ids=relative)
def test_error_events_of_a_well_formed_document_are_its_log(path):
    # Only warnings, if anything; the other events are lxml's as above.
    data = path.read_bytes()
    _, log, _ = IMPL.whole_tree(data)
    events = list(IMPL.iterparse(str(path), events=LXML_EVENTS + ("error",)))
    assert [entry_row(v) for e, v in events if e == "error"] == [entry_row(e) for e in log]
    assert all(entry.severity == "warning" for e, entry in events if e == "error")


# --- 2. tag filters ------------------------------------------------------------


def namespaced_documents():
    """Well-formed documents whose elements are in two namespaces or more
    (eight of them, spread over the list)."""
    chosen = []
    for path in WELL_FORMED:
        root = lxml_etree.fromstring(path.read_bytes(), lxml_etree.XMLParser(**LXML_OPTIONS))
        spaces = {e.tag[1:].split("}")[0] for e in root.iter() if isinstance(e.tag, str) and e.tag[0] == "{"}
        if len(spaces) >= 2:
            chosen.append(path)
    return chosen[:: max(1, len(chosen) // 8)][:8]


def tag_filters(path):
    """Filters made from the document's own tags: a name in no namespace,
    a Clark name, `{ns}*`, `{*}local`, `{}local`, `*`, and a list."""
    root = lxml_etree.fromstring(path.read_bytes(), lxml_etree.XMLParser(**LXML_OPTIONS))
    tags = collections.Counter(e.tag for e in root.iter() if isinstance(e.tag, str))
    clark = [t for t, _ in tags.most_common() if t[0] == "{"]
    plain = [t for t, _ in tags.most_common() if t[0] != "{"]
    local = clark[0].split("}")[1]
    namespace = clark[-1][1:].split("}")[0]
    filters = [clark[0], "{%s}*" % namespace, "{*}%s" % local, "*", [clark[0], clark[-1]], (clark[-1],)]
    if plain:
        filters += [plain[0], "{}%s" % plain[0], [plain[0], "{%s}*" % namespace]]
    else:
        # A local name alone matches an element in no namespace only.
        filters += [local]
    return filters


NAMESPACED = namespaced_documents()


def test_the_tag_filters_have_documents():
    assert len(NAMESPACED) >= 5


@streaming
@pytest.mark.parametrize("path", NAMESPACED, ids=relative)
def test_tag_filters_equal_lxml(path):
    left_out = differs(path)
    data = path.read_bytes()
    module = IMPL.module
    selected = 0
    for tag in tag_filters(path):
        expected = lxml_events(path, tag=tag, left_out=left_out)
        selected += any(event == "start" for event, _ in expected)
        found = stream_events(IMPL.iterparse(str(path), events=LXML_EVENTS, tag=tag), module, left_out)
        assert found == expected, tag
        found, _, _ = pull_events(data, 4, 50, module, left_out=left_out, events=LXML_EVENTS, tag=tag)
        assert found == expected, tag
        # The default events: "end" only.
        ends = [e for e in expected if e[0] == "end"]
        assert stream_events(IMPL.iterparse(io.BytesIO(data), tag=tag), module, left_out) == ends, tag
    assert selected >= 6, "the filters select elements"


@streaming
def test_a_tag_filter_leaves_comments_pis_and_namespaces_alone():
    # lxml's rule, which its docs say of start-ns and end-ns only.
    data = b'<!--c--><r xmlns:a="u:a"><x/><a:x/><y xmlns="u:d"><x/><!--in--><?p d?></y></r>'
    expected = [
        ("comment", ("comment", "c")),
        ("start-ns", ("a", "u:a")),
        ("start", ("x", None, [], [("a", "u:a")])),
        ("end", [(0, ("element", "x", [], None), None)]),
        ("start-ns", ("", "u:d")),
        ("comment", ("comment", "in")),
        ("pi", ("pi", "p", "d")),
        ("end-ns", None),
        ("end-ns", None),
    ]
    for impl in (LxmlSelfCheck, IMPL):
        found = stream_events(impl.iterparse(io.BytesIO(data), events=LXML_EVENTS, tag="x"), impl.module)
        assert found == expected, impl.__name__


# --- 3. broken input: the tree fromstring builds ------------------------------


def postorder(root):
    """The elements under ``root`` in the order their ends come."""
    order, stack = [], [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
            continue
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(list(node)) if isinstance(child.tag, str))
    return order


def top_level(root):
    """The root element and its siblings, in document order."""
    if root is None:
        return []
    first = root
    while first.getprevious() is not None:
        first = first.getprevious()
    nodes = []
    while first is not None:
        nodes.append(first)
        first = first.getnext()
    return nodes


def other_nodes(top, module):
    """The comments and processing instructions of the document (whose
    top-level nodes are ``top``), in document order."""
    nodes = []
    for node in top:
        nodes.extend(n for n in node.iter() if not isinstance(n.tag, str))
    return [node_row(n, module) for n in nodes]


class Expected:
    """What the events of a broken input must say: the whole tree's."""

    def __init__(self, data):
        module = IMPL.module
        root, log, top = IMPL.whole_tree(data)
        elements = postorder(root) if root is not None else []
        self.ends = [subtree(e, module) for e in elements]
        self.starts = [start_row(e, module) for e in (root.iter() if root is not None else []) if isinstance(e.tag, str)]
        self.others = other_nodes(top, module)
        self.errors = [entry_row(e) for e in log]
        self.messages = [e.message for e in log]
        self.root = root


def check_broken_events(handed, expected, label):
    """``handed``: (event, value, snapshot) as handed out."""
    ends = [what[1] for event, _, what in handed if event == "end"]
    assert ends == expected.ends, label
    starts = [what[1] for event, _, what in handed if event == "start"]
    assert starts == expected.starts, label
    others = [what[1] for event, _, what in handed if event in ("comment", "pi")]
    assert others == expected.others, label
    # Starts and ends nest; each start-ns has its end-ns.
    open_elements, namespaces = [], 0
    for event, value, _ in handed:
        if event == "start":
            open_elements.append(value)
        elif event == "end":
            assert open_elements and open_elements.pop() == value, label
        elif event == "start-ns":
            namespaces += 1
        elif event == "end-ns":
            namespaces -= 1
            assert namespaces >= 0, label
    assert not open_elements and namespaces == 0, label
    if IMPL is LxmlSelfCheck:
        return
    errors = [value for event, value, _ in handed if event == "error"]
    assert [entry_row(e) for e in errors] == expected.errors, label
    assert [e.message for e in errors] == expected.messages, label
    # An error comes out before the end of any element whose start tag
    # ends on a later line (sourceline): the parser had read past it.
    last_line_ended = 0
    for event, value, _ in handed:
        if event == "end" and value.sourceline is not None:
            last_line_ended = max(last_line_ended, value.sourceline)
        elif event == "error":
            assert last_line_ended <= value.line, (label, entry_row(value))


BROKEN_EVENTS = LXML_EVENTS + ("error",)


def handed_out(iterator):
    return [(event, value, snapshot(event, value, IMPL.module)) for event, value in iterator]


def pull_handed_out(data, seed, limit):
    parser = IMPL.XMLPullParser(events=BROKEN_EVENTS if IMPL is Xml5dom else LXML_EVENTS)
    handed = []
    for piece in pieces(data, seed, limit):
        parser.feed(piece)
        handed.extend(handed_out(parser.read_events()))
    root = parser.close()
    handed.extend(handed_out(parser.read_events()))
    return handed, root, parser


@streaming
@pytest.mark.parametrize("name, data", BROKEN, ids=[name for name, _ in BROKEN])
def test_broken_input_hands_out_the_elements_of_the_whole_tree(name, data):
    expected = Expected(data)
    events = BROKEN_EVENTS if IMPL is Xml5dom else LXML_EVENTS
    iterator = IMPL.iterparse(io.BytesIO(data), events=events)
    handed = handed_out(iterator)
    check_broken_events(handed, expected, "whole")
    if expected.root is not None:
        assert iterator.root == [v for e, v, _ in handed if e == "end"][-1]
    else:
        assert iterator.root is None
    if IMPL is Xml5dom:
        assert [entry_row(e) for e in iterator.error_log] == expected.errors
    for seed, limit in CHUNKINGS[:2]:
        handed, root, parser = pull_handed_out(data, seed, limit)
        label = "XMLPullParser, 1..%d bytes at a time (seed %d)" % (limit, seed)
        check_broken_events(handed, expected, label)
        assert (root is None) == (expected.root is None), label
        if IMPL is Xml5dom:
            assert [entry_row(e) for e in parser.error_log] == expected.errors, label


@xml5dom_only
def test_error_events_come_where_the_errors_are():
    # Named positions, so that the order check above is known to bite.
    data = b"<r>\n<a>AT&T</a>\n<b x=1>one</b>\n<c>\n</r>"
    handed = list(IMPL.iterparse(io.BytesIO(data), events=("end", "error")))
    said = [(e, v.tag if e == "end" else (v.line, v.type_name)) for e, v in handed]
    # The end tag </r> closes <c> and is the error: which of the two comes
    # first is not said, both come after </b> and before the end of <r>.
    mismatch = ("error", (5, "mismatched-end-tag"))
    assert said.index(("end", "b")) < said.index(mismatch) < said.index(("end", "r"))
    said.remove(mismatch)
    assert said == [
        ("error", (2, "bare-ampersand")),
        ("end", "a"),
        ("error", (3, "unquoted-attribute-value")),
        ("end", "b"),
        ("end", "c"),
        ("end", "r"),
    ]


@xml5dom_only
def test_error_events_are_log_entries():
    data = b"<company><name>AT&T</name></company>"
    it = IMPL.iterparse(io.BytesIO(data), events=("error",))
    (event, entry), = list(it)
    (logged,) = etree.fromstring(data).getroottree().error_log
    assert event == "error"
    for field in ("line", "column", "offset", "code", "type_name", "severity", "level_name", "message"):
        assert getattr(entry, field) == getattr(logged, field), field
    at = data.index(b"&")
    assert (entry.line, entry.column, entry.offset) == (1, at + 1, at)
    assert len(it.error_log) == 1 and it.error_log[0].type_name == "bare-ampersand"


# --- 4. lxml's memory idiom ------------------------------------------------------


def record_feed(count):
    """A data export of ``count`` records, every seventh one damaged (a
    bare `&`, an unquoted attribute value, an entity no DTD declares, a
    stray `<`, a missing end tag, a windows-1252 byte in UTF-8)."""
    parts = [b'<?xml version="1.0" encoding="UTF-8"?>\n<records>\n']
    for n in range(count):
        note = b"text with &amp; refs"
        record_id, value_end = b'"%d"' % n, b"</value>"
        damage = (n // 7) % 6 if n % 7 == 6 else None
        if damage == 0:
            note = b"fish & chips"
        elif damage == 1:
            record_id = b"%d" % n
        elif damage == 2:
            note = b"a&nbsp;b"
        elif damage == 3:
            note = b"a < b"
        elif damage == 4:
            value_end = b""
        elif damage == 5:
            note = b"caf\xe9"
        parts.append(
            b"<record id=%s><name>name %d</name><value>%d%s<note>%s</note></record>\n"
            % (record_id, n, n * 3, value_end, note)
        )
    parts.append(b"</records>\n")
    return b"".join(parts)


def clearing_loop(events, kept, results, sizes):
    for _, element in events:
        if element.tag == "name":
            kept.append(element)
        elif element.tag == "record":
            results.append((element.get("id"), element.findtext("name"), "".join(element.itertext())))
            element.clear()
            while element.getprevious() is not None:
                del element.getparent()[0]
            sizes.append(len(element.getparent()))


@streaming
def test_clearing_at_end_keeps_the_tree_small_and_the_records_whole():
    count = 20_000
    data = record_feed(count)
    root, _, _ = IMPL.whole_tree(data)
    expected = [(r.get("id"), r.findtext("name"), "".join(r.itertext())) for r in root.iter("record")]
    assert [record_id for record_id, _, _ in expected] == [str(n) for n in range(count)]
    names = ["name %d" % n for n in range(count)]

    kept, results, sizes = [], [], []
    iterator = IMPL.iterparse(io.BytesIO(data))
    clearing_loop(iterator, kept, results, sizes)
    assert results == expected
    # The tree may run ahead of the events (lxml's parses 32 KiB at a
    # time): the records not yet handed out, and no more, stay.
    assert max(sizes) < count // 10
    assert iterator.root.tag == "records" and len(iterator.root) <= 1
    # Elements handed out earlier stay readable once cleared out of the tree.
    assert [(e.tag, e.text) for e in kept] == [("name", text) for text in names]
    assert all(e.getparent() is None for e in kept)

    parser = IMPL.XMLPullParser()
    kept, results, sizes = [], [], []
    for piece in pieces(data, 5, 1000):
        parser.feed(piece)
        clearing_loop(parser.read_events(), kept, results, sizes)
    root = parser.close()
    clearing_loop(parser.read_events(), kept, results, sizes)
    assert results == expected and max(sizes) < count // 10
    assert root.tag == "records" and len(root) <= 1
    assert [(e.tag, e.text) for e in kept] == [("name", text) for text in names]


@xml5dom_only
def test_the_damaged_records_are_reported_as_they_come():
    data = record_feed(300)
    _, log, _ = IMPL.whole_tree(data)
    assert len(log) >= 300 // 7
    errors = [entry_row(v) for e, v in IMPL.iterparse(io.BytesIO(data), events=("error",))]
    assert errors == [entry_row(e) for e in log]


# --- 5. edge cases --------------------------------------------------------------


@streaming
@pytest.mark.parametrize(
    "data", [b"", b"\xef\xbb\xbf", b"just text", b"  \n ", b"<!--only a comment-->", b"\xff\xfe"],
    ids=["empty", "BOM", "text", "space", "comment", "UTF-16 BOM"],
)
def test_input_without_an_element_gives_no_element_events(data):
    if IMPL is LxmlSelfCheck:
        pytest.skip("lxml refuses a document without a root element, even recovering")
    _, log, _ = IMPL.whole_tree(data)
    iterator = IMPL.iterparse(io.BytesIO(data), events=("start", "end", "comment", "error"))
    handed = [(event, snapshot(event, value, etree)) for event, value in iterator]
    assert [event for event, _ in handed if event in ("start", "end")] == []
    assert [what for event, what in handed if event == "error"] == [("error", entry_row(e)) for e in log]
    assert iterator.root is None
    parser = IMPL.XMLPullParser(events=("end", "error"))
    for byte in data:
        parser.feed(bytes([byte]))
    assert parser.close() is None
    assert [entry_row(v) for e, v in parser.read_events()] == [entry_row(e) for e in log]


@streaming
def test_a_deep_unclosed_nesting_fed_seven_bytes_at_a_time():
    depth = 100_000
    data = b"<a>" * depth
    parser = IMPL.XMLPullParser(events=("start", "end"))
    starts = 0
    for at in range(0, len(data), 7):
        parser.feed(data[at : at + 7])
        for event, _ in parser.read_events():
            assert event == "start", "an element ended before the input did"
            starts += 1
    root = parser.close()
    ends = [value for event, value in parser.read_events() if event == "end"]
    assert starts == depth and len(ends) == depth
    assert len(ends[0]) == 0 and ends[-1] == root and root.getparent() is None
    assert ends[1][0] == ends[0] and ends[0].getparent() == ends[1]


@streaming
def test_an_unknown_event_name_is_refused():
    for impl in (LxmlSelfCheck, IMPL):
        with pytest.raises(ValueError):
            impl.iterparse(io.BytesIO(b"<r/>"), events=("end", "bogus"))
        with pytest.raises(ValueError):
            impl.XMLPullParser(events=("bogus",))


@streaming
def test_recover_false_raises_at_the_first_error():
    data = b"<r><a>one</a><b>AT&T</b><c>three</c></r>"
    with pytest.raises(IMPL.XMLSyntaxError):
        list(IMPL.iterparse(io.BytesIO(data), recover=False))
    ends = []
    with pytest.raises(IMPL.XMLSyntaxError) as raised:
        for event, element in IMPL.iterparse(io.BytesIO(data), recover=False):
            ends.append(element.tag)
    # What came before the error came out, nothing after it.
    assert ends in ([], ["a"])
    if IMPL is Xml5dom:
        with pytest.raises(etree.XMLSyntaxError) as whole:
            etree.fromstring(data, recover=False)
        assert raised.value.position == whole.value.position == (1, data.index(b"&") + 1)
    with pytest.raises(IMPL.XMLSyntaxError):
        parser = IMPL.XMLPullParser(recover=False)
        for piece in pieces(data, 6, 5):
            parser.feed(piece)
            list(parser.read_events())
        parser.close()
    # Well-formed input goes through as with recovery.
    well_formed = b"<r><a>one</a></r>"
    assert [e.tag for _, e in IMPL.iterparse(io.BytesIO(well_formed), recover=False)] == ["a", "r"]


@streaming
def test_root_is_known_once_the_input_is_read():
    data = b"<!--c--><r><a/><b/></r><?p?>"
    iterator = IMPL.iterparse(io.BytesIO(data), events=("start", "end", "comment", "pi"))
    assert iterator.root is None
    during = []
    for event, value in iterator:
        during.append((event, iterator.root))
    # lxml sets it only when the input is done; "once known" allows the
    # root as soon as its start tag is read, never anything else.
    first_start = next(n for n, (event, _) in enumerate(during) if event == "start")
    assert all(root is None for _, root in during[:first_start])
    assert all(root is None or root.tag == "r" for _, root in during)
    assert iterator.root is not None and iterator.root.tag == "r"
    assert iterator.root.getprevious().text == "c" and iterator.root.getnext().target == "p"


def pull_steps(impl, steps):
    """What each step does to a new XMLPullParser: its result, or the name
    of the exception it raises (lxml's and xml5dom's classes share names)."""
    parser = impl.XMLPullParser(events=("start", "end"))
    said = []
    for step, argument in steps:
        try:
            if step == "feed":
                said.append(parser.feed(argument))
            elif step == "read":
                said.append([(event, element.tag) for event, element in parser.read_events()])
            elif step == "read one":
                events = parser.read_events()
                said.append([(event, element.tag) for event, element in [next(events)]])
            elif step == "close":
                root = parser.close()
                said.append(None if root is None else ("root", root.tag, root.text))
        except Exception as error:  # noqa: BLE001 (the name is what is compared)
            said.append(type(error).__name__)
    return said


PULL_CASES = {
    "str then bytes": [("feed", "<r>caf\u00e9"), ("feed", b"\xc3\xa9</r>"), ("close", None)],
    "bytes then str": [("feed", b"<r>\xc3"), ("feed", b"\xa9"), ("feed", "\u00e9</r>"), ("close", None)],
    "a UTF-8 sequence cut": [("feed", b"<r>\xf0\x9f"), ("feed", b"\x98"), ("feed", b"\x80</r>"), ("close", None)],
    "empty feeds": [("feed", b""), ("feed", "<r>"), ("feed", b""), ("feed", "</r>"), ("close", None)],
    "not text": [("feed", 5), ("feed", b"<r/>"), ("close", None)],
    "read as it comes": [
        ("feed", b"<r><a/><b"), ("read one", None), ("read", None), ("read", None),
        ("feed", b"/></r>"), ("read", None), ("close", None), ("read", None),
    ],
    "the end comes at close": [("feed", b"<r><a>"), ("feed", b"</a></r>"), ("read", None), ("close", None), ("read", None)],
    # lxml starts a new document when fed after close().
    "feed after close": [
        ("feed", b"<r/>"), ("close", None), ("read", None),
        ("feed", b"<s>new</s>"), ("read", None), ("close", None), ("read", None),
    ],
}


@streaming
@pytest.mark.parametrize("steps", PULL_CASES.values(), ids=PULL_CASES.keys())
def test_xmlpullparser_calls_do_what_lxml_does(steps):
    assert pull_steps(IMPL, steps) == pull_steps(LxmlSelfCheck, steps)


@streaming
def test_the_default_events_are_end_events():
    data = b"<r><a/><!--c--></r>"
    parser = IMPL.XMLPullParser()
    parser.feed(data)
    parser.close()
    assert [(event, value.tag) for event, value in parser.read_events()] == [("end", "a"), ("end", "r")]
    assert [(event, value.tag) for event, value in IMPL.iterparse(io.BytesIO(data))] == [("end", "a"), ("end", "r")]


@xml5dom_only
def test_a_truncated_stream_closes_its_elements_at_close():
    parser = IMPL.XMLPullParser(events=("end", "error"))
    parser.feed(b"<feed><entry><title>First</title><summary>cut off")
    assert [(e, v.tag) for e, v in parser.read_events()] == [("end", "title")]
    root = parser.close()
    said = [(e, v.tag if e == "end" else v.type_name) for e, v in parser.read_events()]
    # The error is at the end of the input, where the three elements end:
    # its place among their ends is not said.
    said.remove(("error", "eof-in-element"))
    assert said == [("end", "summary"), ("end", "entry"), ("end", "feed")]
    assert root.tag == "feed" and "".join(root.itertext()) == "Firstcut off"


@xml5dom_only
def test_an_encoding_named_by_the_caller_is_the_one_read():
    # Windows-1251 labelled UTF-8, as exports from old systems are: the
    # caller knows better than the label, as with XMLParser(encoding=...).
    data = '<?xml version="1.0" encoding="UTF-8"?><r><a>Привет</a><a>мир</a></r>'.encode("cp1251")
    parser = IMPL.module.XMLParser(encoding="windows-1251")
    expected = [a.text for a in IMPL.module.fromstring(data, parser).iter("a")]
    assert expected == ["Привет", "мир"]
    streamed = [e.text for _, e in IMPL.iterparse(io.BytesIO(data), tag="a", encoding="windows-1251")]
    assert streamed == expected
    pull = IMPL.XMLPullParser(encoding="windows-1251")
    for piece in pieces(data, 3, 5):
        pull.feed(piece)
    pull.close()
    assert [e.text for _, e in pull.read_events() if e.tag == "a"] == expected
    with pytest.raises(LookupError):
        IMPL.iterparse(io.BytesIO(data), encoding="no such encoding")
