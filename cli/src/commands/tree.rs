//! `xml5dom tree`: each file's document tree in the xml5lib-tests
//! `#document` format.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::context::Context;
use crate::options::Error;
use crate::runner::{Layout, Outcome, Task};

/// Print the document tree in the xml5lib-tests `#document` format.
///
/// Each node is a line: `| <feed>`, then its attributes and children
/// indented two spaces per level. Exits with status 0, or 2 when a file
/// cannot be read.
#[derive(Args, Debug)]
#[command(after_help = "Example: xml5dom tree feed.xml\n         \
                        xml5dom tree - < feed.xml")]
pub struct Tree {
    /// Files, directories (with `-r`) or `-` for standard input.
    /// Example: `feed.xml`.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

impl Tree {
    /// Reads every file whole and prints its tree.
    pub fn run(self, context: &Context) -> Result<ExitCode, Error> {
        let task = Task::new("tree", "print the trees of", Layout::Banners);
        context.batch(&self.paths, task, &|path, opened, _, out| {
            let doc = match context.read_document(opened) {
                Ok(doc) => doc,
                Err(outcome) => return Ok(outcome),
            };
            doc.write_tree_dump(out)?;
            Ok(Outcome {
                notes: context.read_as_cut(path, &doc),
                ..Outcome::default()
            })
        })
    }
}
