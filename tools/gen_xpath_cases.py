#!/usr/bin/env python3
"""Generate the expected results of the XPath 1.0 conformance cases.

Run from the repository root:

    python3 tools/gen_xpath_cases.py            # regenerate every tests/xpath/cases/NAME.txt
    python3 tools/gen_xpath_cases.py atom-feed  # only the named file(s)
    python3 tools/gen_xpath_cases.py --check    # only check the format of every .txt
    cargo build --release --bin xml5dom && \
    python3 tools/gen_xpath_cases.py --compare-tree=target/release/xml5dom
        # every well-formed document parses without error in xml5dom, to the
        # tree libxml2 builds (the same `#document` dump); every node line of
        # the hand-written cases names a node of xml5dom's tree
    python3 tools/gen_xpath_cases.py --show-tree=target/release/xml5dom tests/xpath/documents/broken-feed.xml
        # the nodes of xml5dom's tree in node-line form, with their text

Needs Python 3 and lxml (written against lxml 6.1.x with libxml2 2.14.x).
The output is deterministic: running it twice gives identical files. It
finishes with the --check pass over every .txt, the hand-written ones too.

What it does
------------
For every `tests/xpath/cases/NAME.in` it parses `tests/xpath/documents/NAME.xml`
with lxml (`XMLParser(load_dtd=False, no_network=True, resolve_entities=True)`),
evaluates each expression with libxml2's XPath engine and writes
`tests/xpath/cases/NAME.txt` in the format of tests/xpath/README.md.

The entities of a document's internal subset are expanded (no DTD is read
from outside), as xml5dom expands them, and CDATA sections become text
(lxml's default `strip_cdata=True`). libxml2 then joins adjacent text as it
builds the tree (the text around an entity's markup, a CDATA section and
the text next to it), which is XPath 1.0's data model (section 5.7: no two
text nodes side by side). xml5dom's DOM may keep such text in several
nodes; its XPath sees each run as one text node, and --compare-tree joins
the runs of xml5dom's tree dump before comparing.

Files that have a `.txt` but no `.in` are hand-written (the malformed
documents, which libxml2 cannot load); they must start with the line
`# hand-written`. The generator never writes them, it only checks them.

Why libxml2 is called through ctypes and not through `tree.xpath()`
--------------------------------------------------------------------
lxml's `ElementTree.xpath()` does not evaluate with the document node as the
context node: it sets the context node to the ROOT ELEMENT (see
XPathDocumentEvaluator in lxml's xpath.pxi), so `tree.xpath('name()')` is the
root element's name. lxml also leaves the context position and size unset, so
a top-level `position()` or `last()` fails with "Invalid context position".
Our format says a case without a `context` line is evaluated at the document
node with position 1 and size 1 (XPath 1.0 §2, "the context is ... the
document"). So the expressions are evaluated by the very libxml2 that lxml
carries (its C symbols are exported from lxml/etree*.so), through ctypes, on
the document tree lxml parsed, with the context node, position and size set
as the format says. Struct layouts are those of libxml2 2.14's headers
(lxml ships them in lxml/includes/libxml).

Every case is cross-checked against lxml's own API: cases with a `context`
element are also run through `element.xpath(...)`, the result converted as
lxml returns it (smart strings with .getparent()/.is_tail/.attrname,
(prefix, uri) tuples for namespace nodes, the document node found by
comparing with `count(EXPR)` because lxml drops it) and asserted equal.
Cases at the document node, which lxml cannot evaluate there, are run by
both at the root element instead: that checks how the results are read from
libxml2's structures, not the answer. A mismatch stops the run (except that
lxml fails on a top-level position() or last()).

The `.in` format
----------------
Same header lines as the .txt (`ns ...`, `var ...`), then cases made of an
optional `context EXPR` line and an `expr EXPR` line. `#` comment lines and
blank lines are copied to the .txt, so the comments stay beside their case.

The expected result is always libxml2's (xml5dom answers as libxml2 does).
When libxml2's answer contradicts the XPath 1.0 recommendation, the case
records the answer the recommendation requires, right after its `expr` line:

    expect number nan
    (followed, for `expect nodeset N`, by N node lines as in the .txt)

The generator checks that libxml2 really gives something else (a stale
`expect` is an error) and writes the recommendation's answer as a comment
line starting with `# XPath 1.0 says:` above libxml2's.
"""

import ctypes
import json
import math
import os
import re
import sys

from lxml import etree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "tests", "xpath", "documents")
CASES = os.path.join(ROOT, "tests", "xpath", "cases")

LIBXML_VERSION = ".".join(map(str, etree.LIBXML_VERSION))
LXML_VERSION = ".".join(map(str, etree.LXML_VERSION))

# ---------------------------------------------------------------------------
# libxml2 through ctypes (the copy linked into lxml)
# ---------------------------------------------------------------------------

LIB = ctypes.CDLL(etree.__file__)
P = ctypes.c_void_p

XML_ELEMENT_NODE = 1
XML_ATTRIBUTE_NODE = 2
XML_TEXT_NODE = 3
XML_CDATA_SECTION_NODE = 4
XML_ENTITY_REF_NODE = 5
XML_PI_NODE = 7
XML_COMMENT_NODE = 8
XML_DOCUMENT_NODE = 9
XML_DTD_NODE = 14
XML_NAMESPACE_DECL = 18

