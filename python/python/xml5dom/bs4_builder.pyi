"""Types of xml5dom.bs4_builder, the BeautifulSoup builder "xml5"."""

from typing import Any, ClassVar, List

from bs4.builder import TreeBuilder

class XML5TreeBuilder(TreeBuilder):
    NAME: ClassVar[str]
    ALTERNATE_NAMES: ClassVar[List[str]]
    features: ClassVar[List[str]]
    is_xml: ClassVar[bool]
    def __init__(self, **kwargs: Any) -> None: ...
    def feed(self, markup: Any) -> None: ...
