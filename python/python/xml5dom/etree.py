"""The lxml.etree / ElementTree API over xml5dom.

``from xml5dom import etree`` in place of ``from lxml import etree``: the
same names for parsing, reading, querying and writing. What differs:

* Recovery is always on and keeps every character; ``recover=False`` (an
  argument of the parse functions, or ``XMLParser(recover=False)``) raises
  ``XMLSyntaxError`` at the first well-formedness error instead.
* ``error_log`` on a tree lists every error and warning of its parse with
  its line, column, byte offset, code, severity and message.
* ``tostring(tree)`` (and ``tree.write``) with no encoding writes the
  document in its own encoding, with its own XML declaration: an unedited
  document comes back byte for byte. ``tostring(element)`` with no encoding
  gives UTF-8 bytes (lxml gives ASCII with character references).

Threads: parsing and serializing release the GIL, and one document may be
read from several threads at once (the extension module's docs say how).
"""

import collections.abc
import os
import sys
import warnings

from . import _xml5dom
from ._errors import (
    Error,
    LxmlError,
    LxmlSyntaxError,
    ParseError,
    XMLRepairWarning,
    XMLSyntaxError,
    XPathError,
    XPathEvalError,
)

__all__ = [
    "Comment",
    "DocInfo",
    "Element",
    "Error",
    "LxmlError",
    "LxmlSyntaxError",
    "PI",
    "SubElement",
    "ParseError",
    "ProcessingInstruction",
    "XML",
    "XMLParser",
    "XMLPullParser",
    "XMLRepairWarning",
    "XMLSyntaxError",
    "XPathError",
    "XPathEvalError",
    "ElementTree",
    "canonicalize",
    "dump",
    "fromstring",
    "iselement",
    "iterparse",
    "parse",
    "tostring",
    "tostringlist",
]

_Element = _xml5dom._Element
_ElementTree = _xml5dom._ElementTree
_Attrib = _xml5dom._Attrib
# As lxml's: `attrib` is a mutable mapping to isinstance().
collections.abc.MutableMapping.register(_Attrib)
DocInfo = _xml5dom.DocInfo


class XMLParser:
    """Parser options, as lxml's ``XMLParser``: ``recover`` and
    ``encoding`` are read.

    xml5dom always recovers (``recover=True``, the default here); with
    ``recover=False`` a parse raises ``XMLSyntaxError`` at the first
    well-formedness error, as lxml's default parser does. ``encoding``
    names the encoding of bytes whatever they say of themselves (a file
    labelled UTF-8 that is really windows-1251); an unknown name raises
    ``LookupError``, as in lxml.
    """

    def __init__(self, encoding=None, recover=True, **options):
        if encoding is not None and not isinstance(encoding, str):
            raise TypeError("encoding must be a string or None")
        self.encoding = encoding
        self.recover = bool(recover)
        self.options = options


def _recover(parser, recover):
    if recover is not None:
        return bool(recover)
    if parser is not None:
        return bool(getattr(parser, "recover", True))
    return True


def _encoding(parser):
    return getattr(parser, "encoding", None) if parser is not None else None


def _parse_tree(text, parser=None, recover=None):
    return _xml5dom._parse_text(text, _recover(parser, recover), _encoding(parser))


def fromstring(text, parser=None, *, base_url=None, recover=None):
    """Parse ``text`` (``str``, or ``bytes`` in any encoding) and return
    its root element.

    Raises ``XMLSyntaxError`` if the document has no root element, or, with
    ``recover=False``, at the first well-formedness error.
    """
    tree = _parse_tree(text, parser, recover)
    root = tree.getroot()
    if root is None:
        error = XMLSyntaxError("Document is empty: no root element")
        error.error_log = tree.error_log
        raise error
    return root


def XML(text, parser=None, *, base_url=None, recover=None):
    """The same as ``fromstring``: parse ``text`` and return its root."""
    return fromstring(text, parser, base_url=base_url, recover=recover)


def parse(source, parser=None, *, base_url=None, recover=None):
    """Parse a file (a path, or an object with ``read()``) into an
    ``ElementTree``."""
    recovering = _recover(parser, recover)
    if hasattr(source, "read"):
        return _xml5dom._parse_text(source.read(), recovering, _encoding(parser))
    if isinstance(source, (str, bytes, os.PathLike)):
        return _xml5dom._parse_file(os.fsdecode(source), recovering, _encoding(parser))
    raise TypeError(
        "cannot parse from %r: give a path or a file object" % type(source).__name__
    )


