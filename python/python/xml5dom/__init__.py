"""xml5dom: load any XML, however broken, without losing a character.

``from xml5dom import etree`` gives the lxml/ElementTree API over xml5dom's
XML5 parser: recovery is always on, every repair is reported in
``error_log`` with its position, and an unedited document is written back
byte for byte.
"""

from . import etree

__all__ = ["etree"]
__version__ = "0.1.0"
