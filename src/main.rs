//! The `xml5dom` command line; everything it does lives in `xml5dom::cli`.

fn main() -> std::process::ExitCode {
    xml5dom::cli::main()
}