# Streaming (issue 33): ``iterparse`` and ``XMLPullParser`` over the
# extension's ``_EventStream`` (python/src/stream.rs).


def _tags(tag):
    """``tag=`` as a list of patterns (or ``None``: every element)."""
    if tag is None:
        return None
    if isinstance(tag, (str, bytes)):
        tag = [tag]
    patterns = []
    for one in tag:
        if isinstance(one, bytes):
            one = one.decode("utf-8")
        if not isinstance(one, str):
            raise TypeError("tag must be a string or a sequence of strings")
        patterns.append(one)
    return patterns


def _stream(events, tag, recover, encoding=None):
    # The stream checks the event names (ValueError, as lxml).
    return _xml5dom._EventStream(list(events), _tags(tag), recover, encoding)


class iterparse:
    """Parses ``source`` (a path or a binary file object) as it reads it,
    handing out ``(event, value)`` pairs as lxml's ``iterparse`` does.

    ``events`` are lxml's: ``"start"`` and ``"end"`` (the element),
    ``"start-ns"`` (``(prefix, uri)``, ``""`` for the default namespace),
    ``"end-ns"`` (``None``), ``"comment"`` and ``"pi"`` (the node); and
    ``"error"``, ours: each parse error as it is met, in source order, as an
    entry of ``error_log`` (line, column, offset, code, message). ``tag``
    (a name, or a list of names; ``*`` wildcards) keeps the ``start`` and
    ``end`` events of the elements it names.

    The elements make one tree, built as the input is read; an element
    handed out at ``"end"`` is complete and may be cleared
    (``elem.clear()``, and its earlier siblings deleted) so that memory
    stays bounded whatever the input's size. Broken input is recovered as
    ``fromstring`` recovers it; ``recover=False`` raises ``XMLSyntaxError``
    at the first error. ``encoding`` names the encoding of the bytes,
    whatever they say of themselves. lxml's other parser options
    (``huge_tree``, ``resolve_entities``, ...) are accepted and have no
    effect: xml5dom has no size limit to lift and never fetches anything.
    """

    def __init__(
        self, source, events=("end",), tag=None, *, recover=True, encoding=None, **_options
    ):
        self._stream = _stream(events, tag, recover, encoding)
        if hasattr(source, "read"):
            self._stream.read_from(source, False)
        elif isinstance(source, (str, bytes, os.PathLike)):
            self._stream.read_from(open(os.fsdecode(source), "rb"), True)
        else:
            raise TypeError(
                "cannot parse from %r: give a path or a file object" % type(source).__name__
            )

    @property
    def root(self):
        """The root element, once the input is read (``None`` before, as
        in lxml)."""
        return self._stream.root

    @property
    def error_log(self):
        """Every error and warning so far, in source order."""
        return self._stream.error_log

    def __iter__(self):
        # The stream reads and hands out the events itself: no Python
        # frame per event.
        return self._stream

    def __next__(self):
        return next(self._stream)


class XMLPullParser:
    """A parser fed input in pieces, as lxml's ``XMLPullParser``:
    ``feed(data)`` as it arrives (``bytes``, or ``str``), ``read_events()``
    for the ``(event, value)`` pairs the input so far completed,
    ``close()`` at the end (it returns the root element). ``events`` and
    ``tag`` are ``iterparse``'s (``("end",)`` by default). Broken input is
    recovered; ``recover=False`` raises ``XMLSyntaxError`` at the first
    error; ``encoding`` is ``iterparse``'s. After ``close()``, ``feed``
    starts a new document.
    """

    def __init__(self, events=None, *, tag=None, recover=True, encoding=None, **_options):
        events = ("end",) if events is None else tuple(events)
        self._arguments = (events, tag, recover, encoding)
        self._stream = _stream(*self._arguments)
        self._closed = False

    def feed(self, data):
        """Parses the next piece of the input."""
        if self._closed:
            self._stream = _stream(*self._arguments)
            self._closed = False
        self._stream.feed(data)

    def read_events(self):
        """The events the input so far completed, each handed out once."""
        stream = self._stream
        while True:
            event = stream.next_event()
            if event is None:
                return
            yield event

    def close(self):
        """Ends the input (what it leaves open is closed) and returns the
        root element (``None`` if there is none)."""
        self._stream.close()
        self._closed = True
        return self._stream.root_element()

    @property
    def error_log(self):
        """Every error and warning so far, in source order."""
        return self._stream.error_log


