#!/usr/bin/env python3
"""How far the DOM's crate-private items reach (issue 34), as the compiler
sees it: the `pub(crate)` items of src/dom/ and, of those, the ones code
outside src/dom/ uses.

    python3 tools/dom_reach.py [--list] [REV]

REV is a git revision (default: the working tree). Its files are copied to
a scratch directory, every `pub(crate)` in src/dom/ is narrowed to
`pub(in crate::dom)`, and `cargo check --all-targets` of the library is
run there: each privacy error outside src/dom/ names an item used outside
(a type, function, method, constant or field). The compiler does not
report a use that follows from another error (a method of a type whose
import failed), so the items reported are widened back and the check run
again, until no new item is reported. A name counts once: methods are
reported by name, not by type, so two methods of one name count (and are
widened) as one. Exact where a text search is not: a method of another
type with the same name does not count.

Items: each `pub(crate)` declaration in src/dom/ (fields included; a
re-export, `pub(crate) use`, counts as one).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(tempfile.gettempdir(), "dom-reach-target")
PRIVATE_CODES = {"E0603", "E0616", "E0624", "E0451"}
# "method `data` is private", "field `arena` of struct `Document` is private",
# "fields `a` and `b` of struct `D` are private", "type `NodeData` is private"
NAMED = re.compile(r"^(.*?) `([^`]+)`(?: of (?:struct|enum|union) `([^`]+)`)? is private")
FIELDS = re.compile(r"^fields (.*) of (?:struct|enum|union) `([^`]+)` are private")


def items_named(message):
    """The items a privacy error names: (kind, name, owner or None)."""
    fields = FIELDS.match(message)
    if fields:
        owner = fields[2].split("::")[-1]
        return [("field", name, owner) for name in re.findall(r"`([^`]+)`", fields[1])]
    named = NAMED.match(message)
    if not named:
        sys.exit(f"unread message: {message}")
    kind, name, owner = named.groups()
    return [(kind, name, owner and owner.split("::")[-1])]


def copy_tree(rev, into):
    if rev:
        archive = subprocess.run(
            ["git", "-C", ROOT, "archive", rev], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
        return
    files = subprocess.run(
        ["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard", "-z"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\0")
    for name in filter(None, files):
        source = os.path.join(ROOT, name)
        if os.path.isfile(source):
            os.makedirs(os.path.dirname(os.path.join(into, name)), exist_ok=True)
            shutil.copy2(source, os.path.join(into, name))


def narrow(dom):
    declared = 0
    for directory, _, names in os.walk(dom):
        for name in names:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(directory, name)
            text = open(path, encoding="utf-8").read()
            declared += text.count("pub(crate)")
            with open(path, "w", encoding="utf-8") as out:
                out.write(text.replace("pub(crate)", "pub(in crate::dom)"))
    return declared


def check(tree):
    run = subprocess.run(
        ["cargo", "check", "-q", "-p", "xml5dom", "--all-targets", "--message-format=json"],
        cwd=tree,
        capture_output=True,
        text=True,
        env={**os.environ, "CARGO_TARGET_DIR": TARGET},
    )
    found, others = {}, []
    for line in run.stdout.splitlines():
        if not line.startswith("{"):
            continue
        message = json.loads(line)
        if message.get("reason") != "compiler-message":
            continue
        diagnostic = message["message"]
        code = (diagnostic.get("code") or {}).get("code")
        if diagnostic["level"] != "error":
            continue
        primary = [s for s in diagnostic["spans"] if s["is_primary"]]
        if diagnostic["message"].startswith("cannot initialize a tuple struct"):
            # `NameId(0)`: the constructor of a tuple struct whose field is
            # narrowed, named by the span.
            line = primary[0]["text"][0]
            owner = line["text"][line["highlight_start"] - 1 : line["highlight_end"] - 1]
            diagnostic["message"] = f"field `0` of struct `{owner}` is private"
        private = re.search(r" (?:is|are) private$", diagnostic["message"])
        if code not in PRIVATE_CODES and not private:
            others.append(diagnostic["rendered"])
            continue
        if not primary or primary[0]["file_name"].startswith("src/dom/"):
            continue
        for item in items_named(diagnostic["message"]):
            found.setdefault(item, set()).add(primary[0]["file_name"])
    return run.returncode == 0, found, others


NARROW = r"pub\(in crate::dom\)"


def widen(dom, item):
    """Gives `item` (kind, name, owner) its `pub(crate)` back."""
    kind, name, owner = item
    word = re.escape(name)
    if kind == "field":
        # Within the owner's definition only: `struct Owner(pub(..) T)` or
        # `struct Owner { .. pub(..) name: T, .. }`.
        owner = re.escape(owner or "")
        field = NARROW if name.isdigit() else rf"{NARROW}(?=\s+{word}\s*:)"
        pattern = re.compile(rf"(?<=struct {owner}\b)[^;{{(]*(?:\{{.*?\n\}}|\(.*?\);)", re.S)
        replace = lambda m: re.sub(field, "pub(crate)", m.group(0), count=1)
    else:
        # A re-export and the item it re-exports.
        item_kind = r"(?:const\s+|unsafe\s+)?(?:fn|struct|enum|type|const|static|trait)"
        pattern = rf"{NARROW}(?=\s+{item_kind}\s+{word}\b|\s+use\s[^;]*\b{word}\b)"
        replace = lambda m: "pub(crate)"
    widened = False
    for directory, _, names in os.walk(dom):
        for file in names:
            path = os.path.join(directory, file)
            text = open(path, encoding="utf-8").read()
            new = re.sub(pattern, replace, text)
            if new != text:
                widened = True
                with open(path, "w", encoding="utf-8") as out:
                    out.write(new)
    if not widened:
        sys.exit(f"found no declaration of {item}")


def used_outside(tree):
    used = {}
    while True:
        clean, found, others = check(tree)
        new = {item: files for item, files in found.items() if item not in used}
        if clean or not new:
            if not clean:
                sys.exit("errors that widening does not mend:\n" + "".join(others[:5]))
            return used
        for item, files in new.items():
            used[item] = files
            widen(os.path.join(tree, "src", "dom"), item)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    with tempfile.TemporaryDirectory() as tree:
        copy_tree(args[0] if args else None, tree)
        declared = narrow(os.path.join(tree, "src", "dom"))
        used = used_outside(tree)
    print(f"pub(crate) items in src/dom: {declared}; used outside it: {len(used)}")
    kinds = {"fields": 0, "types and constants": 0, "functions and methods": 0}
    for kind, _, _ in used:
        if kind == "field":
            kinds["fields"] += 1
        elif kind.endswith("function") or kind == "method":
            kinds["functions and methods"] += 1
        else:
            kinds["types and constants"] += 1
    print("  " + ", ".join(f"{kind}: {count}" for kind, count in kinds.items()))
    files = {file for names in used.values() for file in names}
    print(f"  files outside src/dom using them: {len(files)}")
    if "--list" in sys.argv:
        for (kind, name, owner), files in sorted(used.items()):
            owned = f"{owner}::{name}" if owner else name
            print(f"  {kind} {owned}: {', '.join(sorted(files))}")


if __name__ == "__main__":
    main()
