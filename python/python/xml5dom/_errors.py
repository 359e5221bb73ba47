"""The exception classes, with lxml's names and bases.

They live in Python because ``XMLSyntaxError`` has two bases (lxml's error
hierarchy and Python's ``SyntaxError``), which the extension module raises
by name.
"""


class Error(Exception):
    """The base of the errors of xml5dom.etree (lxml's ``etree.Error``)."""


class LxmlError(Error):
    """lxml's ``LxmlError``: the base of the errors raised by the API."""


class LxmlSyntaxError(LxmlError, SyntaxError):
    """A syntax error in XML or in an expression."""


class ParseError(LxmlSyntaxError):
    """The input could not be parsed as asked."""


class XMLSyntaxError(ParseError):
    """Raised by ``recover=False`` at the input's first well-formedness error.

    ``lineno``, ``offset`` (the column), ``position`` (``(line, column)``),
    ``code`` (xml5dom's error code, e.g. ``bare-ampersand``), ``msg`` and
    ``error_log`` (every error and warning of the parse) say where and what.
    """


class XPathError(LxmlError):
    """The base of the XPath errors."""


class XPathEvalError(XPathError):
    """An XPath expression that could not be compiled or evaluated."""


class XMLRepairWarning(UserWarning):
    """Issued by ``tostring`` and ``ElementTree.write`` when the output had
    to differ from the source because XML cannot carry what the tree holds
    as the source has it (a broken input written back, or a subtree of
    one).

    ``error_log`` lists the repairs: each entry's ``code`` is the kind of
    repair (e.g. ``end-tag-added``), ``domain_name`` is ``OUTPUT``, and
    ``line``, ``column`` and ``offset`` say where in the source the node
    that needed it was. ``warnings.simplefilter("error", XMLRepairWarning)``
    makes such a write raise instead.
    """
