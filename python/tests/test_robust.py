"""Robustness (issue 32): deep and large documents, threads, and bad
arguments. Every call here either works or raises a clear Python
exception; a crash (a panic across into Python, a stack overflow) would
end the test run, and a RecursionError fails the test.

No timings are asserted: speed is measured in python/bench/.
"""

import gc
import io
import threading

import pytest
from lxml import etree as lxml_etree

from xml5dom import etree

DEPTH = 1_000_000


@pytest.fixture(scope="module")
def deep():
    """A million nested elements, the innermost holding text, every
    element holding an attribute."""
    data = '<d n="1">' * DEPTH + "core" + "</d>" * DEPTH
    return data, etree.fromstring(data)


def test_deep_parse_and_write(deep):
    data, root = deep
    tree = root.getroottree()
    assert tree.is_well_formed and len(tree.error_log) == 0
    assert etree.tostring(root, encoding="unicode") == data
    assert etree.tostring(tree) == data.encode("utf-8")
    canonical = etree.tostring(root, method="c14n")
    assert canonical.startswith(b'<d n="1"><d n="1">') and canonical.count(b"</d>") == DEPTH


def test_deep_iter_itertext_and_queries(deep):
    _, root = deep
    elements = root.iter()
    assert len(elements) == DEPTH
    assert list(root.itertext()) == ["core"]
    assert root.xpath("count(//d)") == float(DEPTH)
    assert root.xpath("string(//d[not(*)])") == "core"
    assert root.xpath("count(//d[not(*)]/ancestor::d)") == float(DEPTH - 1)
    assert len(root.findall(".//d")) == DEPTH - 1
    assert len(root.findall(".//d[@n='1']")) == DEPTH - 1
    assert root.findtext(".//d[last()]") == ""  # the first found holds no text of its own
    deepest = elements[-1]
    assert deepest.text == "core"
    assert deepest.find("..") is None  # ElementPath does not go above the context
    assert len(deepest.xpath("ancestor::*")) == DEPTH - 1


def test_deep_getparent_chain(deep):
    _, root = deep
    node = root.iter()[-1]
    steps = 0
    while node.getparent() is not None:
        node = node.getparent()
        steps += 1
    assert steps == DEPTH - 1 and node == root


def test_deep_unclosed_document_is_closed():
    data = "<d>" * DEPTH + "open"
    tree = etree.parse(io.BytesIO(data.encode("ascii")))
    assert not tree.is_well_formed
    assert [entry.code for entry in tree.error_log] == ["eof-in-element"]
    assert etree.tostring(tree, encoding="unicode") == data + "</d>" * DEPTH


def test_deep_tree_is_dropped_without_a_crash():
    data = "<d>" * DEPTH + "</d>" * DEPTH
    root = etree.fromstring(data)
    innermost = root.iter()[-1]
    del root
    gc.collect()
    # A proxy keeps the whole document alive.
    assert innermost.getparent().tag == "d"
    del innermost
    gc.collect()


def large_document(megabytes):
    """Records as a dump would hold them: an element per line with two
    attributes, text with a reference, every tenth with a child."""
    rows = []
    size = 0
    n = 0
    while size < megabytes * 1_000_000:
        child = f"<note>n{n}</note>" if n % 10 == 0 else ""
        row = f'<row id="{n}" kind="k{n % 7}">record {n} &amp; text{child}</row>\n'
        rows.append(row)
        size += len(row)
        n += 1
    return ("<dump>\n" + "".join(rows) + "</dump>\n").encode("ascii"), n


def test_large_document_parse_and_walk():
    data, rows = large_document(100)
    assert len(data) > 100_000_000
    root = etree.fromstring(data)
    assert root.getroottree().is_well_formed
    elements = attributes = notes = 0
    ampersands = 0
    for element in root.iter():
        elements += 1
        attributes += len(element.attrib)
        if element.tag == "note":
            notes += 1
        elif element.text:
            ampersands += element.text.count("&")
    assert elements == 1 + rows + notes
    assert notes == (rows + 9) // 10
    assert attributes == 2 * rows and ampersands == rows
    assert root[-1].get("id") == str(rows - 1)
    assert root.xpath("count(/dump/row)") == float(rows)
    del root
    gc.collect()