# The node types that are XPath children (the DTD node is not one).
CHILD_TYPES = (XML_ELEMENT_NODE, XML_TEXT_NODE, XML_CDATA_SECTION_NODE,
               XML_PI_NODE, XML_COMMENT_NODE)


class XmlNode(ctypes.Structure):  # the head of xmlNode, xmlAttr and xmlDoc
    _fields_ = [("_private", P), ("type", ctypes.c_int), ("name", ctypes.c_char_p),
                ("children", P), ("last", P), ("parent", P), ("next", P),
                ("prev", P), ("doc", P), ("ns", P)]


class XmlNodeFull(ctypes.Structure):  # xmlNode (elements, text, comments, PIs)
    _fields_ = XmlNode._fields_ + [("content", ctypes.c_char_p), ("properties", P),
                                   ("nsDef", P)]


class XmlNs(ctypes.Structure):
    _fields_ = [("next", P), ("type", ctypes.c_int), ("href", ctypes.c_char_p),
                ("prefix", ctypes.c_char_p)]


class XmlNodeSet(ctypes.Structure):
    _fields_ = [("nodeNr", ctypes.c_int), ("nodeMax", ctypes.c_int),
                ("nodeTab", ctypes.POINTER(P))]


class XmlXPathObject(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("nodesetval", ctypes.POINTER(XmlNodeSet)),
                ("boolval", ctypes.c_int), ("floatval", ctypes.c_double),
                ("stringval", ctypes.c_char_p)]


class XmlXPathContext(ctypes.Structure):  # the head of it, up to proximityPosition
    _fields_ = [("doc", P), ("node", P),
                ("nb_variables_unused", ctypes.c_int), ("max_variables_unused", ctypes.c_int),
                ("varHash", P),
                ("nb_types", ctypes.c_int), ("max_types", ctypes.c_int), ("types", P),
                ("nb_funcs_unused", ctypes.c_int), ("max_funcs_unused", ctypes.c_int),
                ("funcHash", P),
                ("nb_axis", ctypes.c_int), ("max_axis", ctypes.c_int), ("axis", P),
                ("namespaces", P), ("nsNr", ctypes.c_int), ("user", P),
                ("contextSize", ctypes.c_int), ("proximityPosition", ctypes.c_int)]


class XmlError(ctypes.Structure):
    _fields_ = [("domain", ctypes.c_int), ("code", ctypes.c_int),
                ("message", ctypes.c_char_p), ("level", ctypes.c_int)]


CtxP = ctypes.POINTER(XmlXPathContext)
ObjP = ctypes.POINTER(XmlXPathObject)
ERROR_FUNC = ctypes.CFUNCTYPE(None, P, ctypes.POINTER(XmlError))

LIB.xmlXPathNewContext.restype = CtxP
LIB.xmlXPathNewContext.argtypes = [P]
LIB.xmlXPathFreeContext.argtypes = [CtxP]
LIB.xmlXPathEval.restype = ObjP
LIB.xmlXPathEval.argtypes = [ctypes.c_char_p, CtxP]
LIB.xmlXPathFreeObject.argtypes = [ObjP]
LIB.xmlXPathObjectCopy.restype = ObjP
LIB.xmlXPathObjectCopy.argtypes = [ObjP]
LIB.xmlXPathRegisterNs.argtypes = [CtxP, ctypes.c_char_p, ctypes.c_char_p]
LIB.xmlXPathRegisterVariable.argtypes = [CtxP, ctypes.c_char_p, ObjP]
LIB.xmlXPathNewFloat.restype = ObjP
LIB.xmlXPathNewFloat.argtypes = [ctypes.c_double]
LIB.xmlXPathNewString.restype = ObjP
LIB.xmlXPathNewString.argtypes = [ctypes.c_char_p]
LIB.xmlXPathNewBoolean.restype = ObjP
LIB.xmlXPathNewBoolean.argtypes = [ctypes.c_int]
LIB.xmlXPathSetErrorHandler.argtypes = [CtxP, ERROR_FUNC, P]

_errors = []


@ERROR_FUNC
def _on_error(_data, err):
    msg = err.contents.message
    _errors.append(msg.decode("utf-8", "replace").strip() if msg else "error")


def node_at(ptr):
    return XmlNode.from_address(ptr)


def doc_pointer(tree):
    """The xmlDoc* under an lxml ElementTree (read from the root's proxy:
    struct LxmlElement { PyObject_HEAD; _Document _doc; xmlNode *_c_node; })."""
    root = tree.getroot()
    c_node = P.from_address(id(root) + 2 * ctypes.sizeof(P) + ctypes.sizeof(P)).value
    n = node_at(c_node)
    assert n.type == XML_ELEMENT_NODE and n.name.decode() == etree.QName(root).localname
    d = node_at(n.doc)
    assert d.type == XML_DOCUMENT_NODE
    return n.doc


def root_element(docptr):
    ptr = node_at(docptr).children
    while node_at(ptr).type != XML_ELEMENT_NODE:
        ptr = node_at(ptr).next
    return ptr


