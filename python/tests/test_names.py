"""Names read through the proxies (`tag`, attribute names) stay right
whatever the extension's cache of name strings holds: past its size bound,
past its longest cached name, across documents and namespaces, and for
comments and processing instructions. lxml is the oracle."""

from lxml import etree as lxml_etree

from xml5dom import etree


def names(root):
    return [(e.tag, e.items()) for e in root.iter()]


def test_more_distinct_names_than_the_cache_holds():
    # 5000 element names and as many attribute names in two namespaces:
    # the cache (4096 names) starts over at least once on the way.
    children = "".join(
        '<n{i} a{i}="{i}"/><p:n{i} p:a{i}="{i}"/>'.format(i=i) for i in range(5000)
    )
    text = '<root xmlns:p="urn:p">%s</root>' % children
    ours, theirs = etree.fromstring(text), lxml_etree.fromstring(text)
    assert names(ours) == names(theirs)
    # A second walk reads the names from the cache as it stands.
    assert names(ours) == names(theirs)


def test_long_names_and_the_same_name_in_several_namespaces():
    long = "x" * 300
    text = (
        '<r xmlns:a="urn:a" xmlns:b="urn:b">'
        '<{long} {long}="1"/><a:{long} a:{long}="2"/><b:{long}/>'
        '<a:n/><b:n/><n/><a:n/>'
        "</r>"
    ).format(long=long)
    ours, theirs = etree.fromstring(text), lxml_etree.fromstring(text)
    assert names(ours) == names(theirs)


def test_names_across_documents():
    first = etree.fromstring('<a xmlns="urn:one"><b c="1"/></a>')
    second = etree.fromstring('<a xmlns="urn:two"><b c="2"/></a>')
    assert [e.tag for e in first.iter()] == ["{urn:one}a", "{urn:one}b"]
    assert [e.tag for e in second.iter()] == ["{urn:two}a", "{urn:two}b"]
    assert first[0].items() == [("c", "1")]
    assert second[0].items() == [("c", "2")]


def test_comment_and_instruction_tags_are_the_factories():
    root = etree.fromstring("<r><!--c--><?pi data?><e/><!--d--></r>")
    tags = [e.tag for e in root.iter()]
    assert tags == ["r", etree.Comment, etree.ProcessingInstruction, "e", etree.Comment]
    assert [e.items() for e in root] == [[], [], [], []]
