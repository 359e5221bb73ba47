"""Types of xml5dom.etree, the lxml.etree API."""

import os
from typing import IO, Any, Callable, Dict, Iterable, Iterator, List, Mapping, NoReturn, Optional, Tuple, Union

from ._errors import (
    Error as Error,
    LxmlError as LxmlError,
    LxmlSyntaxError as LxmlSyntaxError,
    ParseError as ParseError,
    XMLRepairWarning as XMLRepairWarning,
    XMLSyntaxError as XMLSyntaxError,
    XPathError as XPathError,
    XPathEvalError as XPathEvalError,
)
from ._xml5dom import DocInfo as DocInfo, _Attrib, _Element, _ElementTree, _ErrorLog

_Source = Union[str, bytes, os.PathLike, IO[Any]]

class XMLParser:
    encoding: Optional[str]
    recover: bool
    options: dict
    def __init__(
        self, encoding: Optional[str] = None, recover: bool = True, **options: Any
    ) -> None: ...

def fromstring(
    text: Union[str, bytes],
    parser: Optional[XMLParser] = None,
    *,
    base_url: Optional[str] = None,
    recover: Optional[bool] = None,
) -> _Element: ...
def XML(
    text: Union[str, bytes],
    parser: Optional[XMLParser] = None,
    *,
    base_url: Optional[str] = None,
    recover: Optional[bool] = None,
) -> _Element: ...
def parse(
    source: _Source,
    parser: Optional[XMLParser] = None,
    *,
    base_url: Optional[str] = None,
    recover: Optional[bool] = None,
) -> _ElementTree: ...
def ElementTree(
    element: Optional[_Element] = None,
    file: Optional[_Source] = None,
    parser: Optional[XMLParser] = None,
) -> _ElementTree: ...
_Attributes = Optional[Union[Mapping[str, str], _Attrib]]
_NamespaceMap = Optional[Dict[Optional[str], str]]

def Element(
    _tag: str,
    attrib: _Attributes = None,
    nsmap: _NamespaceMap = None,
    **_extra: str,
) -> _Element: ...
def SubElement(
    _parent: _Element,
    _tag: str,
    attrib: _Attributes = None,
    nsmap: _NamespaceMap = None,
    **_extra: str,
) -> _Element: ...
def iselement(element: Any) -> bool: ...
def tostring(
    element_or_tree: Union[_Element, _ElementTree],
    *,
    encoding: Any = None,
    method: str = "xml",
    xml_declaration: Optional[bool] = None,
    pretty_print: bool = False,
    with_tail: bool = True,
    standalone: Optional[bool] = None,
    doctype: Optional[str] = None,
    exclusive: bool = False,
    inclusive_ns_prefixes: Optional[Iterable[str]] = None,
    with_comments: bool = True,
    strip_text: bool = False,
) -> Union[bytes, str]: ...
def tostringlist(
    element_or_tree: Union[_Element, _ElementTree], *args: Any, **kwargs: Any
) -> List[Union[bytes, str]]: ...
def dump(elem: _Element, *, pretty_print: bool = True, with_tail: bool = True) -> None: ...
def canonicalize(
    xml_data: Union[str, bytes, _Element, _ElementTree, None] = None,
    *,
    out: Optional[IO[str]] = None,
    from_file: Optional[_Source] = None,
    with_comments: bool = False,
    strip_text: bool = False,
    rewrite_prefixes: bool = False,
    qname_aware_tags: Optional[Iterable[str]] = None,
    qname_aware_attrs: Optional[Iterable[str]] = None,
    exclude_attrs: Optional[Iterable[str]] = None,
    exclude_tags: Optional[Iterable[str]] = None,
) -> Optional[str]: ...
def Comment(text: Optional[str] = None) -> _Element: ...
def ProcessingInstruction(target: str, text: Optional[str] = None) -> _Element: ...

PI: Callable[..., _Element]

_Tag = Optional[Union[str, Iterable[str]]]
# ("start" | "end" | "comment" | "pi", element), ("start-ns", (prefix, uri)),
# ("end-ns", None), ("error", log entry)
_Event = Tuple[str, Any]

class iterparse(Iterator[_Event]):
    def __init__(
        self,
        source: _Source,
        events: Iterable[str] = ...,
        tag: _Tag = None,
        *,
        recover: bool = True,
        encoding: Optional[str] = None,
        **_options: Any,
    ) -> None: ...
    @property
    def root(self) -> Optional[_Element]: ...
    @property
    def error_log(self) -> _ErrorLog: ...
    def __iter__(self) -> Iterator[_Event]: ...
    def __next__(self) -> _Event: ...

class XMLPullParser:
    def __init__(
        self,
        events: Optional[Iterable[str]] = None,
        *,
        tag: _Tag = None,
        recover: bool = True,
        encoding: Optional[str] = None,
        **_options: Any,
    ) -> None: ...
    def feed(self, data: Union[str, bytes]) -> None: ...
    def read_events(self) -> Iterator[_Event]: ...
    def close(self) -> Optional[_Element]: ...
    @property
    def error_log(self) -> _ErrorLog: ...
