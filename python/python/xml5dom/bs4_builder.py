"""A BeautifulSoup tree builder over xml5dom's parser (issue 33).

``BeautifulSoup(markup, "xml5")`` parses ``markup`` with xml5dom (XML5
recovery: every character of a broken document kept) and hands the tree
to the soup with the calls bs4's own ``"xml"`` builder
(``LXMLTreeBuilderForXML``) makes, so namespaces, prefixes, attributes,
comments, processing instructions and the DOCTYPE come out as they do
there. This module owns that translation; parsing is ``xml5dom.etree``'s.

It imports bs4, so it is imported only when bs4 is installed:
``import xml5dom`` registers the builder as soon as bs4's builder registry
is imported (see ``xml5dom._register_bs4_builder``); docs/python.md, "The
BeautifulSoup builder", says what differs from ``"xml"`` and why.
"""

from bs4.builder import TreeBuilder, builder_registry
from bs4.element import (
    Comment,
    Doctype,
    NamespacedAttribute,
    XMLAttributeDict,
    XMLProcessingInstruction,
)

from . import etree

__all__ = ["XML5TreeBuilder"]

XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace"
XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/"


def _split_clark(name):
    """``(namespace, local name)`` of a Clark name (``{uri}local``)."""
    if name[:1] == "{" and "}" in name:
        namespace, local = name[1:].split("}", 1)
        return namespace, local
    return None, name


