#!/usr/bin/env python3
"""What the command line writes for every test document, to compare two
builds byte for byte (a refactor that must change no behaviour, issue 34).

    python3 bench-tools/same_output.py BINARY OUTDIR [--suite DIR]... [-j N]
    diff -r BEFORE_OUTDIR AFTER_OUTDIR

Run from the repository root. Every test document (tests/corpus,
tests/regressions, tests/xmlconf, tests/c14n, tests/xpath,
tests/element_path, tests/declarations, tests/error_context, examples/data,
and each case of the xml5lib-tests tokenizer and tree-construction files,
written out under target/same-output-cases/) goes through `check`,
`check --format json`, `fmt`, `canon`, `tree`, `stats`, `tokens` and
`query 'count(//*)'`, one file a run; then come whole directories with
the other flags (`-r`, `--jobs 1`, limits, encodings, forms, JSON), help,
man pages, completions, caller errors, standard input, and `fmt
--in-place` over a copy of tests/corpus (the files it leaves are kept).
OUTDIR gets one file per command line (each run's arguments, standard
output, standard error and exit status) and the in-place copy.

The binary runs as `xml5dom` (a copy, since help prints the name it was
run by) with NO_COLOR set and no terminal; paths are relative, so two
OUTDIRs compare whatever their place. `--suite DIR` adds another
xml5lib-tests checkout (its .test and .dat cases).
"""
import argparse
import concurrent.futures
import glob
import json
import os
import shutil
import subprocess
import tempfile

ROOTS = ["tests/corpus", "tests/regressions", "tests/xmlconf", "tests/c14n",
         "tests/xpath", "tests/element_path", "tests/declarations",
         "tests/error_context", "examples/data"]
CASES = "target/same-output-cases"
PER_FILE = {
    "check": ["check"],
    "check-json": ["check", "--format", "json"],
    "fmt": ["fmt"],
    "canon": ["canon"],
    "tree": ["tree"],
    "stats": ["stats"],
    "tokens": ["tokens"],
    "query-count": ["query", "count(//*)"],
}
SUBCOMMANDS = ["tokens", "tree", "check", "fmt", "canon", "query", "stats",
               "completions", "man"]
FORMS = ["c14n", "c14n-comments", "xmltest", "xmltest2", "exc-c14n",
         "exc-c14n-comments", "c14n11", "c14n11-comments"]


def write_cases(suites):
    """Each xml5lib-tests case's input as a file of its own."""
    shutil.rmtree(CASES, ignore_errors=True)
    os.makedirs(CASES)
    for suite in suites:
        name = os.path.basename(os.path.normpath(suite))
        for path in sorted(glob.glob(os.path.join(suite, "**", "*.test"), recursive=True)):
            with open(path, encoding="utf-8") as f:
                tests = json.load(f).get("tests", [])
            for i, case in enumerate(tests):
                text = case["input"]
                if case.get("doubleEscaped"):
                    text = text.encode("utf-8", "surrogatepass").decode("unicode_escape")
                out = os.path.join(CASES, f"{name}-{os.path.basename(path)}-{i:04}.xml")
                with open(out, "wb") as f:
                    f.write(text.encode("utf-8", "surrogatepass"))
        for path in sorted(glob.glob(os.path.join(suite, "**", "*.dat"), recursive=True)):
            with open(path, "rb") as f:
                cases = f.read().split(b"#data\n")[1:]
            for i, case in enumerate(cases):
                out = os.path.join(CASES, f"{name}-{os.path.basename(path)}-{i:04}.xml")
                with open(out, "wb") as f:
                    f.write(case.split(b"\n#errors", 1)[0])


def documents():
    files = []
    for root in ROOTS + [CASES]:
        for path in sorted(glob.glob(os.path.join(root, "**", "*"), recursive=True)):
            if os.path.isfile(path) and not path.endswith((".py", ".md", ".tsv")):
                files.append(path)
    return files