def ElementTree(element=None, file=None, parser=None):
    """The tree of ``element``, or the tree parsed from ``file``; with
    neither, a tree with no root element."""
    if file is not None:
        return parse(file, parser)
    if element is None:
        return _xml5dom._parse_text(b"", True)
    if not isinstance(element, _Element):
        raise TypeError("expected an element, got %r" % type(element).__name__)
    return element.getroottree()


Element = _xml5dom.Element
SubElement = _xml5dom.SubElement


def iselement(element):
    """Whether ``element`` is an element (or comment, or processing
    instruction) of an xml5dom tree."""
    return isinstance(element, _Element)


_TEXT_ENCODINGS = ("UNICODE",)
_DECLARATION_FREE = ("ASCII", "US-ASCII", "UTF-8", "UTF8")


def _is_text(encoding):
    return encoding is str or (
        isinstance(encoding, str) and encoding.upper() in _TEXT_ENCODINGS
    )


def _report_repairs(repairs):
    """A write that had to change what the tree holds says so: an
    ``XMLRepairWarning`` carrying the repairs as an error log."""
    if len(repairs):
        count = len(repairs)
        warning = XMLRepairWarning(
            "the output differs from the tree in %d place%s: %s"
            % (count, "" if count == 1 else "s", repairs[0].message)
        )
        warning.error_log = repairs
        warnings.warn(warning, stacklevel=3)


def _check_serializable(element_or_tree):
    if not isinstance(element_or_tree, (_Element, _ElementTree)):
        raise TypeError(
            "Type '%s' cannot be serialized." % type(element_or_tree).__name__
        )


def tostring(
    element_or_tree,
    *,
    encoding=None,
    method="xml",
    xml_declaration=None,
    pretty_print=False,
    with_tail=True,
    standalone=None,
    doctype=None,
    exclusive=False,
    inclusive_ns_prefixes=None,
    with_comments=True,
    strip_text=False,
):
    """Serialize an element or a whole tree.

    ``method``: ``"xml"`` (the default), ``"text"`` (the text content, and
    the tail with ``with_tail``), ``"c14n"`` (Canonical XML 1.0;
    ``exclusive=True``: the Exclusive form; ``with_comments=False``:
    without comments) or ``"c14n2"`` (Canonical XML 2.0; ``with_comments``,
    ``strip_text``), both as UTF-8 bytes. ``"html"`` raises ``ValueError``.

    ``encoding``: ``None`` (a tree in its own encoding, an element in
    UTF-8), an encoding label (bytes in it), or ``"unicode"``/``str`` (a
    ``str``). An unedited tree written with no encoding is the input, byte
    for byte; an edited one has only its edits written anew.
    ``xml_declaration=True`` adds a declaration where there is none,
    ``False`` leaves the document's out; an element gets one by default
    when the encoding is neither UTF-8 nor ASCII, as in lxml.
    ``standalone`` writes a declaration saying it; ``doctype`` is written
    as given before the tree. ``pretty_print`` indents element-only
    content (a subtree as a tree).

    Where XML cannot carry what the tree holds as the source has it (a
    broken input written back), the output is repaired and an
    ``XMLRepairWarning`` lists the repairs in its ``error_log``.
    """
    _check_serializable(element_or_tree)
    is_tree = isinstance(element_or_tree, _ElementTree)
    if method in ("c14n", "c14n2"):
        if encoding is not None:
            raise ValueError("Cannot specify encoding with C14N")
        if xml_declaration:
            raise ValueError("Cannot enable XML declaration in C14N")
        if method == "c14n":
            if inclusive_ns_prefixes:
                raise NotImplementedError(
                    "inclusive_ns_prefixes is not supported yet"
                )
            return element_or_tree._canonical(exclusive, with_comments)
        return element_or_tree._c14n2(with_comments, strip_text)
    if method == "text":
        text = element_or_tree._text() if is_tree else element_or_tree._text(with_tail)
        if _is_text(encoding):
            return text
        return text.encode(encoding or "utf-8")
    if method == "html":
        raise ValueError(
            "method='html' is not supported: xml5dom writes XML "
            "(use method='xml', 'text', 'c14n' or 'c14n2')"
        )
    if method != "xml":
        raise ValueError("unknown output method %r" % (method,))
    if is_tree:
        data, repairs = element_or_tree._serialize(
            encoding, pretty_print, xml_declaration, standalone, doctype
        )
    else:
        if xml_declaration is None:
            xml_declaration = standalone is not None or (
                encoding is not None
                and not _is_text(encoding)
                and str(encoding).upper() not in _DECLARATION_FREE
            )
        data, repairs = element_or_tree._serialize(
            encoding,
            pretty_print,
            bool(xml_declaration),
            with_tail,
            standalone,
            doctype,
        )
    _report_repairs(repairs)
    return data