def position(ptr):
    """1-based position of a node among its parent's XPath children."""
    i = 1
    prev = node_at(ptr).prev
    while prev:
        p = node_at(prev)
        if p.type in CHILD_TYPES:
            i += 1
        prev = p.prev
    return i


def node_path(ptr):
    steps = []
    while True:
        n = node_at(ptr)
        if n.type == XML_DOCUMENT_NODE:
            break
        assert n.type in CHILD_TYPES, n.type
        steps.append(position(ptr))
        ptr = n.parent
    return "/" + "/".join(str(s) for s in reversed(steps))


def qname(ptr):
    n = node_at(ptr)
    name = n.name.decode()
    if n.ns:
        prefix = XmlNs.from_address(n.ns).prefix
        if prefix:
            return prefix.decode() + ":" + name
    return name


def convert_node(ptr):
    n = node_at(ptr)
    t = n.type
    if t == XML_DOCUMENT_NODE:
        return ("root",)
    if t == XML_ELEMENT_NODE:
        return ("element", node_path(ptr), qname(ptr))
    if t in (XML_TEXT_NODE, XML_CDATA_SECTION_NODE):
        return ("text", node_path(ptr))
    if t == XML_COMMENT_NODE:
        return ("comment", node_path(ptr))
    if t == XML_PI_NODE:
        return ("pi", node_path(ptr), n.name.decode())
    if t == XML_ATTRIBUTE_NODE:
        name = n.name.decode()
        if n.ns:
            name = "{%s}%s" % (XmlNs.from_address(n.ns).href.decode(), name)
        return ("attribute", node_path(n.parent), name)
    if t == XML_NAMESPACE_DECL:
        ns = XmlNs.from_address(ptr)
        return ("namespace", ns.prefix.decode() if ns.prefix else "-", ns.href.decode())
    raise AssertionError("unexpected node type %d" % t)


def check_tree(docptr):
    """No entity references, no CDATA nodes (they are merged into text), no
    adjacent text nodes: the tree is XPath's data model, the tree xml5dom
    builds with its runs of adjacent text joined."""
    stack = [node_at(docptr).children]
    while stack:
        ptr = stack.pop()
        prev_text = False
        while ptr:
            n = node_at(ptr)
            assert n.type in CHILD_TYPES + (XML_DTD_NODE,), "node type %d" % n.type
            assert n.type != XML_CDATA_SECTION_NODE
            assert not (prev_text and n.type == XML_TEXT_NODE), "adjacent text nodes"
            prev_text = n.type == XML_TEXT_NODE
            if n.type == XML_ELEMENT_NODE and n.children:
                stack.append(n.children)
            ptr = n.next


XMLNS_URI = "http://www.w3.org/2000/xmlns/"
XML_URI = "http://www.w3.org/XML/1998/namespace"


def parser():
    """How every document is read: the internal subset's entities expanded,
    nothing fetched, CDATA as text."""
    return etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=True)


def join_text_runs(dump):
    """`xml5dom tree`'s dump with each run of adjacent text siblings made
    one text line, as XPath sees it and libxml2 builds it (xml5dom keeps the
    text of an entity with markup in it apart from the text around)."""
    items = []  # a node's lines; the lines after the first continue a text
    for line in dump.split("\n")[:-1]:
        if line.startswith("| ") or not items:
            items.append(line)
        else:
            items[-1] += "\n" + line
    out = []
    for item in items:
        body = item[2:].lstrip(" ")
        pad = item[:len(item) - len(body)]
        previous = out[-1] if out else ""
        if body.startswith('"') and previous.startswith(pad + '"'):
            # Text after text at the same depth: the next sibling.
            out[-1] = previous[:-1] + body[1:]
        else:
            out.append(item)
    return "\n".join(out) + "\n"


def xml5dom_tree(binary, path):
    """The tree xml5dom builds, runs of text joined (see join_text_runs)."""
    import subprocess
    dump = subprocess.run([binary, "tree", path], capture_output=True, check=True,
                          encoding="utf-8").stdout
    return join_text_runs(dump)


def tree_dump(tree, docptr):
    """libxml2's tree in the xml5lib `#document` format that `xml5dom tree`
    prints (see src/dom/dump.rs), to compare the two trees."""
    out = []
    info = tree.docinfo
    if info.doctype:
        line = "| <!DOCTYPE " + info.root_name
        if info.public_id or info.system_url:
            line += ' "%s" "%s"' % (info.public_id or "", info.system_url or "")
        out.append(line + ">")

    def text_of(ptr):
        s = []
        while ptr:
            n = XmlNodeFull.from_address(ptr)
            assert n.type == XML_TEXT_NODE
            s.append(n.content.decode())
            ptr = n.next
        return "".join(s)

    def walk(ptr, depth):
        pad = "| " + "  " * depth
        while ptr:
            n = XmlNodeFull.from_address(ptr)
            if n.type == XML_ELEMENT_NODE:
                name = qname(ptr)
                uri = XmlNs.from_address(n.ns).href.decode() if n.ns else None
                out.append(pad + "<" + ("{%s}" % uri if uri is not None else "") + name + ">")
                attrs = []
                d = n.nsDef
                while d:
                    ns = XmlNs.from_address(d)
                    prefix = ns.prefix.decode() if ns.prefix else None
                    local = prefix or "xmlns"
                    q = "xmlns:" + prefix if prefix else "xmlns"
                    attrs.append((local, q, "{%s}%s" % (XMLNS_URI, q), ns.href.decode()))
                    d = ns.next
                a = n.properties
                while a:
                    at = XmlNode.from_address(a)
                    local = at.name.decode()
                    q, printed = local, local
                    if at.ns:
                        ns = XmlNs.from_address(at.ns)
                        q = ns.prefix.decode() + ":" + local
                        printed = "{%s}%s" % (ns.href.decode(), q)
                    attrs.append((local, q, printed, text_of(at.children)))
                    a = at.next
                for local, q, printed, value in sorted(attrs):
                    out.append(pad + "  " + printed + '="' + value + '"')
                walk(n.children, depth + 1)
            elif n.type == XML_TEXT_NODE:
                out.append(pad + '"' + n.content.decode() + '"')
            elif n.type == XML_COMMENT_NODE:
                out.append(pad + "<!-- " + n.content.decode() + " -->")
            elif n.type == XML_PI_NODE:
                content = n.content.decode() if n.content else ""
                out.append(pad + "<?" + n.name.decode() + " " + content + "?>")
            ptr = n.next

    walk(node_at(docptr).children, 0)
    return "\n".join(out) + "\n"


