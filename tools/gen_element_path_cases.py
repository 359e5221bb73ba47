#!/usr/bin/env python3
"""Runs the ElementPath cases through Python's xml.etree.ElementTree and
writes the expected results for tests/element_path.rs.

    python3 tools/gen_element_path_cases.py

reads tests/element_path/cases.in and the documents in
tests/element_path/documents/, and writes tests/element_path/cases.txt and
tests/element_path/fuzz.txt (random short paths, the same format). The
format is described in tests/element_path/README.md. The output depends only
on the inputs and the Python version (3.11 expected); run it again after
editing cases.in.
"""

import json
import os
import random
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, os.pardir, "tests", "element_path")
DOCUMENTS = os.path.join(SUITE, "documents")
FUNCTIONS = ("find", "findall", "iterfind", "findtext")


def write_arg(text):
    """A path or URI as the files spell it: bare, or a JSON string when it
    would not survive bare (empty, surrounding or unusual whitespace, a
    leading quote, control characters)."""
    bare = (
        text != ""
        and text == text.strip()
        and not text.startswith('"')
        and all(c == " " or (c.isprintable() and not c.isspace()) for c in text)
    )
    return text if bare else json.dumps(text)


def read_arg(text):
    return json.loads(text) if text.startswith('"') else text


def split_word(rest):
    """The first argument (a bare word or a JSON string) and the rest."""
    if rest.startswith('"'):
        decoder = json.JSONDecoder()
        value, end = decoder.raw_decode(rest)
        return value, rest[end:].lstrip(" ")
    word, _, after = rest.partition(" ")
    return word, after


class Document:
    def __init__(self, name):
        self.name = name
        self.root = ET.parse(os.path.join(DOCUMENTS, name)).getroot()
        self.parents = {child: parent for parent in self.root.iter() for child in parent}

    def position(self, element):
        """/1 for the root element, then 1-based positions among element
        children."""
        steps = []
        while element is not self.root:
            parent = self.parents[element]
            steps.append(list(parent).index(element) + 1)
            element = parent
        return "/" + "/".join(["1"] + [str(i) for i in reversed(steps)])


def describe_error(error):
    message = str(error) if not isinstance(error, KeyError) else repr(error.args[0])
    return "error %s: %s" % (type(error).__name__, message)


def run_call(document, context, function, path, namespaces):
    """The lines describing what Python gives for one call."""
    try:
        # By keyword: findtext's second parameter is `default`.
        result = getattr(context, function)(path, namespaces=namespaces)
        if function == "iterfind":
            # CPython's iterfind returns None for a path with no tokens;
            # iterating it is the caller's TypeError.
            result = list(result)
    except Exception as error:  # Python's own exception is the expectation.
        return [describe_error(error)]
    if function in ("findall", "iterfind"):
        return ["result %d" % len(result)] + ["  " + document.position(e) for e in result]
    if function == "find":
        return ["none"] if result is None else ["element " + document.position(result)]
    return ["none"] if result is None else ["text " + json.dumps(result)]


def generate(lines, out):
    """Runs the directives of cases.in, writing cases.txt lines to out;
    returns the number of calls."""
    document = None
    context = None
    namespaces = None
    calls = 0
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            out.append(line)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "document":
            document = Document(rest)
            context = document.root
            namespaces = None
            out.append(line)
        elif keyword == "namespaces":
            if rest not in ("none", "{}"):
                sys.exit("line %d: namespaces takes none or {}" % number)
            namespaces = None if rest == "none" else {}
            out.append(line)
        elif keyword == "ns":
            prefix, uri = split_word(rest)
            namespaces = dict(namespaces or {})
            namespaces[prefix] = read_arg(uri)
            out.append("ns %s %s" % (write_arg(prefix) if prefix else '""', write_arg(read_arg(uri))))
        elif keyword == "context":
            path = read_arg(rest)
            found = document.root.find(path, namespaces)
            if found is None:
                sys.exit("line %d: context %r finds nothing" % (number, path))
            context = found
            out.append("context %s %s" % (document.position(found), write_arg(path)))
        elif keyword in FUNCTIONS or keyword == "all":
            path = read_arg(rest)
            for function in FUNCTIONS if keyword == "all" else (keyword,):
                out.append("call %s %s" % (function, write_arg(path)))
                out.extend(run_call(document, context, function, path, namespaces))
                calls += 1
        else:
            sys.exit("line %d: unknown directive %r" % (number, keyword))
    return calls


