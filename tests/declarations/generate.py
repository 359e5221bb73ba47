#!/usr/bin/env python3
"""Writes tests/declarations/verdicts.txt: for each ELEMENT or NOTATION
declaration below, whether libxml2 (through lxml) finds
`<!DOCTYPE a [DECLARATION]><a/>` well-formed, for tests/declarations.rs to
hold xml5dom to. One line each: the verdict, a tab, the declaration (a line
feed in it written `\\n`).

Run by hand when the list changes; the test only reads the file.
Requirements: `pip install lxml`.
Usage: python3 tests/declarations/generate.py
"""

import pathlib

from lxml import etree

DECLARATIONS = [
    # Well-formed.
    "<!ELEMENT a EMPTY>",
    "<!ELEMENT a ANY>",
    "<!ELEMENT a (#PCDATA)>",
    "<!ELEMENT a (#PCDATA)*>",
    "<!ELEMENT a (#PCDATA|b|c)*>",
    "<!ELEMENT a ( #PCDATA | b )*>",
    "<!ELEMENT a (b)>",
    "<!ELEMENT a (b?,(c|d+)*,e)+>",
    "<!ELEMENT a ((b,c)|(d,(e|f)))>",
    "<!ELEMENT a\n(b,c)\n>",
    "<!ELEMENT a (b|c)?>",
    "<!ELEMENT a:b (c:d)>",
    "<!NOTATION n SYSTEM 's'>",
    "<!NOTATION n PUBLIC 'p'>",
    "<!NOTATION n PUBLIC 'p' 's'>",
    # Not well-formed.
    "<!ELEMENT a FOO>",
    "<!ELEMENT a (b,c|d)>",
    "<!ELEMENT a (b|c,d)>",
    "<!ELEMENT a (#PCDATA|b)>",
    "<!ELEMENT aElement (a |b * >",
    "<!ELEMENT a (b|#PCDATA)*>",
    "<!ELEMENT a ()>",
    "<!ELEMENT a (b,)>",
    "<!ELEMENT a ((b)>",
    "<!ELEMENT a (#PCDATA)+>",
    "<!ELEMENT a (b c)>",
    "<!ELEMENT a>",
    "<!ELEMENT a EMPTY ANY>",
    "<!ELEMENT a (b)**>",
    "<!ELEMENT a (#PCDATA|b)+>",
    "<!ELEMENT a (#PCDATA,b)*>",
    "<!ELEMENT a (b|)>",
    "<!ELEMENT a empty>",
    "<!ELEMENT a(b)>",
    "<!NOTATION n>",
    "<!NOTATION n SYSTEM>",
    "<!NOTATION n PUBLIC 'p{'>",
    "<!NOTATION n FOO 's'>",
]


def main():
    out = []
    for declaration in DECLARATIONS:
        text = f"<!DOCTYPE a [{declaration}]><a/>"
        try:
            etree.fromstring(text.encode(), etree.XMLParser(load_dtd=False, no_network=True))
            verdict = "well-formed"
        except etree.XMLSyntaxError:
            verdict = "not-well-formed"
        escaped = declaration.replace("\n", "\\n")
        out.append(f"{verdict}\t{escaped}")
    path = pathlib.Path(__file__).resolve().parent / "verdicts.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