def test_utf8_bytes_are_the_source_not_a_copy():
    """UTF-8 bytes become the document's source as they are: the tree holds
    the bytes object (one reference more) until the last proxy goes, and
    reads it after the caller let go of it. Bytes read in another encoding
    are decoded into text of the document's own, and nothing is held."""
    import sys

    data = ("<a>" + "caf\u00e9 &amp; " * 1000 + "</a>").encode("utf-8")
    before = sys.getrefcount(data)
    root = etree.fromstring(data)
    assert sys.getrefcount(data) == before + 1
    expected = "caf\u00e9 & " * 1000
    copy = bytes(data)
    del data
    gc.collect()
    assert root.text == expected
    assert etree.tostring(root) == copy
    held = root.getroottree()
    del root
    gc.collect()
    assert held.getroot().text == expected
    for other in (
        b"<?xml version='1.0' encoding='iso-8859-1'?><a>caf\xe9</a>",  # not UTF-8
        b"<?xml version='1.0' encoding='iso-8859-1'?><a>cafe</a>",  # UTF-8, said Latin-1
        b"\xef\xbb\xbf<a>caf\xc3\xa9</a>",  # after a byte-order mark
    ):
        before = sys.getrefcount(other)
        root = etree.fromstring(other)
        assert sys.getrefcount(other) == before, other
        assert root.text in ("caf\u00e9", "cafe")
        assert etree.tostring(root.getroottree()) == other


# ----- Threads ---------------------------------------------------------------------


