//! The driver: the one place that wires the tokenizer and the tree
//! builder together and feeds them, for every entry point. Text given
//! whole is parsed at once ([`parse_into`]); text that comes in pieces
//! (the push `Parser`, the event streams) goes through [`Pieces`], which
//! keeps of each piece what the input-size limit lets in, puts it in the
//! builder's window of the source and hands it to the tokenizer. What
//! comes out goes to a `TreeSink`: the document's, or the events'.
//! Decoding stays with the callers, which differ in what they do with its
//! errors (a document adds them at the end, a stream hands them on).

use crate::decoding::ParseOptions;
use crate::dom::{Document, SourceText};
use crate::limits::piece_kept;
use crate::tokenizer::{self, Tokenizer};
use crate::tree_builder::{DocumentSink, FragmentDtd, Source, TreeBuilder, TreeSink};

/// Parses `text` whole into `sink`, and gives what the sink made.
pub(crate) fn parse_into<S: TreeSink>(text: &str, options: &ParseOptions, sink: S) -> S::Output {
    let builder = TreeBuilder::new(text, options, sink);
    let mut tokenizer = Tokenizer::with_limits(builder, options.limits.clone());
    tokenizer.set_external(options.external.clone());
    tokenizer.run_whole(text).finish()
}

/// Parses `text` into a document, which keeps a copy of it.
pub(crate) fn build(text: &str, options: &ParseOptions) -> Document {
    let sink = DocumentSink::new(text).skipping_blank_text(options.skip_blank_text);
    parse_into(text, options, sink)
}

/// Parses `text` into a document, which takes `text` itself as its source
/// (no copy): the same document as [`build`] makes.
pub(crate) fn build_owned(text: SourceText, options: &ParseOptions) -> Document {
    let sink = DocumentSink::without_copy(&text).skipping_blank_text(options.skip_blank_text);
    let mut doc = parse_into(&text, options, sink);
    doc.give_source(text);
    doc
}

/// Parses `text` as the content of an element whose namespace `bindings`
/// are in scope (see `TreeBuilder::for_fragment`): a document whose root
/// element stands for that element and holds what `text` makes, and whose
/// errors are the fragment's.
pub(crate) fn build_fragment(
    text: &str,
    bindings: &[(String, String)],
    dtd: Option<FragmentDtd<'_>>,
    options: &ParseOptions,
) -> Document {
    let sink = DocumentSink::for_fragment(text);
    let mut builder = TreeBuilder::for_fragment(text, options, sink, bindings);
    let declarations = dtd.as_ref().map(|dtd| builder.fragment_dtd(dtd));
    let xml11 = dtd.is_some_and(|dtd| dtd.xml11);
    tokenizer::tokenize_fragment(text, builder, &options.limits, declarations, xml11).finish()
}

/// Text parsed into a sink as it arrives, piece by piece: the builder reads
/// the source through a window that keeps only what the parse still needs
/// (the sink's caller says when to let go: `builder_mut().release_before`).
pub(crate) struct Pieces<S: TreeSink> {
    tokenizer: Tokenizer<TreeBuilder<'static, S>>,
    /// Bytes of text fed so far.
    fed: usize,
    /// The most bytes of text to feed, if limited.
    limit: Option<usize>,
    /// The input was cut at the limit: nothing more is fed.
    cut: bool,
}

impl<S: TreeSink> Pieces<S> {
    /// Pieces into `sink`, the text limited to `limit` bytes if given.
    pub(crate) fn new(options: &ParseOptions, limit: Option<usize>, sink: S) -> Pieces<S> {
        let builder = TreeBuilder::with_source(Source::window(), options, sink);
        let mut tokenizer = Tokenizer::with_limits(builder, options.limits.clone());
        tokenizer.set_external(options.external.clone());
        Pieces {
            tokenizer,
            fed: 0,
            limit,
            cut: false,
        }
    }

    /// How much of `text`, the next piece, the limit lets in (on a
    /// character boundary); once it cuts, nothing more is. Call it before
    /// [`feed`](Self::feed)ing the piece.
    pub(crate) fn kept_of(&mut self, text: &str) -> usize {
        if self.cut {
            return 0;
        }
        let Some(limit) = self.limit else {
            return text.len();
        };
        let kept = piece_kept(limit, self.fed, text);
        self.cut = kept < text.len();
        kept
    }

    /// Feeds the next piece of text (what [`kept_of`](Self::kept_of) let
    /// in).
    #[inline]
    pub(crate) fn feed(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.tokenizer.sink_mut().source_mut().push(text);
        self.tokenizer.feed(text);
        self.fed += text.len();
    }

    /// Bytes of text fed so far.
    pub(crate) fn fed(&self) -> usize {
        self.fed
    }

    /// Whether the limit cut the input.
    pub(crate) fn is_cut(&self) -> bool {
        self.cut
    }

    /// The tokenizer, for what it keeps of the source.
    pub(crate) fn tokenizer(&self) -> &Tokenizer<TreeBuilder<'static, S>> {
        &self.tokenizer
    }

    /// The tree builder.
    pub(crate) fn builder(&self) -> &TreeBuilder<'static, S> {
        self.tokenizer.sink()
    }

    /// The tree builder, to read its window or let go of the source.
    pub(crate) fn builder_mut(&mut self) -> &mut TreeBuilder<'static, S> {
        self.tokenizer.sink_mut()
    }

    /// The end of the input: what is still pending is parsed.
    pub(crate) fn end(&mut self) {
        self.tokenizer.end();
    }

    /// [`end`](Self::end), and the tree builder back.
    pub(crate) fn finish(self) -> TreeBuilder<'static, S> {
        self.tokenizer.finish()
    }
}