def tostringlist(element_or_tree, *args, **kwargs):
    """``tostring``'s output as a list of one string, as lxml's."""
    return [tostring(element_or_tree, *args, **kwargs)]


def dump(elem, *, pretty_print=True, with_tail=True):
    """Writes an element to ``sys.stdout``, as lxml's ``dump`` (for
    debugging): pretty printed, and ending with a line break."""
    if not isinstance(elem, _Element):
        raise TypeError("dump() needs an element, got %r" % type(elem).__name__)
    text = tostring(
        elem, encoding="unicode", pretty_print=pretty_print, with_tail=with_tail
    )
    if not text.endswith("\n"):
        text += "\n"
    sys.stdout.write(text)


def canonicalize(
    xml_data=None,
    *,
    out=None,
    from_file=None,
    with_comments=False,
    strip_text=False,
    rewrite_prefixes=False,
    qname_aware_tags=None,
    qname_aware_attrs=None,
    exclude_attrs=None,
    exclude_tags=None,
):
    """Canonical XML 2.0 of ``xml_data`` (a ``str`` or ``bytes`` of XML, an
    element or a tree) or of the file ``from_file``, as lxml's
    ``canonicalize``: a ``str``, or written to ``out`` (an object with
    ``write()``) and ``None`` returned.

    ``with_comments``, ``strip_text`` (text stripped of surrounding
    whitespace), ``rewrite_prefixes`` (prefixes renamed ``n0``, ``n1``,
    ... in order of first use) and ``qname_aware_tags`` /
    ``qname_aware_attrs`` (names, ``{uri}local`` or ``local``, of the
    elements and attributes whose content is a QName, whose prefix then
    counts as used and is rewritten too); ``exclude_tags`` (elements left
    out with their content, not their tail) and ``exclude_attrs``
    (attributes left out), names as for the QName-aware ones.
    """
    if (xml_data is None) == (from_file is None):
        raise ValueError("Either 'xml_data' or 'from_file' must be provided")
    if from_file is not None:
        source = parse(from_file)
    elif isinstance(xml_data, (_Element, _ElementTree)):
        source = xml_data
    else:
        source = _parse_tree(xml_data)
    data = source._c14n2(
        with_comments,
        strip_text,
        rewrite_prefixes,
        qname_aware_tags,
        qname_aware_attrs,
        exclude_tags,
        exclude_attrs,
    ).decode("utf-8")
    if out is not None:
        out.write(data)
        return None
    return data


def Comment(text=None):
    """A new comment holding ``text``, alone in a new document (append it
    where it goes). It is also the ``tag`` of comments, as in lxml
    (``node.tag is Comment``). Text a comment cannot hold (``--``, a
    trailing ``-``) raises ``ValueError`` where it lands.
    """
    return _xml5dom._new_comment(text)


def ProcessingInstruction(target, text=None):
    """A new processing instruction ``<?target text?>``, alone in a new
    document. It is also the ``tag`` of processing instructions, as in
    lxml. A bad target (not a name, ``xml``) or text holding ``?>`` raises
    ``ValueError``.
    """
    return _xml5dom._new_pi(target, text)


PI = ProcessingInstruction