# Random short paths: steps and predicates of ElementPath's syntax, joined
# by / or //, and one path in three damaged by a random character put in,
# taken out or replaced. Each runs through findall and iterfind (CPython
# parses them differently) with and without a namespace map.
FUZZ_NAMES = [
    "a", "a", "a", "b", "b", "b", "c", "d", "e", "i", "x", "last", "p:a", "p:b",
    "{urn:p}a", "{urn:d}*", "{urn:d}a", "{*}a", "{*}b", "{}*", "{}a", "{*}*", "*", "*", "*",
]
FUZZ_PREDICATES = [
    "[1]", "[1]", "[2]", "[2]", "[3]", "[last()]", "[last()-1]", "[ 1 ]", "[0]", "[@x]", "[@x='1']",
    "[@x='v']", "[@x!='v']", "[@p:x]", "[@{urn:p}x='3']", "[@ x]", "[b]", "[p:b]",
    "[b='B1']", "[b!='B1']", "[{*}b]", "[.='v']", "[.!='v']", "[.='deep']", "[d='v']",
    "[last]", "[a]",
]
FUZZ_NOISE = "ab:/.*[]@=!'\"()-1 {}"


def fuzz_path(rng):
    steps = []
    for i in range(rng.randint(1, 4)):
        if i:
            steps.append(rng.choice(["/", "/", "/", "//", ""]))
        elif rng.random() < 0.4:
            steps.append(rng.choice([".//", ".//", "./", "../"]))
        if steps and steps[-1] != "//" and rng.random() < 0.15:
            steps.append(rng.choice([".", ".."]))
        else:
            steps.append(rng.choice(FUZZ_NAMES))
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            steps.append(rng.choice(FUZZ_PREDICATES))
    path = "".join(steps)
    if rng.random() < 1 / 3:
        at = rng.randint(0, len(path))
        noise = rng.choice(FUZZ_NOISE)
        path = rng.choice([
            path[:at] + noise + path[at:],
            path[:at] + path[at + 1:],
            path[:at] + noise + path[at + 1:],
        ])
    return path


def fuzz(out, count=1500):
    rng = random.Random(20240502)
    document = Document("mixed.xml")
    out.append("# Generated: random paths on mixed.xml. Do not edit.")
    out.append("document mixed.xml")
    maps = [None, {"p": "urn:p"}, {"": "urn:d", "p": "urn:p"}]
    current = None
    calls = 0
    for i in range(count):
        path = fuzz_path(rng)
        namespaces = maps[i % 3]
        if namespaces != current:
            out.append("namespaces none")
            for prefix, uri in (namespaces or {}).items():
                out.append("ns %s %s" % (write_arg(prefix) if prefix else '""', uri))
            current = namespaces
        functions = ("findall", "iterfind") if i % 4 else FUNCTIONS
        for function in functions:
            out.append("call %s %s" % (function, write_arg(path)))
            out.extend(run_call(document, document.root, function, path, namespaces))
            calls += 1
    return calls


def main():
    if sys.version_info[:2] != (3, 11):
        print("warning: expected Python 3.11, running %s" % sys.version.split()[0], file=sys.stderr)
    with open(os.path.join(SUITE, "cases.in"), encoding="utf-8") as f:
        lines = f.readlines()
    out = ["# Generated by tools/gen_element_path_cases.py from cases.in. Do not edit."]
    calls = generate(lines, out)
    with open(os.path.join(SUITE, "cases.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    out = []
    fuzz_calls = fuzz(out)
    with open(os.path.join(SUITE, "fuzz.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print("cases.txt: %d calls; fuzz.txt: %d calls" % (calls, fuzz_calls))


if __name__ == "__main__":
    main()
