"""The lxml/ElementTree API of xml5dom.etree: broken input kept whole with
its errors, recover=False, queries against lxml's answers, writing, bad
arguments, threads and depth."""

import io
import threading

import pytest
from lxml import etree as lxml_etree

from xml5dom import etree


def positions(tree):
    return [(e.line, e.column, e.offset, e.code) for e in tree.error_log]


# ----- Broken input: every character kept, every repair logged -------------


def test_bare_ampersand_is_kept_as_text():
    root = etree.fromstring(b"<p>AT&T rocks</p>")
    assert root.text == "AT&T rocks"
    tree = root.getroottree()
    assert positions(tree) == [(1, 6, 5, "bare-ampersand")]
    entry = tree.error_log[0]
    assert entry.severity == "error" and entry.level_name == "ERROR"
    assert "`&`" in entry.message
    assert etree.tostring(tree) == b"<p>AT&amp;T rocks</p>"


def test_undeclared_entities_keep_their_characters():
    root = etree.fromstring(b"<p>caf&nbsp;e &copy; 2024</p>")
    assert root.text == "caf\u00a0e \u00a9 2024"
    assert positions(root.getroottree()) == [
        (1, 7, 6, "undeclared-entity"),
        (1, 15, 14, "undeclared-entity"),
    ]


def test_unclosed_elements_are_closed_and_logged():
    root = etree.fromstring("<list><item>one<item>two</list>")
    assert [e.tag for e in root.iter()] == ["list", "item", "item"]
    assert root[0].text == "one" and root[0][0].text == "two"
    assert positions(root.getroottree()) == [(1, 25, 24, "mismatched-end-tag")]
    assert "".join(root.itertext()) == "onetwo"


def test_unquoted_attribute_keeps_its_value():
    root = etree.fromstring("<a x=1 y='2'>t</a>")
    assert root.attrib == {"x": "1", "y": "2"} and root.text == "t"
    assert positions(root.getroottree()) == [(1, 6, 5, "unquoted-attribute-value")]


def test_undeclared_prefix_gets_a_placeholder_namespace():
    root = etree.fromstring("<a><p:b>x</p:b></a>")
    child = root[0]
    assert child.tag == "{urn:xml5dom:undeclared:p}b"
    assert child.prefix == "p" and child.text == "x"
    assert positions(root.getroottree()) == [(1, 4, 3, "unbound-namespace-prefix")]


def test_recovery_keeps_more_than_lxml_recover():
    data = b"<p>AT&T and caf&nbsp;e</p>"
    ours = "".join(etree.fromstring(data).itertext())
    theirs = "".join(
        lxml_etree.fromstring(data, lxml_etree.XMLParser(recover=True)).itertext()
    )
    assert ours == "AT&T and caf\u00a0e"
    # Whatever lxml keeps, xml5dom keeps too, in order.
    remaining = iter(ours)
    assert all(character in remaining for character in theirs)


# ----- recover=False --------------------------------------------------------


def test_recover_false_raises_at_the_first_error():
    with pytest.raises(etree.XMLSyntaxError) as raised:
        etree.fromstring("<a>\n<b>AT&T</b>\n<c x=1 /></a>", recover=False)
    error = raised.value
    assert isinstance(error, SyntaxError)
    assert isinstance(error, etree.ParseError) and isinstance(error, etree.LxmlError)
    assert (error.lineno, error.offset, error.code) == (2, 6, "bare-ampersand")
    assert error.position == (2, 6)
    assert [e.code for e in error.error_log] == [
        "bare-ampersand",
        "unquoted-attribute-value",
    ]


def test_recover_false_through_a_parser_and_on_well_formed_input():
    parser = etree.XMLParser(recover=False)
    with pytest.raises(etree.XMLSyntaxError):
        etree.fromstring("<a>", parser)
    assert etree.fromstring("<a><b/></a>", parser).tag == "a"
    with pytest.raises(etree.XMLSyntaxError):
        etree.parse(io.BytesIO(b"<a>&</a>"), recover=False)


