//! Peak heap bytes during one parse, divided by the input's size, for
//! xml5dom and its peers, measured with a counting global allocator.
//!
//! xml5dom's first figure (`Document::parse(&str)`) counts the copy of the
//! input its document keeps; the second (`Document::parse_string`, handed
//! a `String` made before the measurement) does not, as roxmltree, which
//! borrows the input, does not.
//!
//! ```sh
//! cargo run --release -p bench-tools --bin memory
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use xml5dom::Document;

#[path = "../benches/inputs.rs"]
mod inputs;
#[path = "../benches/peers.rs"]
mod peers;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(now, Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let now =
                CURRENT.fetch_add(new_size - layout.size(), Relaxed) + new_size - layout.size();
            PEAK.fetch_max(now, Relaxed);
        } else {
            CURRENT.fetch_sub(layout.size() - new_size, Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak heap growth while `f` runs, in bytes.
fn peak(f: impl FnOnce()) -> usize {
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    f();
    PEAK.load(Relaxed) - base
}

fn main() {
    let size = std::env::var("XML5DOM_PERF_SIZE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000_000);
    let mut inputs = inputs::shapes(size);
    inputs.push(("damaged", inputs::damaged(size)));
    println!("| input | MB | xml5dom | xml5dom, owned | xml5dom push Parser | roxmltree | xml5ever rcdom |");
    println!("|---|---|---|---|---|---|---|");
    for (name, text) in &inputs {
        let n = text.len() as f64;
        let ours = peak(|| drop(black_box(Document::parse(text))));
        let given = text.clone();
        let owned = peak(|| drop(black_box(Document::parse_string(given))));
        // Fed 64 KiB at a time, building as it goes.
        let pushed = peak(|| {
            let mut parser = xml5dom::Parser::new();
            for chunk in text.as_bytes().chunks(64 << 10) {
                parser.feed(chunk);
            }
            drop(black_box(parser.finish()));
        });
        let mut rox_ok = true;
        let rox = peak(|| rox_ok = peers::roxmltree(text).is_ok());
        let ever = peak(|| peers::xml5ever(text));
        let rox = if rox_ok {
            format!("{:.2}", rox as f64 / n)
        } else {
            "rejects".to_owned()
        };
        println!(
            "| {name} | {:.1} | {:.2} | {:.2} | {:.2} | {rox} | {:.2} |",
            n / 1e6,
            ours as f64 / n,
            owned as f64 / n,
            pushed as f64 / n,
            ever as f64 / n
        );
    }
    println!("\npeak heap bytes during one parse / input bytes (xml5dom counts the copy of the input it keeps; \"owned\" is parse_string, which keeps the String it is given; the push Parser is fed the bytes 64 KiB at a time and keeps the text it decodes)");
}