def compare_with_xml5dom(binary):
    """Every well-formed document: xml5dom reports no parse error and builds
    the tree libxml2 builds."""
    import subprocess
    for f in sorted(os.listdir(DOCS)):
        path = os.path.join(DOCS, f)
        if not os.path.exists(os.path.join(CASES, f[:-4] + ".in")):
            continue  # hand-written: a malformed document
        tree = etree.parse(path, parser())
        mine = tree_dump(tree, doc_pointer(tree))
        # libxml2 reads a declaration of the xml prefix (with its own URI)
        # and keeps no nsDef for it; xml5dom keeps it as written. Neither is
        # an XPath node (the namespace axis has one xml node either way).
        xml_declaration = '{%s}xmlns:xml="%s"' % (XMLNS_URI, XML_URI)
        theirs = "".join(line for line in xml5dom_tree(binary, path).splitlines(True)
                         if line.strip("| \n") != xml_declaration)
        check = subprocess.run([binary, "check", path], capture_output=True, encoding="utf-8")
        assert check.returncode == 0, "xml5dom finds errors in %s:\n%s" % (f, check.stdout)
        if mine != theirs:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(
                mine.splitlines(True), theirs.splitlines(True), "libxml2", "xml5dom"))
            raise AssertionError("the trees of %s differ" % f)
        print("  %-28s same tree in libxml2 and xml5dom" % f)


def xml5dom_nodes(binary, path):
    """The nodes of the tree `xml5dom tree` prints, keyed by the node-line
    form of the .txt format: ("element", "/2/4", "item") and so on. Values
    are the node's text (string-value for text, comments, PIs and
    attributes). For the hand-written cases of the malformed documents.
    A run of adjacent text is one text node, as XPath sees it."""
    dump = xml5dom_tree(binary, path)
    # A node is a line starting with "| "; other lines continue a text.
    items = []
    for line in dump.split("\n")[:-1]:
        if line.startswith("| "):
            body = line[2:]
            depth = (len(body) - len(body.lstrip(" "))) // 2
            items.append([depth, body.lstrip(" ")])
        else:
            items[-1][1] += "\n" + line
    nodes = {}
    stack = []  # (depth, path, child count) of the open elements
    top = 0
    for depth, body in items:
        if body.startswith("<!DOCTYPE"):
            continue
        while stack and stack[-1][0] >= depth:
            stack.pop()
        attr = re.match(r'^(\{[^}]*\})?([^\s<"=]+)="(.*)"$', body, re.S)
        if attr and stack and stack[-1][0] == depth - 1 and not body.startswith('"'):
            uri, q, value = attr.groups()
            if uri == "{%s}" % XMLNS_URI:
                continue  # a namespace declaration, not an attribute
            local = q.split(":", 1)[-1]
            nodes[("attribute", stack[-1][1], (uri or "") + local)] = value
            continue
        if stack:
            stack[-1][2] += 1
            p = "%s/%d" % (stack[-1][1], stack[-1][2])
        else:
            top += 1
            p = "/%d" % top
        if body.startswith('"'):
            nodes[("text", p)] = body[1:-1]
        elif body.startswith("<!-- "):
            nodes[("comment", p)] = body[5:-4]
        elif body.startswith("<?"):
            target, _, data = body[2:-2].partition(" ")
            nodes[("pi", p, target)] = data
        else:
            m = re.match(r"^<(\{[^}]*\})?([^>]+)>$", body)
            nodes[("element", p, m.group(2))] = None
            stack.append([depth, p, 0])
    return nodes


