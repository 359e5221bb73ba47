//! Queries over the DOM: finding nodes by path.
//!
//! [`element_path`] gives ElementTree's path language (`find`, `findall`,
//! `iterfind`, `findtext`) with the results of Python's
//! `xml.etree.ElementTree`, on [`Node`](crate::Node) and compiled once as
//! an [`ElementPath`](element_path::ElementPath).

pub mod element_path;
