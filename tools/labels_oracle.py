#!/usr/bin/env python3
"""libxml2 as the oracle for the encoding labels `xml5dom fmt` writes
(issue 30, docs/encodings.md "Writing"): for each input with a label that
is unknown or contradicts its byte-order mark or bytes, and for each
output encoding (the file's own, then several `--encoding X`), the output
must be read by xmllint without an error and give the canonical form
(C14N) xml5dom gives of the input.

    apt-get install -y libxml2-utils
    python3 tools/labels_oracle.py target/debug/xml5dom

Prints one line per case that fails, then the count; exits 1 on a failure.
"""

import os
import subprocess
import sys
import tempfile


def labelled(label, bom=b""):
    """The tests' input (tests/encoding.rs `labelled`): `é` in UTF-8."""
    text = f"<?xml version='1.0'  encoding = '{label}' ?>\n<a>\u00e9</a>\n"
    return bom + text.encode("utf-8")


INPUTS = {
    "unknown": labelled("bogus"),
    "dbcs": labelled("dbcs"),
    "x-klingon": labelled("x-klingon"),
    "UTF-16 in 8 bits": labelled("UTF-16"),
    "UTF-8 BOM, ISO-8859-1": labelled("iso-8859-1", b"\xef\xbb\xbf"),
    "UTF-8 BOM, unknown": labelled("bogus", b"\xef\xbb\xbf"),
    "UTF-16LE BOM, UTF-8": b"\xff\xfe"
    + "<?xml version='1.0' encoding='UTF-8'?><a>\u00e9</a>".encode("utf-16-le"),
    "EBCDIC, unknown": "<?xml version='1.0' encoding='x-klingon'?><a/>".encode("cp037"),
    "label inside `encoding`": b'<?xml version="1.0" encoding="in"?><a/>',
}

OUTPUTS = [None, "utf-8", "iso-8859-1", "windows-1252", "utf-16", "shift_jis", "ibm037"]


def run(args, stdin=None):
    return subprocess.run(args, capture_output=True, input=stdin)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cli = sys.argv[1]
    failures = 0
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in INPUTS.items():
            source = os.path.join(tmp, "in.xml")
            with open(source, "wb") as f:
                f.write(data)
            expected = run([cli, "canon", "--form", "c14n", source]).stdout
            for encoding in OUTPUTS:
                cases += 1
                options = ["--encoding", encoding] if encoding else []
                written = run([cli, "fmt", *options, source]).stdout
                out = os.path.join(tmp, "out.xml")
                with open(out, "wb") as f:
                    f.write(written)
                lint = run(["xmllint", "--c14n", out])
                if lint.returncode != 0 or lint.stdout != expected:
                    failures += 1
                    message = lint.stderr.decode("utf-8", "replace").splitlines()
                    print(f"{name} -> {encoding or 'own'}: {message[:1] or 'another canonical form'}")
    print(f"{cases - failures} of {cases} outputs read by xmllint as xml5dom reads the input")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