class XML5TreeBuilder(TreeBuilder):
    """Builds a soup from xml5dom's tree of the markup.

    Feature names: ``"xml5"`` and ``"xml5dom"``. It does not claim
    ``"xml"``, ``"fast"`` or ``"permissive"``: registering under those
    would change which builder ``BeautifulSoup(markup, "xml")`` picks.
    """

    NAME = "xml5"
    ALTERNATE_NAMES = ["xml5dom"]
    features = [NAME, *ALTERNATE_NAMES]
    is_xml = True
    processing_instruction_class = XMLProcessingInstruction

    def __init__(self, **kwargs):
        kwargs.setdefault("attribute_dict_class", XMLAttributeDict)
        super().__init__(**kwargs)
        self._reset_namespaces()

    def _reset_namespaces(self):
        # Inverted (URI to prefix) maps of the open elements that declared
        # namespaces, None for those that declared none; and the prefixes in
        # scope, as the "xml" builder keeps them.
        self.nsmaps = [{XML_NAMESPACE: "xml"}]
        self.active_namespace_prefixes = [{"xml": XML_NAMESPACE}]

    def initialize_soup(self, soup):
        super().initialize_soup(soup)
        self._register_namespaces({"xml": XML_NAMESPACE})

    def _register_namespaces(self, mapping):
        # The first URI a prefix is bound to is the one the soup's CSS
        # selectors use; the default namespace is not tracked (as "xml").
        for prefix, uri in mapping.items():
            if prefix and prefix not in self.soup._namespaces:
                self.soup._namespaces[prefix] = uri

    def prepare_markup(
        self,
        markup,
        user_specified_encoding=None,
        document_declared_encoding=None,
        exclude_encodings=None,
    ):
        # xml5dom reads the encoding itself (BOM, declaration, the user's
        # choice), so the markup goes through untouched, once.
        self._user_encoding = user_specified_encoding
        yield markup, None, document_declared_encoding, False

    def feed(self, markup):
        parser = etree.XMLParser(encoding=getattr(self, "_user_encoding", None))
        root = etree.fromstring(markup, parser)
        tree = root.getroottree() if root is not None else None
        if tree is None:
            return
        if isinstance(markup, bytes):
            self.soup.original_encoding = tree.docinfo.encoding.lower()
        before = list(root.itersiblings(preceding=True))
        before.reverse()
        doctype_at = self._doctype_position(tree, before)
        for at, node in enumerate(before):
            if at == doctype_at:
                self._doctype(tree.docinfo)
            self._leaf(node)
        if doctype_at == len(before):
            self._doctype(tree.docinfo)
        self._walk(root)
        for node in root.itersiblings():
            self._leaf(node)

    def close(self):
        self._reset_namespaces()

    @staticmethod
    def _doctype_position(tree, before):
        """How many of the comments and PIs before the root come before
        the DOCTYPE (None without one). The tree does not hold the DOCTYPE
        among the root's siblings, so their order is read from the
        document written out, only when there is something to order."""
        if tree.docinfo.root_name is None:
            return None
        if not before:
            return 0
        text = etree.tostring(tree, encoding="unicode")
        at, count = 0, 0
        if text.startswith("<?xml"):
            at = text.index("?>") + 2
        while True:
            at = text.index("<", at)
            if text.startswith("<!DOCTYPE", at):
                return count
            end = "-->" if text.startswith("<!--", at) else "?>"
            at = text.index(end, at) + len(end)
            count += 1

    def _doctype(self, info):
        self.soup.endData()
        name = info.root_name
        self.soup.handle_data(Doctype._string_for_name_and_ids(name, info.public_id, info.system_url))
        self.soup.endData(containerClass=Doctype)

    def _leaf(self, node):
        """A comment or a processing instruction, as "xml" hands them."""
        self.soup.endData()
        if node.tag is etree.Comment:
            self.soup.handle_data(node.text or "")
            self.soup.endData(Comment)
        elif node.tag is etree.ProcessingInstruction:
            self.soup.handle_data(node.target + " " + (node.text or ""))
            self.soup.endData(self.processing_instruction_class)

    def _walk(self, root):
        """Every node under ``root`` in document order, without recursion.

        Each element is taken out of its (already visited) parent before
        its ``nsmap`` is read: detached, its ``nsmap`` holds only its own
        declarations, in one step instead of a walk to the root, so the
        whole walk is linear whatever the depth. The tree is ours (parsed
        in ``feed``), so nothing the caller holds changes.
        """
        # Stack items: an element to open, or ("end", element, tail).
        stack = [root]
        while stack:
            item = stack.pop()
            if type(item) is tuple:
                _, element, tail = item
                self._end(element)
                if tail:
                    self.soup.handle_data(tail)
                continue
            parent = item.getparent()
            tail = item.tail if parent is not None else None
            if parent is not None:
                parent.remove(item)
            if item.tag is etree.Comment or item.tag is etree.ProcessingInstruction:
                self._leaf(item)
                if tail:
                    self.soup.handle_data(tail)
                continue
            self._start(item)
            if item.text:
                self.soup.handle_data(item.text)
            stack.append(("end", item, tail))
            children = list(item)
            children.reverse()
            stack.extend(children)

    def _prefix_for_namespace(self, namespace):
        if namespace is None:
            return None
        for inverted in reversed(self.nsmaps):
            if inverted is not None and namespace in inverted:
                return inverted[namespace]
        return None

    def _start(self, element):
        # Detached, the element's nsmap is its own declarations, last
        # first; lxml hands them in document order, the default under "".
        declared = {prefix or "": uri for prefix, uri in reversed(list(element.nsmap.items()))}
        attributes = self.attribute_dict_class()
        for name, value in element.attrib.items():
            attributes[name] = value
        if not declared:
            if len(self.nsmaps) > 1:
                self.nsmaps.append(None)
        else:
            self._register_namespaces(declared)
            self.nsmaps.append({uri: prefix for prefix, uri in declared.items()})
            in_scope = dict(self.active_namespace_prefixes[-1])
            in_scope.update(declared)
            in_scope.pop("", None)
            self.active_namespace_prefixes.append(in_scope)
            for prefix, uri in declared.items():
                attributes[NamespacedAttribute("xmlns", prefix, XMLNS_NAMESPACE)] = uri
        final = self.attribute_dict_class()
        for name, value in attributes.items():
            namespace, local = _split_clark(name)
            if namespace is None:
                final[name] = value
            else:
                prefix = self._prefix_for_namespace(namespace)
                final[NamespacedAttribute(prefix, local, namespace)] = value
        namespace, name = _split_clark(element.tag)
        self.soup.handle_starttag(
            name,
            namespace,
            self._prefix_for_namespace(namespace),
            final,
            sourceline=element.sourceline,
            namespaces=self.active_namespace_prefixes[-1],
        )

    def _end(self, element):
        self.soup.endData()
        namespace, name = _split_clark(element.tag)
        self.soup.handle_endtag(name, self._prefix_for_namespace(namespace))
        if len(self.nsmaps) > 1:
            if self.nsmaps.pop() is not None:
                self.active_namespace_prefixes.pop()

    def test_fragment_to_document(self, fragment):
        """See bs4's ``TreeBuilder``."""
        return '<?xml version="1.0" encoding="utf-8"?>\n%s' % fragment


builder_registry.register(XML5TreeBuilder)
