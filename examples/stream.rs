//! Reads the entries of a feed one at a time, each as a small document of
//! its own, without building the whole feed (`events::Subtrees`, as lxml's
//! `iterparse`): what a program does with an export too large for memory.
//! Prints each entry's id and title, then how many parse errors the stream
//! had (the sample feed is broken: bare ampersands, unquoted values, an
//! element only its entry's end tag closes, no `</feed>`).
//!
//! ```sh
//! cargo run --example stream                                  # the sample feed
//! cargo run --example stream -- FILE.xml '{http://www.w3.org/2005/Atom}entry'
//! ```
//!
//! The name is `{namespace}local`, or a qualified name as written.

use std::cell::Cell;
use std::rc::Rc;

use xml5dom::events::Subtrees;
use xml5dom::query::XPath;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "examples/data/feed-alpha.xml".to_owned());
    let name = args
        .next()
        .unwrap_or_else(|| "{http://www.w3.org/2005/Atom}entry".to_owned());

    // Names in each entry document keep their namespaces; local-name() asks
    // without binding a prefix.
    let id = XPath::compile("string(/*/*[local-name() = 'id'])")?;
    let title = XPath::compile("string(/*/*[local-name() = 'title'])")?;

    let errors = Rc::new(Cell::new(0));
    let counted = Rc::clone(&errors);
    let file = std::fs::File::open(&path)?;
    let entries = Subtrees::named(file, &name).on_error(move |_| counted.set(counted.get() + 1));
    for entry in entries {
        // An error here is the file's (it could not be read), not the XML's.
        let entry = entry?;
        let doc = entry.document();
        let id = id.evaluate(doc.root())?.to_xpath_string();
        let title = title.evaluate(doc.root())?.to_xpath_string();
        println!("{id}: {title}");
    }
    println!("{} parse errors in {path}", errors.get());
    Ok(())
}
