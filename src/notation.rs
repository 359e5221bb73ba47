//! The values of a NOTATION declaration: found by the DTD reader (in the
//! internal subset), kept by the DOM on the DOCTYPE node and handed on by
//! the events. A layer of its own below both, so that neither names the
//! other.

/// A notation declaration of the internal subset: `<!NOTATION name SYSTEM
/// "system">`, `<!NOTATION name PUBLIC "public">` or `<!NOTATION name
/// PUBLIC "public" "system">` (XML 1.0 §4.7). A notation names a format of
/// unparsed data (`<!ENTITY e SYSTEM "pic.gif" NDATA gif>`) or of a
/// processing instruction's target.
///
/// The identifiers are the literals as written between the quotes, line
/// ends normalized; nothing behind them is ever fetched.
///
/// ```
/// use xml5dom::Document;
///
/// let doc = Document::parse(
///     "<!DOCTYPE a [<!NOTATION gif PUBLIC '-//CompuServe//NOTATION GIF//EN' 'viewer'>]><a/>",
/// );
/// let doctype = doc.root().first_child().unwrap();
/// let gif = &doctype.notations()[0];
/// assert_eq!(gif.name(), "gif");
/// assert_eq!(gif.public_id(), Some("-//CompuServe//NOTATION GIF//EN"));
/// assert_eq!(gif.system_id(), Some("viewer"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notation {
    name: Box<str>,
    public_id: Option<Box<str>>,
    system_id: Option<Box<str>>,
}

impl Notation {
    pub(crate) fn new(
        name: Box<str>,
        public_id: Option<Box<str>>,
        system_id: Option<Box<str>>,
    ) -> Notation {
        Notation {
            name,
            public_id,
            system_id,
        }
    }

    /// The notation's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The public identifier (`PUBLIC "..."`), if it has one.
    pub fn public_id(&self) -> Option<&str> {
        self.public_id.as_deref()
    }

    /// The system identifier (`SYSTEM "..."`, or the second literal after
    /// `PUBLIC`), if it has one.
    pub fn system_id(&self) -> Option<&str> {
        self.system_id.as_deref()
    }
}