def test_a_document_without_root_raises():
    with pytest.raises(etree.XMLSyntaxError):
        etree.fromstring("")
    with pytest.raises(etree.XMLSyntaxError):
        etree.fromstring("<!-- only a comment -->")


# ----- Reading, against lxml ------------------------------------------------

DOCUMENT = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE feed SYSTEM "feed.dtd">
<feed xmlns="urn:atom" xmlns:x="urn:x">
  <title>Tides</title>
  <!-- entries -->
  <entry id="1" x:flag="on"><title>One</title><x:n>3</x:n>after</entry>
  <?render fast?>
  <entry id="2"><title>Two</title><x:n>4.5</x:n></entry>
</feed>
"""

XPATHS = [
    "//*",
    "//a:title/text()",
    "//a:entry/@id",
    "string(//a:entry[2]/a:title)",
    "count(//a:entry)",
    "sum(//x:n)",
    "//a:entry/@id = '2'",
    "boolean(//a:missing)",
    "//comment()",
    "//processing-instruction()",
    "name(/*)",
    "//a:entry[@x:flag]/a:title",
    "/a:feed/a:entry[last()]/x:n + 1",
    "local-name(//x:n)",
]
NAMESPACES = {"a": "urn:atom", "x": "urn:x"}


def plain(value, module):
    """An xpath result in terms both libraries share."""
    if isinstance(value, list):
        return [plain(item, module) for item in value]
    if isinstance(value, (bool, float)):
        return (type(value).__name__, value)
    if isinstance(value, str):
        return ("str", str(value))
    if isinstance(value, tuple):
        return ("ns", value)
    return ("node", value.tag if isinstance(value.tag, str) else value.text, value.sourceline)


@pytest.mark.parametrize("expression", XPATHS)
def test_xpath_returns_what_lxml_returns(expression):
    ours = etree.fromstring(DOCUMENT)
    theirs = lxml_etree.fromstring(DOCUMENT)
    assert plain(ours.xpath(expression, namespaces=NAMESPACES), etree) == plain(
        theirs.xpath(expression, namespaces=NAMESPACES), lxml_etree
    )


@pytest.mark.parametrize(
    "path",
    ["a:entry", "a:entry/a:title", ".//a:title", "a:entry[@id='2']", ".//x:n", "*", "a:none"],
)
def test_find_findall_findtext_iterfind_match_lxml(path):
    ours = etree.fromstring(DOCUMENT)
    theirs = lxml_etree.fromstring(DOCUMENT)

    def tags(found):
        return [(e.tag, e.sourceline) for e in found]

    assert tags(ours.findall(path, NAMESPACES)) == tags(theirs.findall(path, NAMESPACES))
    assert tags(ours.iterfind(path, namespaces=NAMESPACES)) == tags(
        theirs.iterfind(path, namespaces=NAMESPACES)
    )
    first, expected = ours.find(path, NAMESPACES), theirs.find(path, NAMESPACES)
    assert (first is None) == (expected is None)
    if first is not None:
        assert first.tag == expected.tag
    assert ours.findtext(path, "none", NAMESPACES) == theirs.findtext(path, "none", NAMESPACES)


def test_default_namespace_in_find():
    ours = etree.fromstring(DOCUMENT)
    assert len(ours.findall("entry", namespaces={None: "urn:atom"})) == 2
    assert ours.findall("entry") == []


def test_navigation_and_iteration():
    root = etree.fromstring(DOCUMENT)
    kinds = [e.tag if isinstance(e.tag, str) else e.tag.__name__ for e in root]
    assert kinds == ["{urn:atom}title", "Comment", "{urn:atom}entry", "ProcessingInstruction", "{urn:atom}entry"]
    assert len(root) == 5 and bool(root)
    first_entry = root[2]
    assert root[-1].get("id") == "2" and [e.get("id") for e in root[2::2]] == ["1", "2"]
    assert first_entry.getparent() == root and root.getparent() is None
    assert first_entry.getprevious().tag is etree.Comment
    assert first_entry.getnext().tag is etree.ProcessingInstruction
    assert first_entry.getnext().target == "render" and first_entry.getnext().text == "fast"
    assert first_entry.keys() == ["id", "{urn:x}flag"]
    assert first_entry.items() == [("id", "1"), ("{urn:x}flag", "on")]
    assert first_entry.get("{urn:x}flag") == "on" and first_entry.get("flag", "no") == "no"
    assert first_entry[1].tail == "after" and first_entry[1].prefix == "x"
    assert [e.get("id") for e in root.iter("{urn:atom}entry")] == ["1", "2"]
    assert [e.tag for e in root.iter("{urn:x}*")] == ["{urn:x}n", "{urn:x}n"]
    assert len(root.iter("{*}title")) == 3
    assert root.nsmap == {None: "urn:atom", "x": "urn:x"}
    with pytest.raises(IndexError):
        root[5]


def test_docinfo_matches_lxml():
    ours = etree.fromstring(DOCUMENT).getroottree().docinfo
    theirs = lxml_etree.fromstring(DOCUMENT).getroottree().docinfo
    for field in ("encoding", "xml_version", "doctype", "root_name", "public_id", "system_url"):
        assert getattr(ours, field) == getattr(theirs, field), field


def test_docinfo_keeps_the_doctype_name_as_written():
    # XML5 lowercases the DOCTYPE's name (the library's `Node::name`); lxml,
    # like XML, keeps it as written, and so does docinfo.
    for data in (
        b'<!DOCTYPE ROOT SYSTEM "r.dtd"><ROOT/>',
        b"<!DOCTYPE Mixed-Case><Mixed-Case/>",
        b'<!DOCTYPE\n  Spaced PUBLIC "-//P//EN" "s.dtd"><Spaced/>',
    ):
        ours = etree.fromstring(data).getroottree().docinfo
        theirs = lxml_etree.fromstring(data).getroottree().docinfo
        assert (ours.root_name, ours.doctype) == (theirs.root_name, theirs.doctype), data


def test_sourceline_counts_every_line_end():
    # libxml2 counts only LF; xml5dom counts CR and CR LF too (XML 1.0 §2.11).
    root = etree.fromstring("<a>\r<b/>\r\n<c\r/></a>")
    assert [e.sourceline for e in root.iter()] == [1, 2, 4]


# ----- Writing -----------------------------------------------------------------


def test_tostring_of_elements():
    root = etree.fromstring("<a><b x='1'>t</b>tail &amp; more<c/></a>")
    assert etree.tostring(root[0]) == b"<b x='1'>t</b>tail &amp; more"
    assert etree.tostring(root[0], with_tail=False) == b"<b x='1'>t</b>"
    assert etree.tostring(root[1], encoding="unicode") == "<c/>"
    assert etree.tostring(root[1], encoding=str) == "<c/>"
    assert (
        etree.tostring(root[1], xml_declaration=True, encoding="UTF-8")
        == b"<?xml version='1.0' encoding='UTF-8'?>\n<c/>"
    )


def test_an_unedited_tree_is_written_byte_for_byte_in_its_encoding(tmp_path):
    data = "<?xml version='1.0' encoding='ISO-8859-1'?>\n<a>caf\u00e9</a>\n".encode("latin-1")
    tree = etree.parse(io.BytesIO(data))
    assert tree.getroot().text == "caf\u00e9"
    assert tree.docinfo.encoding == "ISO-8859-1"
    assert etree.tostring(tree) == data
    assert etree.tostring(tree, encoding="unicode") == data.decode("latin-1")
    assert etree.tostring(tree, xml_declaration=False, encoding="unicode") == "<a>caf\u00e9</a>\n"
    path = tmp_path / "out.xml"
    tree.write(str(path))
    assert path.read_bytes() == data
    buffer = io.BytesIO()
    tree.write(buffer)
    assert buffer.getvalue() == data
    again = etree.parse(path)
    assert etree.tostring(again) == data


def test_pretty_print_of_a_tree():
    tree = etree.fromstring("<a><b><c/></b></a>").getroottree()
    assert etree.tostring(tree, pretty_print=True) == b"<a>\n  <b>\n    <c/>\n  </b>\n</a>\n"


# ----- Bad arguments: a clear exception ----------------------------------------


def test_bad_arguments_raise():
    root = etree.fromstring("<a><b/></a>")
    with pytest.raises(TypeError):
        etree.fromstring(42)
    with pytest.raises(OSError):
        etree.parse("/nonexistent/xml5dom/file.xml")
    with pytest.raises(TypeError):
        etree.parse(3.5)
    with pytest.raises(etree.XPathEvalError):
        root.xpath("///")
    with pytest.raises(etree.XPathEvalError):
        root.xpath("//a:b")
    with pytest.raises(SyntaxError):
        root.find("[")
    with pytest.raises(TypeError):
        etree.tostring("<a/>")
    with pytest.raises(ValueError):
        etree.tostring(root, encoding="no-such-encoding")
    with pytest.raises(ValueError):
        etree.tostring(root, method="html")
    with pytest.raises(TypeError):
        root.find("b", namespaces=["x"])
    with pytest.raises(TypeError):
        root[1.5]


# ----- Threads and depth ----------------------------------------------------------


def test_one_document_read_from_several_threads():
    root = etree.fromstring(b"<r>" + b"<i n='1'>x</i>" * 2000 + b"</r>")
    expected = etree.tostring(root)
    results, failures = [], []

    def work():
        try:
            for _ in range(20):
                assert len(root.findall("i")) == 2000
                assert root.xpath("count(//i)") == 2000.0
                results.append(etree.tostring(root) == expected)
        except Exception as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and results == [True] * 80


def test_parsing_in_several_threads():
    documents = [("<d%d>" % n) * 200 + "t" + ("</d%d>" % n) * 200 for n in range(8)]
    found = [None] * 8

    def work(n):
        found[n] = etree.tostring(etree.fromstring(documents[n]), encoding="unicode")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == documents


def test_a_million_levels():
    depth = 1_000_000
    data = "<d>" * depth + "x" + "</d>" * depth
    root = etree.fromstring(data)
    assert root.getroottree().is_well_formed
    assert root.xpath("count(//d)") == float(depth)
    assert len(root.iter("d")) == depth
    assert list(root.itertext()) == ["x"]
    assert etree.tostring(root, encoding="unicode") == data
    deepest = root.iter("d")[-1]
    assert deepest.text == "x" and deepest.getparent().tag == "d"
    assert deepest.nsmap == {}


def test_the_readme_example():
    root = etree.fromstring(b"<p>AT&T and caf&nbsp;e<b>bold</p>")
    assert "".join(root.itertext()) == "AT&T and caf\u00a0ebold"
    assert [(e.line, e.column, e.code) for e in root.getroottree().error_log] == [
        (1, 6, "bare-ampersand"),
        (1, 16, "undeclared-entity"),
        (1, 30, "mismatched-end-tag"),
    ]
    assert etree.tostring(root) == b"<p>AT&amp;T and caf&#xA0;e<b>bold</b></p>"


def test_canonical_form_of_an_element_matches_lxml():
    data = b"<r xmlns='urn:r' xmlns:p='urn:p'><!--c--><p:e b='2' a='1'>t<f/></p:e></r>"
    ours, theirs = etree.fromstring(data), lxml_etree.fromstring(data)
    for options in ({}, {"exclusive": True}, {"with_comments": False}):
        assert etree.tostring(ours[1], method="c14n", **options) == lxml_etree.tostring(
            theirs[1], method="c14n", **options
        )
        assert etree.tostring(ours, method="c14n", **options) == lxml_etree.tostring(
            theirs, method="c14n", **options
        )
