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

from . import _xml5dom
from ._errors import (
    Error,
    LxmlError,
    LxmlSyntaxError,
    ParseError,
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
    "XMLSyntaxError",
    "XPathError",
    "XPathEvalError",
    "ElementTree",
    "fromstring",
    "iselement",
    "parse",
    "tostring",
]

_Element = _xml5dom._Element
_ElementTree = _xml5dom._ElementTree
_Attrib = _xml5dom._Attrib
# As lxml's: `attrib` is a mutable mapping to isinstance().
collections.abc.MutableMapping.register(_Attrib)
DocInfo = _xml5dom.DocInfo


class XMLParser:
    """Parser options, as lxml's ``XMLParser``: only ``recover`` is read.

    xml5dom always recovers (``recover=True``, the default here); with
    ``recover=False`` a parse raises ``XMLSyntaxError`` at the first
    well-formedness error, as lxml's default parser does.
    """

    def __init__(self, recover=True, **options):
        self.recover = bool(recover)
        self.options = options


def _recover(parser, recover):
    if recover is not None:
        return bool(recover)
    if parser is not None:
        return bool(getattr(parser, "recover", True))
    return True


def _parse_tree(text, parser=None, recover=None):
    return _xml5dom._parse_text(text, _recover(parser, recover))


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
        return _xml5dom._parse_text(source.read(), recovering)
    if isinstance(source, (str, bytes, os.PathLike)):
        return _xml5dom._parse_file(os.fsdecode(source), recovering)
    raise TypeError(
        "cannot parse from %r: give a path or a file object" % type(source).__name__
    )


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


def tostring(
    element_or_tree,
    *,
    encoding=None,
    method="xml",
    xml_declaration=None,
    pretty_print=False,
    with_tail=True,
    exclusive=False,
    with_comments=True,
):
    """Serialize an element or a whole tree.

    ``method="c14n"`` writes Canonical XML 1.0 (``exclusive=True``: the
    Exclusive form; ``with_comments=False``: without comments) as UTF-8.

    ``encoding``: ``None`` (a tree in its own encoding, an element in
    UTF-8), an encoding label (bytes in it), or ``"unicode"``/``str`` (a
    ``str``). An unedited tree written with no encoding is the input, byte
    for byte. ``xml_declaration=True`` adds a declaration where there is
    none; ``False`` leaves the document's out.
    """
    if method == "c14n":
        if not isinstance(element_or_tree, (_Element, _ElementTree)):
            raise TypeError(
                "Type '%s' cannot be serialized." % type(element_or_tree).__name__
            )
        return element_or_tree._canonical(exclusive, with_comments)
    if method != "xml":
        raise ValueError("unsupported serialization method: %r" % (method,))
    if isinstance(element_or_tree, _ElementTree):
        return element_or_tree._serialize(encoding, pretty_print, xml_declaration)
    if isinstance(element_or_tree, _Element):
        return element_or_tree._serialize(
            encoding, pretty_print, xml_declaration, with_tail
        )
    raise TypeError(
        "Type '%s' cannot be serialized." % type(element_or_tree).__name__
    )


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
