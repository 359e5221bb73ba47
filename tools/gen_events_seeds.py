#!/usr/bin/env python3
"""Regenerate fuzz/seeds/events_equal_dom, the seeds of the events_equal_dom
fuzz target (docs/robustness.md, "Fuzzing").

An input of that target is a byte that seeds where the document is cut, a
byte that picks the limits (0: the defaults; each of the six low bits sets
one limit small, see `chosen_options` in tests/common/fuzz_checks.rs), then
the document. The documents come from the repository:

* every document of tests/corpus up to 4 KiB (the larger ones add little
  but time; tests/regressions.rs runs the check on all up to 64 KiB);
* the seeds of the other targets (those of random_chunks without their own
  seed byte, those of xpath the document after the NUL, if any);
* the inputs of tests/regressions.

Each is written once (the same bytes in two places are one seed) with the
default limits; those that declare entities or attribute lists also with
small limits: the entity expansion budget and depth (0x12), and all six at
once (0x3F); and one in four of the others with the element depth,
attributes, names and input size small (0x2D).

Usage: python3 tools/gen_events_seeds.py (it empties the directory first).
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "seeds" / "events_equal_dom"
LARGEST_CORPUS_DOCUMENT = 4096


def documents():
    """(name, bytes) of every document, in a fixed order."""
    corpus = ROOT / "tests" / "corpus"
    for path in sorted(corpus.rglob("*.xml")):
        data = path.read_bytes()
        if len(data) <= LARGEST_CORPUS_DOCUMENT:
            yield f"corpus-{path.parent.name}-{path.stem}", data
    for target in sorted((ROOT / "fuzz" / "seeds").iterdir()):
        if not target.is_dir() or target == OUT:
            continue
        for path in sorted(target.iterdir()):
            data = path.read_bytes()
            if target.name == "random_chunks":
                data = data[1:]
            elif target.name == "xpath":
                if b"\0" not in data:
                    continue
                data = data.split(b"\0", 1)[1]
            yield f"seed-{target.name}-{path.stem}", data
    for path in sorted((ROOT / "tests" / "regressions").glob("*.bin")):
        yield f"regression-{path.stem}", path.read_bytes()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    seen = set()
    count = 0
    for name, data in documents():
        if data in seen:
            continue
        seen.add(data)
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
        limits = [0x00]
        if re.search(rb"<!(ENTITY|ATTLIST)", data):
            limits += [0x12, 0x3F]
        elif count % 4 == 3:
            limits.append(0x2D)
        for byte in limits:
            # The seed byte: the cut shapes of the push and the pull
            # parsers (its two low bits, and the two above) vary by seed.
            seed = (count * 7 + byte) % 256
            suffix = f"-limits-{byte:02x}" if byte else ""
            (OUT / f"{name}{suffix}").write_bytes(bytes([seed, byte]) + data)
        count += 1
    print(f"{count} documents, {sum(1 for _ in OUT.iterdir())} seeds in {OUT}")


if __name__ == "__main__":
    main()
