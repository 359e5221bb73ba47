#!/usr/bin/env python3
"""Generates the expected outputs of Exclusive XML Canonicalization 1.0,
Canonical XML 1.1 and document subsets with libxml2's own C14N code.

lxml offers neither Canonical XML 1.1 (its `method="c14n2"` is C14N 2.0) nor
canonicalization of an XPath node-set, so this script calls libxml2's C API
through ctypes: `xmlC14NDocDumpMemory(doc, nodes, mode, prefixes,
with_comments, &out)`, with `nodes` the node-set `xmlXPathEvalExpression`
gives (NULL for the whole document). Documents are parsed with entities
substituted (`XML_PARSE_NOENT`), as `tests/c14n/generate.py` does.

Run once, by hand, when inputs were added; the outputs are checked in and
tests/canonical.rs only reads them.

What it writes:

- `expected/NAME.{exc-c14n,exc-c14n-comments,c14n11,c14n11-comments}` for
  every `input/NAME.xml` (the whole document);
- `inclusive-ns/expected/NAME.{exc-c14n,exc-c14n-comments}` for every
  `inclusive-ns/NAME.xml`, with the InclusiveNamespaces PrefixList read from
  `inclusive-ns/NAME.prefixes` (prefixes separated by spaces or commas,
  `#default` for the default namespace);
- `subset/expected/NAME.FORM` for every `subset/NAME.xml` and each of the six
  forms (c14n, c14n-comments, exc-c14n, exc-c14n-comments, c14n11,
  c14n11-comments), the node-set being what the XPath expression in
  `subset/NAME.xpath` selects from the document (the prefix list of
  `subset/NAME.prefixes`, if there is one, applies to the exclusive forms).

Requirements: the system's libxml2 (Debian's libxml2; the library version
is printed). Usage: python3 tests/c14n/generate_libxml2.py
"""

import ctypes
import ctypes.util
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent

XML_PARSE_NOENT = 1 << 1
XML_PARSE_NONET = 1 << 11

# xmlC14NMode
MODES = {"c14n": 0, "exc-c14n": 1, "c14n11": 2}
FORMS = [
    ("c14n", "c14n", 0),
    ("c14n-comments", "c14n", 1),
    ("exc-c14n", "exc-c14n", 0),
    ("exc-c14n-comments", "exc-c14n", 1),
    ("c14n11", "c14n11", 0),
    ("c14n11-comments", "c14n11", 1),
]


class XPathObject(ctypes.Structure):
    # The first two members of xmlXPathObject: the type and the node-set.
    _fields_ = [("type", ctypes.c_int), ("nodesetval", ctypes.c_void_p)]


def load_libxml2():
    lib = ctypes.CDLL(ctypes.util.find_library("xml2") or "libxml2.so.2")
    lib.xmlReadFile.restype = ctypes.c_void_p
    lib.xmlReadFile.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
    lib.xmlFreeDoc.argtypes = [ctypes.c_void_p]
    lib.xmlXPathNewContext.restype = ctypes.c_void_p
    lib.xmlXPathNewContext.argtypes = [ctypes.c_void_p]
    lib.xmlXPathFreeContext.argtypes = [ctypes.c_void_p]
    lib.xmlXPathEvalExpression.restype = ctypes.POINTER(XPathObject)
    lib.xmlXPathEvalExpression.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    lib.xmlXPathFreeObject.argtypes = [ctypes.POINTER(XPathObject)]
    lib.xmlC14NDocDumpMemory.restype = ctypes.c_int
    lib.xmlC14NDocDumpMemory.argtypes = [
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_char_p),
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_void_p),
    ]
    lib.xmlParserVersion = ctypes.c_char_p.in_dll(lib, "xmlParserVersion")
    return lib


LIB = load_libxml2()
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p).in_dll(LIB, "xmlFree")


def prefix_list(text):
    """The prefixes of a `.prefixes` file, as the CLI's --inclusive-ns reads them."""
    return [p for p in re.split(r"[\s,]+", text.strip()) if p]


def canonicalize(path, mode, with_comments, prefixes=None, xpath=None):
    doc = LIB.xmlReadFile(str(path).encode(), None, XML_PARSE_NOENT | XML_PARSE_NONET)
    if not doc:
        raise RuntimeError(f"{path}: libxml2 could not parse it")
    context = result = None
    try:
        nodes = None
        if xpath is not None:
            context = LIB.xmlXPathNewContext(doc)
            result = LIB.xmlXPathEvalExpression(xpath.encode(), context)
            if not result or result.contents.type != 1:  # XPATH_NODESET
                raise RuntimeError(f"{path}: {xpath!r} is not a node-set")
            nodes = result.contents.nodesetval
        array = None
        if prefixes:
            array = (ctypes.c_char_p * (len(prefixes) + 1))(
                *[p.encode() for p in prefixes], None
            )
        out = ctypes.c_void_p()
        size = LIB.xmlC14NDocDumpMemory(
            doc, nodes, mode, array, with_comments, ctypes.byref(out)
        )
        if size < 0:
            raise RuntimeError(f"{path}: xmlC14NDocDumpMemory failed")
        data = ctypes.string_at(out, size) if out.value else b""
        if out.value:
            FREE(out)
        return data
    finally:
        if result:
            LIB.xmlXPathFreeObject(result)
        if context:
            LIB.xmlXPathFreeContext(context)
        LIB.xmlFreeDoc(doc)


def write(directory, name, form, data):
    directory.mkdir(exist_ok=True)
    (directory / f"{name}.{form}").write_bytes(data)


def main():
    print(f"libxml2 {LIB.xmlParserVersion.value.decode()}")
    failures = 0
    new_forms = [f for f in FORMS if f[0] not in ("c14n", "c14n-comments")]
    for path in sorted((HERE / "input").glob("*.xml")):
        for form, mode, comments in new_forms:
            try:
                data = canonicalize(path, MODES[mode], comments)
            except RuntimeError as error:
                print(error, file=sys.stderr)
                failures += 1
                continue
            write(HERE / "expected", path.stem, form, data)

    for path in sorted((HERE / "inclusive-ns").glob("*.xml")):
        prefixes = prefix_list(path.with_suffix(".prefixes").read_text())
        for form, mode, comments in FORMS:
            if mode != "exc-c14n":
                continue
            data = canonicalize(path, MODES[mode], comments, prefixes=prefixes)
            write(HERE / "inclusive-ns" / "expected", path.stem, form, data)

    for path in sorted((HERE / "subset").glob("*.xml")):
        xpath = path.with_suffix(".xpath").read_text().strip()
        prefixes_file = path.with_suffix(".prefixes")
        prefixes = prefix_list(prefixes_file.read_text()) if prefixes_file.exists() else None
        for form, mode, comments in FORMS:
            data = canonicalize(
                path,
                MODES[mode],
                comments,
                prefixes=prefixes if mode == "exc-c14n" else None,
                xpath=xpath,
            )
            write(HERE / "subset" / "expected", path.stem, form, data)
    if failures:
        sys.exit(f"{failures} output(s) failed")


if __name__ == "__main__":
    main()
