//! Layer 7: fragment parsing, markup parsed with the XML5 rules as the
//! content of an element of a document, in that element's namespace
//! scope, and inserted there.
//!
//! The tree builder starts in its main phase, as if inside the root
//! element, with the element's namespace bindings in scope and nothing of
//! its own open: an unclosed tag is closed at the end of the fragment, an
//! end tag that matches nothing the fragment opened is stray (reported and
//! dropped), so nothing in the fragment can close or change the element or
//! its ancestors. Its nodes are then copied into the document as
//! [`Document::import`] copies, and land checked like nodes created by an
//! edit (docs/editing.md). Linear in the fragment; nothing recurses.
//!
//! The entry points are methods of the DOM's types defined here, beside
//! the parse driver, since the DOM knows nothing of parsing:
//! [`Document::parse_fragment`], [`Document::append_fragment`],
//! [`Document::insert_fragment_before`] and, on a handle,
//! [`NodeMut::append_fragment`].
//!
//! ```
//! use xml5dom::Document;
//! let mut doc = Document::parse("<list xmlns:x='urn:x'><item id='1'>old</item></list>");
//! let list = doc.root_element().unwrap().id();
//! let added = doc.append_fragment(list, "<item id=3>new</item> & <x:b>x")?;
//! assert_eq!(added.nodes.len(), 3);
//! let codes: Vec<_> = added.errors.iter().map(|e| (e.code.as_str(), e.offset)).collect();
//! assert_eq!(codes, [
//!     ("unquoted-attribute-value", 9),
//!     ("bare-ampersand", 22),
//!     ("eof-in-element", 30),
//! ]);
//! assert_eq!(
//!     doc.to_xml(),
//!     "<list xmlns:x='urn:x'><item id='1'>old</item><item id=\"3\">new</item> &amp; <x:b>x</x:b></list>"
//! );
//! # Ok::<(), xml5dom::Error>(())
//! ```

use crate::decoding::ParseOptions;
use crate::dom::{Document, NodeId, NodeMut};
use crate::error::{Error, ParseError};
use crate::tree_builder::FragmentDtd;

/// What [`Document::append_fragment`] and its kin made: the new nodes (the
/// fragment's top level, in order) and the fragment's parse errors, with
/// offsets into the fragment's text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fragment {
    /// The nodes made, in order.
    pub nodes: Vec<NodeId>,
    /// The fragment's parse errors, in order, at offsets (and lines and
    /// columns) of the fragment's text.
    pub errors: Vec<ParseError>,
}

