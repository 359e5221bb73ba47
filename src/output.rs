//! Output made as text and handed to an [`io::Write`] a piece at a time,
//! so that writing out a large document needs little memory beyond the
//! document: the tree dump, the canonical forms and the token JSON use it.
//! (The serializer does the same in its own writer, which also encodes.)

use std::io;

/// How much text is gathered before it is written.
pub(crate) const PIECE: usize = 1 << 16;

/// Text being made, and where it goes.
pub(crate) struct Pieces<'w> {
    /// The text not yet written (all of it, when there is no writer).
    pub(crate) text: String,
    writer: Option<&'w mut dyn io::Write>,
    /// The first write that failed; nothing more is written after it.
    failed: Option<io::Error>,
}

impl Pieces<'static> {
    /// Text kept whole, for a function that returns a `String`.
    pub(crate) fn kept() -> Pieces<'static> {
        Pieces {
            text: String::new(),
            writer: None,
            failed: None,
        }
    }
}

impl<'w> Pieces<'w> {
    /// Text written to `writer` as it is made.
    pub(crate) fn written(writer: &'w mut dyn io::Write) -> Pieces<'w> {
        Pieces {
            text: String::new(),
            writer: Some(writer),
            failed: None,
        }
    }

    /// Writes the text so far if there is enough of it: called between
    /// nodes.
    pub(crate) fn send_some(&mut self) {
        if self.text.len() >= PIECE {
            self.send();
        }
    }

    fn send(&mut self) {
        let Some(writer) = self.writer.as_mut() else {
            return;
        };
        if self.failed.is_none() {
            self.failed = writer.write_all(self.text.as_bytes()).err();
        }
        self.text.clear();
    }

    /// Writes what is left; returns the text when there is no writer.
    pub(crate) fn finish(mut self) -> io::Result<String> {
        self.send();
        match self.failed.take() {
            Some(error) => Err(error),
            None => Ok(std::mem::take(&mut self.text)),
        }
    }
}