def run_threads(targets):
    failures = []

    def guarded(target):
        def run():
            try:
                target()
            except BaseException as error:  # reported by the assertion below
                failures.append(error)

        return run

    threads = [threading.Thread(target=guarded(t)) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_threads_parse_and_read_one_document():
    data = b"<feed>" + b"".join(b"<entry n='%d'><t>%d &amp; x</t></entry>" % (n, n) for n in range(3000)) + b"</feed>"
    shared = etree.fromstring(data)
    expected = lxml_etree.fromstring(data)
    want_texts = [t.text for t in expected.iter("t")]

    def reader():
        for _ in range(5):
            assert [t.text for t in shared.iter("t")] == want_texts
            assert shared.xpath("count(//entry)") == 3000.0
            assert shared.find("entry[@n='2999']/t").text == "2999 & x"
            assert etree.tostring(shared.getroottree()) == data

    def parser():
        for _ in range(5):
            own = etree.fromstring(data)
            assert [t.text for t in own.iter("t")] == want_texts

    run_threads([reader, reader, reader, parser, parser])


def test_a_thread_edits_while_others_read():
    root = etree.fromstring(b"<r><log/><fixed>" + b"<i>x</i>" * 500 + b"</fixed></r>")
    log, fixed = root[0], root[1]
    done = threading.Event()

    def writer():
        try:
            for n in range(1000):
                etree.SubElement(log, "line", {"n": str(n)})
                log.set("count", str(n + 1))
                fixed.text = "edit %d" % n
        finally:
            done.set()

    def reader():
        seen = 0
        while True:
            finished = done.is_set()  # one more pass after the writer is done
            lines = log.findall("line")
            # An edit is seen whole or not at all: the lines grow one by one,
            # in order, and the document written out is always well-formed.
            assert len(lines) >= seen
            seen = len(lines)
            assert [line.get("n") for line in lines] == [str(n) for n in range(seen)]
            assert len(fixed.findall("i")) == 500
            lxml_etree.fromstring(etree.tostring(root))
            if finished:
                assert seen == 1000
                break

    run_threads([writer, reader, reader])
    assert log.get("count") == "1000" and fixed.text == "edit 999"


# ----- Bad arguments ---------------------------------------------------------------

CLEAR = (TypeError, ValueError, SyntaxError, LookupError, OSError, etree.Error)


@pytest.fixture()
def nodes():
    root = etree.fromstring("<r xmlns:p='urn:p'><a k='v'>t</a><!--c--><?pi d?><p:b/></r>")
    return root, root.getroottree()


def bad_calls(root, tree):
    """(label, thunk) for wrong arguments to every public function and
    method."""
    a = root[0]
    wrong = [None, 42, 1.5, b"bytes", ["list"], {"k": "v"}, object()]
    calls = []
    for value in wrong:
        if not isinstance(value, (bytes,)) and value is not None:
            calls += [
                (f"fromstring({value!r})", lambda v=value: etree.fromstring(v)),
                (f"XML({value!r})", lambda v=value: etree.XML(v)),
            ]
        if value is not None and not isinstance(value, (str, bytes)):
            calls += [(f"parse({value!r})", lambda v=value: etree.parse(v))]
        if value is not None:
            calls += [
                (f"ElementTree({value!r})", lambda v=value: etree.ElementTree(v)),
                (f"tostring({value!r})", lambda v=value: etree.tostring(v)),
                (f"tostring(c14n, {value!r})", lambda v=value: etree.tostring(v, method="c14n")),
                (f"SubElement({value!r})", lambda v=value: etree.SubElement(v, "x")),
                (f"SubElement(tag={value!r})", lambda v=value: etree.SubElement(a, v)),
                (f"find({value!r})", lambda v=value: root.find(v)),
                (f"findall({value!r})", lambda v=value: root.findall(v)),
                (f"findtext({value!r})", lambda v=value: root.findtext(v)),
                (f"iterfind({value!r})", lambda v=value: list(root.iterfind(v))),
                (f"xpath({value!r})", lambda v=value: root.xpath(v)),
                (f"tree.find({value!r})", lambda v=value: tree.find(v)),
                (f"tree.findall({value!r})", lambda v=value: tree.findall(v)),
                (f"tree.xpath({value!r})", lambda v=value: tree.xpath(v)),
                (f"append({value!r})", lambda v=value: a.append(v)),
                (f"insert(0, {value!r})", lambda v=value: a.insert(0, v)),
                (f"remove({value!r})", lambda v=value: a.remove(v)),
                (f"extend([{value!r}])", lambda v=value: a.extend([v])),
                (f"set({value!r}, 'x')", lambda v=value: a.set(v, "x")),
                (f"set('x', {value!r})", lambda v=value: a.set("x", v)),
                (f"tree.write({value!r})", lambda v=value: tree.write(v)),
            ]
        if not isinstance(value, (int, slice)) or isinstance(value, bool):
            calls += [(f"root[{value!r}]", lambda v=value: root[v])]
        if not isinstance(value, (str, type(None))):
            calls += [
                (f"text = {value!r}", lambda v=value: setattr(a, "text", v)),
                (f"tail = {value!r}", lambda v=value: setattr(a, "tail", v)),
                (f"iter({value!r})", lambda v=value: root.iter(v)),
                (f"get({value!r})", lambda v=value: a.get(v)),
                (f"tostring(encoding={value!r})", lambda v=value: etree.tostring(root, encoding=v)),
            ]
        if value is not None and not isinstance(value, dict):
            calls += [(f"find(namespaces={value!r})", lambda v=value: root.find("a", namespaces=v))]
            calls += [(f"xpath(namespaces={value!r})", lambda v=value: root.xpath("a", namespaces=v))]
    calls += [
        ("insert('0', a)", lambda: root.insert("0", a[0] if len(a) else a)),
        ("xpath('///')", lambda: root.xpath("///")),
        ("xpath('count(')", lambda: root.xpath("count(")),
        ("xpath('nosuch()')", lambda: root.xpath("nosuch()")),
        ("xpath('$v')", lambda: root.xpath("$v")),
        ("xpath('q:a')", lambda: root.xpath("q:a")),
        ("xpath with a None prefix", lambda: root.xpath("x:a", namespaces={None: "urn:p"})),
        ("find('[')", lambda: root.find("[")),
        ("find('a[1')", lambda: root.find("a[1")),
        ("find('q:a')", lambda: root.find("q:a")),
        ("tostring(encoding='nope')", lambda: etree.tostring(root, encoding="nope")),
        ("tostring(method='nope')", lambda: etree.tostring(root, method="nope")),
        ("tostring(tree, encoding='nope')", lambda: etree.tostring(tree, encoding="nope")),
        ("set('1bad', 'x')", lambda: a.set("1bad", "x")),
        ("set('x', '\\x00')", lambda: a.set("x", "\x00")),
        ("text = '\\x01'", lambda: setattr(a, "text", "\x01")),
        ("SubElement(a, '')", lambda: etree.SubElement(a, "")),
        ("SubElement(a, 'a b')", lambda: etree.SubElement(a, "a b")),
        ("SubElement(a, '{}')", lambda: etree.SubElement(a, "{urn:x}")),
        ("append(root) (a cycle)", lambda: a.append(root)),
        ("append(self)", lambda: a.append(a)),
        ("insert(0, root)", lambda: a.insert(0, root)),
        ("remove(root)", lambda: a.remove(root)),
        ("root[5]", lambda: root[5]),
        ("parse(missing)", lambda: etree.parse("/nonexistent/xml5dom/missing.xml")),
        ("write(a directory)", lambda: tree.write("/")),
        ("fromstring(no root)", lambda: etree.fromstring("text only")),
        ("fromstring(recover=False)", lambda: etree.fromstring("<a>", recover=False)),
    ]
    return calls


def test_wrong_arguments_raise_a_clear_exception(nodes):
    root, tree = nodes
    before = etree.tostring(tree)
    quiet = []
    for label, call in bad_calls(root, tree):
        try:
            call()
        except CLEAR:
            continue
        except Exception as error:  # any other kind is not a clear refusal
            raise AssertionError(f"{label}: {type(error).__name__}: {error}") from error
        quiet.append(label)
    assert quiet == [], "accepted without an error"
    # A refused call changes nothing.
    assert etree.tostring(tree) == before


def test_removed_nodes_still_work_on_their_own(nodes):
    root, tree = nodes
    a = root[0]
    root.remove(a)
    assert a.getparent() is None and a.text == "t" and a.get("k") == "v"
    assert etree.tostring(a) == b"<a k='v'>t</a>"
    assert a.xpath("string(.)") == "t" and a.findtext(".") == "t"
    with pytest.raises(ValueError):
        root.remove(a)
    assert [e.tag for e in root.iter()][0] == "r" and "a" not in [e.tag for e in root.iter()]
    # Put back, it is where it is put.
    root.append(a)
    assert root[-1] == a
    lxml_etree.fromstring(etree.tostring(tree))


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe<\x00a\x00>\x00",  # UTF-16 LE, cut in the middle of the text
        b"\xfe\xff\x00<",
        b'<?xml version="1.0" encoding="bogus"?><a>x</a>',
        b'<?xml version="1.0" encoding="UTF-16"?><a>x</a>',
        b'<?xml version="1.0" encoding="Shift_JIS"?><a>\x82\xa0\xff</a>',
        b"<a>\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc</a>",
        b"\x00" * 64,
        bytes(range(256)),
        b"",
        b"\xef\xbb\xbf",
    ],
)
def test_bad_encodings_give_a_tree_and_a_log(data):
    tree = etree.parse(io.BytesIO(data))
    assert len(tree.error_log) > 0
    for entry in tree.error_log:
        assert entry.line >= 1 and entry.column >= 1 and entry.offset >= 0 and entry.code
    written = etree.tostring(tree)
    assert isinstance(written, bytes)
    again = etree.parse(io.BytesIO(written))
    assert etree.tostring(again) == written