impl Document {
    /// Parses `text` with the XML5 rules as content of the element
    /// `context`, in its namespace scope, into detached nodes of this
    /// document (to insert where you like). See the [module
    /// docs](crate::fragment) for the rules.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a xmlns='urn:d' xmlns:p='urn:p'/>");
    /// let a = doc.root_element().unwrap().id();
    /// let parsed = doc.parse_fragment(a, "<b/><p:c>")?;
    /// let b = doc.node(parsed.nodes[0]).unwrap();
    /// assert_eq!((b.namespace(), b.parent()), (Some("urn:d"), None));
    /// assert_eq!(doc.node(parsed.nodes[1]).unwrap().namespace(), Some("urn:p"));
    /// assert_eq!(parsed.errors[0].code.as_str(), "eof-in-element");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn parse_fragment(&mut self, context: NodeId, text: &str) -> Result<Fragment, Error> {
        let element = self
            .node(context)
            .ok_or_else(|| Error::InvalidEdit("the node was removed".into()))?;
        if !element.is_element() {
            return Err(Error::InvalidEdit(
                "a fragment is the content of an element".into(),
            ));
        }
        let bindings = self.scope_at(context);
        // While the DOCTYPE is there, its entities and defaults apply.
        let doctype = self.root().children().find(|n| n.is_doctype());
        let declaration = self.xml_declaration();
        let dtd = doctype.map(|doctype| FragmentDtd {
            subset: doctype.internal_subset().unwrap_or(""),
            name: doctype.name(),
            external: doctype.system_id().is_some(),
            xml11: declaration.is_some_and(|d| d.version.as_deref() == Some("1.1")),
            standalone: declaration.is_some_and(|d| d.standalone.as_deref() == Some("yes")),
        });
        let parsed = crate::parse::build_fragment(text, &bindings, dtd, &ParseOptions::default());
        let mut nodes = Vec::new();
        let top: Vec<NodeId> = parsed
            .root_element()
            .map(|holder| holder.children().map(|n| n.id()).collect())
            .unwrap_or_default();
        for node in top {
            match self.import_fragment_node(&parsed, node) {
                Ok(copy) => nodes.push(copy),
                Err(error) => {
                    self.remove_all(&nodes);
                    return Err(error);
                }
            }
        }
        Ok(Fragment {
            nodes,
            errors: parsed.errors().to_vec(),
        })
    }

    /// Parses `text` as content of the element `parent` (see
    /// [`parse_fragment`](Self::parse_fragment)) and appends the nodes it
    /// makes. If one of them may not go there (see docs/editing.md: a
    /// prefix bound to nothing, text XML cannot carry), none is inserted.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><b/></a>");
    /// let a = doc.root_element().unwrap().id();
    /// // The stray `</a>` does not close <a>: it is dropped.
    /// let added = doc.append_fragment(a, "<c>x</a>y")?;
    /// assert_eq!(added.errors[0].code.as_str(), "stray-end-tag");
    /// assert_eq!(doc.to_xml(), "<a><b/><c>xy</c></a>");
    /// assert!(doc.append_fragment(a, "<q:d/>").is_err()); // q is bound to nothing
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_fragment(&mut self, parent: NodeId, text: &str) -> Result<Fragment, Error> {
        self.insert_fragment(parent, None, text)
    }

    /// Parses `text` as content of the parent of `sibling` and inserts the
    /// nodes it makes right before `sibling` (all or none, as
    /// [`append_fragment`](Self::append_fragment) does).
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a><c/></a>");
    /// let c = doc.root_element().unwrap().first_child().unwrap().id();
    /// doc.insert_fragment_before(c, "<b/>text")?;
    /// assert_eq!(doc.to_xml(), "<a><b/>text<c/></a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn insert_fragment_before(
        &mut self,
        sibling: NodeId,
        text: &str,
    ) -> Result<Fragment, Error> {
        let parent = self
            .node(sibling)
            .and_then(|n| n.parent())
            .ok_or_else(|| Error::InvalidEdit("the node has no parent".into()))?
            .id();
        self.insert_fragment(parent, Some(sibling), text)
    }

    fn insert_fragment(
        &mut self,
        parent: NodeId,
        before: Option<NodeId>,
        text: &str,
    ) -> Result<Fragment, Error> {
        let fragment = self.parse_fragment(parent, text)?;
        if let Err(error) = self.insert_all(parent, before, &fragment.nodes) {
            self.remove_all(&fragment.nodes);
            return Err(error);
        }
        Ok(fragment)
    }

    /// Removes the detached copies `nodes` (of a fragment that did not go
    /// in).
    fn remove_all(&mut self, nodes: &[NodeId]) {
        for &node in nodes {
            // Detached: removing cannot fail for a reason worth more than
            // the error being reported.
            let _ = self.remove(node);
        }
    }
}

/// The handle's side of fragment parsing: a method of [`NodeMut`] defined
/// here, beside the parse driver, because the DOM names nothing of parsing.
impl NodeMut<'_> {
    /// Parses `text` as content of this element and appends the nodes it
    /// makes (see [`Document::append_fragment`]); returns them and the
    /// fragment's parse errors.
    ///
    /// ```
    /// use xml5dom::Document;
    /// let mut doc = Document::parse("<a/>");
    /// let added = doc.root_element_mut().unwrap().append_fragment("<b>x &amp; y</b>z")?;
    /// assert!(added.errors.is_empty());
    /// assert_eq!(doc.to_xml(), "<a><b>x &amp; y</b>z</a>");
    /// # Ok::<(), xml5dom::Error>(())
    /// ```
    pub fn append_fragment(&mut self, text: &str) -> Result<Fragment, Error> {
        let element = self.id();
        self.document_mut().append_fragment(element, text)
    }
}