def check_hand_written(binary):
    """Every node line of a hand-written .txt names a node of the tree
    xml5dom builds for its document."""
    for f in sorted(os.listdir(CASES)):
        base = f[:-4]
        if not f.endswith(".txt") or os.path.exists(os.path.join(CASES, base + ".in")):
            continue
        nodes = xml5dom_nodes(binary, os.path.join(DOCS, base + ".xml"))
        n = 0
        with open(os.path.join(CASES, f), encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if line.startswith("  ") and not line.startswith("  root") \
                        and not line.startswith("  namespace "):
                    key = tuple(line[2:].rstrip("\n").split(" "))
                    assert key in nodes, "%s:%d: no such node in xml5dom's tree: %s" % (f, i, line)
                    n += 1
        print("  %-28s %d node lines, all in xml5dom's tree" % (f, n))
        verify_hand_written(binary, base)


def read_cases(path):
    """The header bindings and the cases of a .txt: (ns, variables,
    [(line number, context, expr, result)])."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")[:-1]
    ns, variables, cases = [], [], []
    i, context, in_header = 0, None, True
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("#") or not line.strip():
            continue
        if in_header and parse_header_line(line, ns, variables):
            continue
        in_header = False
        if line.startswith("context "):
            context = line[len("context "):]
            continue
        expr, at = line[len("expr "):], i
        while lines[i].startswith("#"):
            i += 1
        result, i = parse_result_line(lines[i], lines, i + 1, "%s:%d" % (path, i + 1))
        cases.append((at, context, expr, result))
        context = None
    return ns, variables, cases


def verify_hand_written(binary, base):
    """A second opinion on the hand-written results of a malformed document:
    `xml5dom fmt` writes its tree as well-formed XML; when libxml2 builds the
    same tree from that, libxml2's answers on it must be the hand-written
    ones."""
    import subprocess
    import tempfile
    repaired = subprocess.run([binary, "fmt", os.path.join(DOCS, base + ".xml")],
                              capture_output=True, check=True).stdout
    with tempfile.NamedTemporaryFile(suffix=".xml") as tmp:
        tmp.write(repaired)
        tmp.flush()
        tree = etree.parse(tmp.name, parser())
        docptr = doc_pointer(tree)
        theirs = xml5dom_tree(binary, os.path.join(DOCS, base + ".xml"))
        assert tree_dump(tree, docptr) == theirs, base + ": the repaired document has another tree"
        ns, variables, cases = read_cases(os.path.join(CASES, base + ".txt"))
        ev = Evaluator(docptr, ns, variables)
        for at, context, expr, want in cases:
            node = ev.first_node(context) if context else docptr
            got = ev.evaluate(expr, node)
            assert same_result(got, want), "%s.txt:%d: %s: libxml2 on the repaired tree gives %r" \
                % (base, at, expr, got)
        print("  %-28s %d cases, libxml2 agrees on the tree `xml5dom fmt` writes"
              % (base + ".txt", len(cases)))


class Evaluator:
    def __init__(self, docptr, ns, variables):
        self.doc = docptr
        self.ns = ns
        self.variables = variables  # name -> ("number"|"string"|"boolean"|"nodeset", value)
        self.nodeset_vars = {}
        for name, (kind, value) in variables:
            if kind == "nodeset":
                res = self._eval_raw(value, docptr, with_vars=False)
                assert res is not None and res.contents.type == 1, "var %s: not a node-set" % name
                self.nodeset_vars[name] = res

    def _new_object(self, name, kind, value):
        if kind == "number":
            return LIB.xmlXPathNewFloat(value)
        if kind == "string":
            return LIB.xmlXPathNewString(value.encode())
        if kind == "boolean":
            return LIB.xmlXPathNewBoolean(1 if value else 0)
        return LIB.xmlXPathObjectCopy(self.nodeset_vars[name])

    def _eval_raw(self, expr, node, with_vars=True):
        ctx = LIB.xmlXPathNewContext(self.doc)
        LIB.xmlXPathSetErrorHandler(ctx, _on_error, None)
        c = ctx.contents
        c.node = node
        c.contextSize = 1
        c.proximityPosition = 1
        for prefix, uri in self.ns:
            LIB.xmlXPathRegisterNs(ctx, prefix.encode(), uri.encode())
        if with_vars:
            for name, (kind, value) in self.variables:
                LIB.xmlXPathRegisterVariable(ctx, name.encode(), self._new_object(name, kind, value))
        del _errors[:]
        res = LIB.xmlXPathEval(expr.encode(), ctx)
        LIB.xmlXPathFreeContext(ctx)
        return res if res else None

    def evaluate(self, expr, node):
        """Returns ("boolean", b) / ("number", f) / ("string", s) /
        ("nodeset", [node tuples]) / ("error", message)."""
        res = self._eval_raw(expr, node)
        if res is None:
            return ("error", _errors[0] if _errors else "error")
        assert not _errors, (expr, _errors)
        o = res.contents
        try:
            if o.type == 1:
                nodes = []
                if o.nodesetval:
                    s = o.nodesetval.contents
                    nodes = [convert_node(s.nodeTab[i]) for i in range(s.nodeNr)]
                return ("nodeset", nodes)
            if o.type == 2:
                return ("boolean", bool(o.boolval))
            if o.type == 3:
                return ("number", o.floatval)
            if o.type == 4:
                return ("string", o.stringval.decode("utf-8") if o.stringval else "")
            raise AssertionError("unexpected result type %d" % o.type)
        finally:
            LIB.xmlXPathFreeObject(res)

    def first_node(self, expr):
        res = self._eval_raw(expr, self.doc)
        assert res is not None, "context expression fails: " + expr
        o = res.contents
        assert o.type == 1 and o.nodesetval and o.nodesetval.contents.nodeNr > 0, \
            "context expression selects nothing: " + expr
        ptr = o.nodesetval.contents.nodeTab[0]
        LIB.xmlXPathFreeObject(res)
        assert node_at(ptr).type == XML_ELEMENT_NODE, "context is not an element: " + expr
        return ptr


# ---------------------------------------------------------------------------
# The same evaluation through lxml's API, for the cross-check
# ---------------------------------------------------------------------------

def lxml_path(el):
    """Path of an lxml element, comment or PI (count(preceding-sibling::node()))."""
    steps = []
    while el is not None:
        steps.append(int(el.xpath("count(preceding-sibling::node())")) + 1)
        el = el.getparent()
    return "/" + "/".join(str(s) for s in reversed(steps))


def lxml_node(item):
    if isinstance(item, tuple):
        prefix, uri = item
        return ("namespace", prefix if prefix is not None else "-", uri)
    if isinstance(item, etree._Comment):
        return ("comment", lxml_path(item))
    if isinstance(item, etree._ProcessingInstruction):
        return ("pi", lxml_path(item), item.target)
    if isinstance(item, etree._Element):
        q = etree.QName(item)
        name = (item.prefix + ":" + q.localname) if item.prefix else q.localname
        return ("element", lxml_path(item), name)
    if isinstance(item, str) and hasattr(item, "getparent"):
        parent = item.getparent()
        if item.is_attribute:
            return ("attribute", lxml_path(parent), item.attrname)
        if item.is_tail:
            path = lxml_path(parent)
            head, _, last = path.rpartition("/")
            return ("text", "%s/%d" % (head, int(last) + 1))
        assert item.is_text
        return ("text", lxml_path(parent) + "/1")
    raise AssertionError("unexpected lxml node %r" % (item,))


def lxml_evaluate(context_el, expr, ns, lxml_vars):
    try:
        r = context_el.xpath(expr, namespaces=dict(ns), **lxml_vars)
    except etree.XPathError as e:
        return ("error", str(e))
    if isinstance(r, bool):
        return ("boolean", r)
    if isinstance(r, float):
        return ("number", r)
    if isinstance(r, str):
        return ("string", str(r))
    assert isinstance(r, list)
    nodes = [lxml_node(x) for x in r]
    # lxml drops the document node; count() still sees it.
    c = context_el.xpath("count(%s)" % expr, namespaces=dict(ns), **lxml_vars)
    if c == len(r) + 1:
        nodes.insert(0, ("root",))
    else:
        assert c == len(r), (expr, c, len(r))
    return ("nodeset", nodes)


# ---------------------------------------------------------------------------
# Writing and reading the .txt format
# ---------------------------------------------------------------------------

def format_node(n):
    return "  " + " ".join(n)


def format_result(r):
    kind, value = r
    if kind == "boolean":
        return ["boolean " + ("true" if value else "false")]
    if kind == "number":
        return ["number " + repr(float(value))]
    if kind == "string":
        return ["string " + json.dumps(value, ensure_ascii=False)]
    if kind == "error":
        return ["error " + value]
    lines = ["nodeset %d" % len(value)]
    lines += [format_node(n) for n in value]
    return lines


def same_result(a, b):
    if a[0] != b[0]:
        return False
    if a[0] == "number":
        if math.isnan(a[1]) and math.isnan(b[1]):
            return True
        return a[1] == b[1] and math.copysign(1, a[1]) == math.copysign(1, b[1])
    if a[0] == "error":
        return True
    return a[1] == b[1]


NODE_LINE = re.compile(
    r"^  (root"
    r"|element (/[1-9][0-9]*)+ [^\s:]+(:[^\s:]+)?"
    r"|text (/[1-9][0-9]*)+"
    r"|comment (/[1-9][0-9]*)+"
    r"|pi (/[1-9][0-9]*)+ \S+"
    r"|attribute (/[1-9][0-9]*)+ (\{[^}\s]*\})?[^\s{}:]+"
    r"|namespace \S+ \S*)$")
NUMBER = re.compile(r"^(-?[0-9]+\.[0-9]+(e[+-][0-9]+)?|-?[0-9]\.?[0-9]*e[+-][0-9]+|inf|-inf|nan)$")
VAR = re.compile(r"^var [A-Za-z_][\w.-]* (number \S+|string \".*\"|boolean (true|false)|nodeset .+)$")


def parse_result_line(line, lines, i, where):
    """Parses one result (a result line and, for a node-set, its node lines).
    Returns (result, next index)."""
    kind, _, rest = line.partition(" ")
    if kind == "boolean":
        assert rest in ("true", "false"), where
        return ("boolean", rest == "true"), i
    if kind == "number":
        assert NUMBER.match(rest), where + ": bad number " + rest
        v = float(rest)
        assert repr(v) == rest, where + ": not repr(float): " + rest
        return ("number", v), i
    if kind == "string":
        v = json.loads(rest)
        assert isinstance(v, str) and json.dumps(v, ensure_ascii=False) == rest, where
        return ("string", v), i
    if kind == "error":
        assert rest, where
        return ("error", rest), i
    if kind == "nodeset":
        assert re.match(r"^(0|[1-9][0-9]*)$", rest), where
        n = int(rest)
        nodes = []
        for k in range(n):
            assert i + k < len(lines), where + ": node-set cut short"
            nl = lines[i + k]
            assert NODE_LINE.match(nl), "%s: bad node line %r" % (where, nl)
            nodes.append(tuple(nl[2:].split(" ")))
        return ("nodeset", nodes), i + n
    raise AssertionError(where + ": bad result line " + line)


def check_txt(path):
    """Checks a .txt against the format; returns its number of cases."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert text.endswith("\n") and "\r" not in text, path
    lines = text.split("\n")[:-1]
    name = os.path.basename(path)
    i, cases, in_header, context = 0, 0, True, None
    while i < len(lines):
        line = lines[i]
        where = "%s:%d" % (name, i + 1)
        i += 1
        if line.startswith("#") or not line.strip():
            continue
        if in_header and (line.startswith("ns ") or line.startswith("var ")):
            if line.startswith("ns "):
                parts = line.split(" ")
                assert len(parts) == 3 and parts[2], where
            else:
                assert VAR.match(line), where
                if " string " in line:
                    json.loads(line.split(" string ", 1)[1])
            continue
        in_header = False
        if line.startswith("context "):
            assert context is None and line[8:].strip(), where
            context = line
            continue
        assert line.startswith("expr ") and line[5:].strip(), where + ": expected expr: " + line
        while i < len(lines) and lines[i].startswith("#"):
            i += 1  # comments between expr and result (the libxml2 note)
        assert i < len(lines), where + ": no result"
        _, i = parse_result_line(lines[i], lines, i + 1, "%s:%d" % (name, i + 1))
        context = None
        cases += 1
    assert context is None, name + ": context without expr"
    return cases


def check_all():
    total = 0
    names = sorted(f for f in os.listdir(CASES) if f.endswith(".txt"))
    for f in names:
        path = os.path.join(CASES, f)
        base = f[:-4]
        assert os.path.exists(os.path.join(DOCS, base + ".xml")), "no document for " + f
        if not os.path.exists(os.path.join(CASES, base + ".in")):
            with open(path, encoding="utf-8") as fh:
                assert fh.readline() == "# hand-written\n", f + ": no .in and no '# hand-written' line"
        n = check_txt(path)
        print("  %-28s %4d cases" % (f, n))
        total += n
    for f in sorted(os.listdir(DOCS)):
        assert os.path.exists(os.path.join(CASES, f[:-4] + ".txt")), "no cases for " + f
    print("  %-28s %4d cases" % ("total", total))
    return total


# ---------------------------------------------------------------------------
# Generating
# ---------------------------------------------------------------------------

def parse_header_line(line, ns, variables):
    if line.startswith("ns "):
        _, prefix, uri = line.split(" ")
        ns.append((prefix, uri))
        return True
    if line.startswith("var "):
        _, name, kind, rest = line.split(" ", 3)
        if kind == "number":
            value = float(rest)
        elif kind == "string":
            value = json.loads(rest)
        elif kind == "boolean":
            assert rest in ("true", "false")
            value = rest == "true"
        else:
            assert kind == "nodeset"
            value = rest
        variables.append((name, (kind, value)))
        return True
    return False


SPEC_NUMBER = re.compile(r"^[ \t\r\n]*-?([0-9]+(\.[0-9]*)?|\.[0-9]+)[ \t\r\n]*$")
LITERAL = re.compile(r"'[^']*'|\"[^\"]*\"|[A-Za-z_][\w.-]*|([0-9]+(\.[0-9]*)?|\.[0-9]+)")


def spec_number(s):
    """XPath 1.0 string to number: the Number syntax, an optional minus,
    whitespace around; the nearest double (Python's float() rounds right)."""
    return float(s) if SPEC_NUMBER.match(s) else math.nan


def numeric_literals(expr):
    """The Number tokens of an expression (not inside string literals or names)."""
    return [m.group(1) for m in LITERAL.finditer(expr) if m.group(1)]


def number_hazards(ev, tree):
    """Strings in the document that libxml2 converts to a number other than
    the one XPath 1.0 gives (it reads exponents, and does not always round
    to the nearest double). Cases that convert them need an `expect`."""
    seen = set()
    hazards = []
    for s in tree.xpath("//text() | //@*"):
        s = str(s)
        if s in seen:
            continue
        seen.add(s)
        ev.variables.append(("__s", ("string", s)))
        got = ev.evaluate("number($__s)", ev.doc)
        ev.variables.pop()
        if not same_result(got, ("number", spec_number(s))):
            hazards.append((s, got[1], spec_number(s)))
    return hazards


def string_of_number(x):
    """XPath 1.0 section 4.2: the string of a number."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    if x == int(x):
        return str(int(x))
    from decimal import Decimal
    return format(Decimal(repr(x)), "f")


def generate(base):
    src = os.path.join(CASES, base + ".in")
    doc_file = os.path.join(DOCS, base + ".xml")
    tree = etree.parse(doc_file, parser())
    for el in tree.iter():
        assert not isinstance(el, etree._Entity), "entity reference in " + doc_file
    docptr = doc_pointer(tree)
    check_tree(docptr)

    with open(src, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()

    out = ["# Generated by tools/gen_xpath_cases.py from %s.in; do not edit." % base,
           "# Expected results: libxml2 %s (lxml %s) unless a case says otherwise."
           % (LIBXML_VERSION, LXML_VERSION)]
    ns, variables = [], []
    ev = None
    i, context = 0, None
    in_header = True
    stats = {"cases": 0, "checked": 0, "expect": 0}
    while i < len(lines):
        line = lines[i]
        where = "%s.in:%d" % (base, i + 1)
        i += 1
        if line.startswith("#") or not line.strip():
            if line.strip() or (out and out[-1] != ""):
                out.append(line.rstrip())
            continue
        if in_header and parse_header_line(line, ns, variables):
            out.append(line)
            continue
        if in_header:
            in_header = False
            ev = Evaluator(docptr, ns, variables)
            for s, got, want in number_hazards(ev, tree):
                print("    note: libxml2 converts %s to %r, XPath 1.0 to %r"
                      % (json.dumps(s, ensure_ascii=False), got, want))
            lxml_vars = {}
            for name, (kind, value) in variables:
                if kind == "nodeset":
                    lxml_vars[name] = tree.xpath(value, namespaces=dict(ns))
                else:
                    lxml_vars[name] = value
        if line.startswith("context "):
            assert context is None, where
            context = line[len("context "):]
            out.append(line)
            continue
        assert line.startswith("expr "), where + ": " + line
        expr = line[len("expr "):]
        node = ev.first_node(context) if context else docptr
        got = ev.evaluate(expr, node)

        expected = None
        if i < len(lines) and lines[i].startswith("expect "):
            expected, i = parse_result_line(lines[i][len("expect "):], lines, i + 1, where)
            expected = tuple(expected)
            assert not same_result(expected, got), \
                "%s: stale expect, libxml2 gives the expected result" % where
        else:
            # Two places where libxml2 is known to part from XPath 1.0; a case
            # that meets them needs an `expect`.
            for lit in numeric_literals(expr):
                r = ev.evaluate(lit, docptr)
                assert same_result(r, ("number", float(lit))), \
                    "%s: libxml2 reads the literal %s as %r" % (where, lit, r[1])
            m = re.match(r"^string\((.*)\)$", expr)
            if m and got[0] == "string":
                inner = ev.evaluate(m.group(1), node)
                if inner[0] == "number":
                    assert got[1] == string_of_number(inner[1]), \
                        "%s: libxml2 writes %r as %r" % (where, inner[1], got[1])
        # The cross-check with lxml's own API. With a context element, on
        # that element. Without one, lxml cannot evaluate at the document
        # node, so both evaluate at the root element instead: that checks
        # how the results are read from libxml2, not the case's answer.
        if context is not None:
            el = tree.xpath(context, namespaces=dict(ns))[0]
            mine_ctx, theirs = el, got
        else:
            mine_ctx = tree.getroot()
            theirs = ev.evaluate(expr, root_element(docptr))
        mine = lxml_evaluate(mine_ctx, expr, ns, lxml_vars)
        # lxml leaves the context position and size unset: a top-level
        # position() or last() fails there (and only there).
        if not (mine[0] == "error" and "Invalid context" in mine[1]):
            assert same_result(mine, theirs), "%s: lxml %r, ctypes %r" % (where, mine, theirs)
            stats["checked"] += 1
        out.append(line)
        # libxml2's answer is the expected one (xml5dom answers as libxml2
        # does); where XPath 1.0 says otherwise, a comment says what.
        if expected is not None:
            for k, l in enumerate(format_result(expected)):
                out.append("# XPath 1.0 says: " + l if k == 0 else "#   " + l)
            stats["expect"] += 1
        out.extend(format_result(got))
        out.append("")
        context = None
        stats["cases"] += 1
    while out and out[-1] == "":
        out.pop()
    assert context is None, base + ".in: context without expr"
    dst = os.path.join(CASES, base + ".txt")
    with open(dst, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")
    print("  %-28s %4d cases (%d cross-checked with lxml's API, %d where XPath 1.0 differs)"
          % (base + ".txt", stats["cases"], stats["checked"], stats["expect"]))


def main(argv):
    check_only = "--check" in argv
    names = [a for a in argv if not a.startswith("--")]
    for a in argv:
        if a.startswith("--compare-tree="):
            binary = a.split("=", 1)[1]
            print("comparing libxml2's trees with `xml5dom tree`")
            compare_with_xml5dom(binary)
            print("checking the node lines of the hand-written cases")
            check_hand_written(binary)
            return
        if a.startswith("--show-tree="):
            # The nodes of a document as xml5dom builds it, in node-line
            # form, to write hand-written cases with.
            for doc in names:
                for key, value in xml5dom_nodes(a.split("=", 1)[1], doc).items():
                    print("  " + " ".join(key) + ("" if value is None else "    " + json.dumps(value, ensure_ascii=False)))
            return
    if not check_only:
        if not names:
            names = sorted(f[:-3] for f in os.listdir(CASES) if f.endswith(".in"))
        print("generating with lxml %s, libxml2 %s" % (LXML_VERSION, LIBXML_VERSION))
        for base in names:
            generate(base)
    print("checking the format of every .txt")
    check_all()


if __name__ == "__main__":
    main(sys.argv[1:])