def other_runs():
    """Whole directories with the other flags, help and errors."""
    corpus, one = "tests/corpus", "examples/data/feed.xml"
    runs = [["--help"], ["--version"], ["help"], ["man"], ["frobnicate"], [],
            ["tokens"], ["check", "--bogus", one], ["check", "/no/such/file.xml"],
            ["tree", "/no/such/file.xml", one], ["man", "nope"]]
    runs += [["completions", shell] for shell in ["bash", "zsh", "fish", "elvish", "powershell"]]
    for sub in SUBCOMMANDS:
        runs += [[sub, "-h"], [sub, "--help"], ["help", sub], ["man", sub]]
    for sub in [["tokens"], ["tree"], ["check"], ["check", "--format", "json"], ["fmt"],
                ["fmt", "--check"], ["fmt", "--pretty"], ["fmt", "--pretty=4"], ["canon"],
                ["canon", "--repaired"], ["query", "//*[1]"],
                ["query", "--format", "json", "//@*"],
                ["query", "--format", "json", "count(//*)"], ["stats"],
                ["stats", "--format", "json"]]:
        runs += [sub + ["-r", corpus], sub + ["-r", "--jobs", "1", corpus], sub + [corpus],
                 sub + ["-r", "tests/regressions", one, "/no/such.xml"]]
    runs += [
        ["check", "--max-errors", "2", "-r", corpus],
        ["check", "--summary", "always", "-r", corpus],
        ["check", "--summary", "always", "-q", "-r", "tests/xmlconf"],
        ["check", "--color", "always", "-r", "tests/regressions"],
        ["check", "--format", "json", "--max-errors", "1", "-r", corpus],
        ["check", "--max-element-depth", "3", "-r", corpus], ["check", "--huge", "-r", corpus],
        ["check", "--max-input-bytes", "100", "-r", corpus],
        ["check", "--max-entity-expansion-ratio", "none", "examples/data/laughs.xml"],
        ["check", "examples/data/laughs.xml"], ["fmt", "examples/data/laughs.xml"],
        ["canon", "examples/data/laughs.xml"], ["stats", "examples/data/laughs.xml"],
        ["check", "--max-entity-depth", "100", one], ["check", "--max-attributes", "zz", one],
        ["check", "--max-name-length", "1K", "--max-entity-expansion-bytes", "1G", one],
        ["check", "--input-encoding", "cp850", "-r", corpus],
        ["check", "--input-encoding", "bogus", one],
        ["fmt", "--encoding", "utf-16le", one], ["fmt", "--encoding", "nope", one],
        ["fmt", "--bind-prefix", "dc=urn:dc", "-r", corpus], ["fmt", "--bind-prefix", "x", one],
        ["fmt", "--force", one], ["fmt", "--in-place", "--check", one],
        ["fmt", "--in-place", "-"],
        ["tree", "--max-element-depth", "2", "-r", corpus],
        ["query", "--max-element-depth", "2", "//*", "-r", corpus],
        ["query", "//[", one], ["query", "//x:a", one],
        ["query", "--ns", "x=urn:x", "//x:a", one],
        ["query", "--ns", "bad", "//a", one], ["query", "//nothing", one],
        ["canon", "--xpath", "count(//*)", one], ["canon", "--ns", "a=b", one],
        ["canon", "--form", "c14n", "--inclusive-ns", "p", one],
        ["canon", "--form", "xmltest", "--xpath", "//*", one],
        ["canon", "--xpath", "(//. | //@* | //namespace::*)", "-r", corpus],
        ["canon", "--form", "exc-c14n", "--inclusive-ns", "#default", "--xpath", "//*",
         "-r", corpus],
    ]
    runs += [["canon", "--form", form, "-r", corpus] for form in FORMS]
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("outdir")
    parser.add_argument("--suite", action="append", default=[])
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()

    bindir = tempfile.mkdtemp()
    binary = os.path.join(bindir, "xml5dom")
    shutil.copy(args.binary, binary)
    env = dict(os.environ, NO_COLOR="1")
    outdir = args.outdir
    os.makedirs(outdir, exist_ok=True)

    def run(argv, stdin=None, cwd=None):
        done = subprocess.run([binary] + argv, capture_output=True, env=env, cwd=cwd,
                              stdin=stdin if stdin is not None else subprocess.DEVNULL)
        return b"".join([b"=== ", " ".join(argv).encode("utf-8", "surrogateescape"),
                         b"\n--- stdout %d\n" % len(done.stdout), done.stdout,
                         b"\n--- stderr %d\n" % len(done.stderr), done.stderr,
                         b"\n--- status %d\n" % done.returncode])

    write_cases(["tests/xml5lib-tests", "tests/tree-construction"] + args.suite)
    files = documents()
    runs = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, argv in PER_FILE.items():
            with open(os.path.join(outdir, name), "wb") as out:
                for record in pool.map(lambda path: run(argv + [path]), files):
                    out.write(record)
                    runs += 1
        others = other_runs()
        with open(os.path.join(outdir, "other"), "wb") as out:
            for record in pool.map(run, others):
                out.write(record)
                runs += 1
            for argv in [["tokens", "-"], ["check", "-"], ["fmt", "-"],
                         ["stats", "-", "examples/data/feed.xml"]]:
                with open("examples/data/feed.xml", "rb") as stdin:
                    out.write(run(argv, stdin))
                    runs += 1

    # fmt --in-place over a copy of the corpus, named by a relative path.
    work = os.path.join(outdir, "in-place")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree("tests/corpus", work)
    with open(os.path.join(outdir, "in-place.log"), "wb") as out:
        for argv in [["fmt", "--in-place", "--pretty", "-r", "in-place"],
                     ["fmt", "--in-place", "--force", "-r", "in-place"]]:
            out.write(run(argv, cwd=outdir))
            runs += 1
    shutil.rmtree(bindir)
    print(f"{len(files)} documents x {len(PER_FILE)} commands and {runs - len(files) * len(PER_FILE)}"
          f" other runs: {runs} runs into {outdir}")


if __name__ == "__main__":
    main()
