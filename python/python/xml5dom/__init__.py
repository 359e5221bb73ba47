"""xml5dom: load any XML, however broken, without losing a character.

``from xml5dom import etree`` gives the lxml/ElementTree API over xml5dom's
XML5 parser: recovery is always on, every repair is reported in
``error_log`` with its position, and an unedited document is written back
byte for byte.

With BeautifulSoup installed (``pip install xml5dom[bs4]``), ``import
xml5dom`` is all it takes for ``BeautifulSoup(markup, "xml5")``: the
builder (``xml5dom.bs4_builder``) is registered with bs4 when bs4's builder
registry is imported, before or after xml5dom, and bs4 is not imported
here (it costs more than ten times xml5dom's own import).
"""

import importlib.abc
import importlib.util
import sys

from . import etree

__all__ = ["etree"]
__version__ = "0.1.0"

_BS4_REGISTRY = "bs4.builder"


def _register_bs4_builder():
    """Registers the "xml5" builder with bs4 (imports xml5dom.bs4_builder)."""
    importlib.import_module(".bs4_builder", __name__)


class _RegisterWhenBs4Loads(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when ``bs4.builder`` is imported, wraps its
    loader so that the "xml5" builder is registered right after it runs,
    then steps aside."""

    def find_spec(self, fullname, path, target=None):
        if fullname != _BS4_REGISTRY:
            return None
        _remove_bs4_hook()
        spec = None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find else None
            if spec is not None:
                break
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader

        class _Loader(importlib.abc.Loader):
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                loader.exec_module(module)
                _register_bs4_builder()

        spec.loader = _Loader()
        return spec


_bs4_hook = _RegisterWhenBs4Loads()


def _remove_bs4_hook():
    if _bs4_hook in sys.meta_path:
        sys.meta_path.remove(_bs4_hook)


if _BS4_REGISTRY in sys.modules:
    _register_bs4_builder()
else:
    sys.meta_path.insert(0, _bs4_hook)
