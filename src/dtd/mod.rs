//! Layer 3, beside the DOM: the document type declaration's internal
//! subset (XML 1.0 §2.8, §3.3, §4), below the tokenizer, which hands it
//! the subset's text.
//!
//! It owns the declaration grammar (`internal_subset.rs`), the declared
//! entities with their replacement text, and entity expansion with its one
//! budget (`entities.rs`). The tokenizer hands it the raw text between `[`
//! and `]` and receives [`Declarations`]; the tokenizer expands references
//! in attribute values through it, and the tree builder expands references
//! in content and adds default attributes from it. External subsets and
//! external entities are read only through the caller's resolver
//! (`loading.rs`, `crate::external`), never otherwise.

mod entities;
mod internal_subset;
mod loading;

pub use crate::notation::Notation;
pub use entities::Declarations;
pub(crate) use entities::{EntityLookup, ExpansionMode, ExpansionStop};
pub(crate) use internal_subset::{
    has_parameter_references, AttributeType, DefaultValue, ExternalSubset,
};
