//! Walks a configuration document and edits it: reads settings, changes an
//! attribute, adds and removes elements, renames one, and prints the result
//! as a tree dump.
//!
//! ```sh
//! cargo run --example edit
//! ```

use xml5dom::Document;

const CONFIG: &str = r#"<config xmlns="urn:example:config">
  <server host="localhost" port="8080"/>
  <feature name="beta" enabled="true"/>
  <feature name="legacy" enabled="false"/>
  <logging level="debug"/>
</config>"#;

fn main() -> Result<(), xml5dom::Error> {
    let mut doc = Document::parse(CONFIG);
    let config = doc.root_element().expect("a root element");

    // Walk: read the settings.
    let server = config
        .child_elements()
        .find(|e| e.local_name() == "server")
        .expect("a server");
    println!(
        "server {}:{}",
        server.attribute("host").unwrap_or("?"),
        server.attribute("port").unwrap_or("?")
    );
    let disabled: Vec<_> = config
        .child_elements()
        .filter(|e| e.local_name() == "feature" && e.attribute("enabled") == Some("false"))
        .map(|e| e.id())
        .collect();
    let logging = config
        .child_elements()
        .find(|e| e.local_name() == "logging")
        .map(|e| e.id());
    let (config, server) = (config.id(), server.id());

    // Edit: change the port, drop disabled features, add a new element in
    // the default namespace, and rename logging.
    doc.set_attribute(server, "port", "9090")?;
    for feature in disabled {
        doc.remove(feature)?;
    }
    let cache = doc.create_element_ns("urn:example:config", "cache");
    doc.set_attribute(cache, "size", "64MB")?;
    doc.insert_after(server, cache)?;
    if let Some(logging) = logging {
        doc.rename(logging, "log")?;
    }

    print!("{}", doc.to_tree_dump());
    let root = doc.node(config).expect("still there");
    println!(
        "{} elements, all in {:?}",
        root.descendant_elements().count() + 1,
        root.namespace()
    );
    Ok(())
}
