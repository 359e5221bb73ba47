"""Check a large tree of XML files with xml5dom on Dask (issue 33).

The recipe
==========

Files are the unit of work: this script lists the XML files under a
directory (the rule of ``xml5dom check -r``), hands them to Dask in
batches, parses each with ``xml5dom.etree.parse`` on a worker, and gathers
one row per file into a table.

On this machine, a ``LocalCluster`` (two worker processes)::

    pip install ./python "dask[distributed]"
    python python/examples/dask_check.py exports/ --json rows.jsonl

On a real cluster, the same script, given the address of a scheduler you
already run (``dask scheduler``, dask-jobqueue, dask-kubernetes, Coiled,
...)::

    python python/examples/dask_check.py /shared/exports \\
        --scheduler tcp://scheduler:8786 --json rows.jsonl

Every worker needs ``xml5dom`` installed (``pip install xml5dom`` in the
worker image) and must see the files at the same paths as the client (a
shared file system): the client lists the tree, the workers read the
files. This module need not be installed there: run as a script, its
functions travel to the workers by value; imported (``check_tree`` from
your own code, with a client), it is sent to them with
``client.upload_file``.

Options: ``--repair-to OUT`` writes the repaired output of each file that
is not well-formed to ``OUT`` under the file's path relative to the
directory (``OUT`` may be the directory itself: a repaired copy is then
written beside its input as ``NAME.repaired.EXT``; an input is never
overwritten); ``--xpath EXPR`` adds what the expression gives in each
file; ``--batch N`` sets the files per task (default 64).

A row (a dict; ``rows_to_dataframe`` makes a pandas DataFrame of the rows
when pandas is installed, and pandas is not needed otherwise):

``path``
    the file, as listed (the directory joined with its relative path);
``readable``
    ``False`` when the file could not be read (a dangling link, no
    permission, gone since the listing): ``read_error`` says why and the
    other fields are empty. Such a file is a row, never a failed task.
``well_formed``
    the document was well-formed and read whole (no error, no limit);
``encoding``
    the encoding it was read in (``UTF-8``, ``UTF-16``, ``ISO-8859-1``, ...);
``errors``, ``warnings``, ``limits``
    how many entries of each severity the parse logged;
``first_code``, ``first_line``, ``first_column``
    the first error or limit (warnings aside), or ``None``;
``repaired``
    with ``--repair-to``: the path the repaired output was written to,
    or ``None`` (well-formed: nothing to repair); ``repair_error`` says
    why it could not be written;
``xpath``
    with ``--xpath``: the result, a list of strings for a node-set
    (an element as its serialization, text and attribute values as
    they are), or a number, string or boolean; ``xpath_error`` says why
    it could not be evaluated on this file;
``log``
    with ``keep_log=True`` (not from the command line): every entry of
    the parse's error log as a dict (code, severity, line, column,
    offset, message), in source order.

Decisions
=========

*Batches, not one task per file.* A Dask task costs the scheduler about a
millisecond and some memory; a typical XML file parses in less. One task
per file makes the scheduler the bottleneck for millions of small files
(and a graph of millions of keys); a batch of 64 files is a task of tens
of milliseconds, which keeps the workers busy and the graph small, while
there are still many more batches than workers to balance large files
over. For trees of few but very large files, ``--batch 1``.

*Repaired output is written by the worker*, next to where it was read
(``--repair-to``): file contents never travel through the scheduler, only
rows do.

*Not done here*: no scheduler of our own (Dask's, local or given), no I/O
beyond listing the directory, reading the files listed and writing the
repaired files asked for. A parse reads a file whole (``xml5dom check``
streams); the memory of a worker is that of its largest file.
"""

import argparse
import json
import os
import sys
import warnings

# The extensions ``xml5dom check -r`` takes (cli/src/runner/inputs.rs,
# XML_EXTENSIONS), compared in lower case.
XML_EXTENSIONS = frozenset(
    "xml svg xhtml rss atom xsl xslt xsd kml gpx plist opf xlf resx csproj".split()
)

DEFAULT_BATCH = 64


def find_xml_files(directory):
    """The XML files under ``directory``, in the order ``xml5dom check -r``
    takes them: the files of a directory in name order (by bytes), then its
    subdirectories, depth first, in name order. Links to directories are
    followed, each directory read once; a link named ``*.xml`` that leads nowhere is listed (its row
    will say it cannot be read), and so is a directory that cannot be
    listed (the CLI reports it too)."""
    found = []
    pending = [os.fspath(directory)]
    # Each directory once, where the walk first meets it (by its real
    # path): two links to a parent would otherwise double the walk at every
    # level.
    read = set()
    while pending:
        current = pending.pop()
        real = os.path.realpath(current)
        if real in read:
            continue
        read.add(real)
        try:
            with os.scandir(current) as listing:
                entries = list(listing)
        except OSError:
            found.append(current)
            continue
        entries.sort(key=lambda entry: os.fsencode(entry.name))
        subdirectories = []
        for entry in entries:
            try:
                is_directory = entry.is_dir()
            except OSError:
                is_directory = False
            if is_directory:
                subdirectories.append(entry.path)
            elif _has_xml_extension(entry.name):
                found.append(entry.path)
        pending.extend(reversed(subdirectories))
    return found


def _has_xml_extension(name):
    # Rust's Path::extension: after the last dot, unless the name is
    # `..` or the dot is its first character (`.xml` has none).
    dot = name.rfind(".")
    if name == ".." or dot <= 0:
        return False
    return name[dot + 1 :].lower() in XML_EXTENSIONS


def check_file(path, root=None, repair_to=None, xpath=None, keep_log=False):
    """Parse one file and return its row (see the module's docstring).
    Never raises for the file's sake: a file that cannot be read, or any
    other failure, is a row that says so."""
    from xml5dom import etree

    row = {
        "path": path,
        "readable": True,
        "read_error": None,
        "well_formed": None,
        "encoding": None,
        "errors": 0,
        "warnings": 0,
        "limits": 0,
        "first_code": None,
        "first_line": None,
        "first_column": None,
        "repaired": None,
    }
    if xpath is not None:
        row["xpath"] = None
        row["xpath_error"] = None
    if repair_to is not None:
        row["repair_error"] = None
    if keep_log:
        row["log"] = []
    try:
        tree = etree.parse(path)
    except OSError as error:
        row["readable"] = False
        row["read_error"] = "%s: %s" % (type(error).__name__, error.strerror or error)
        return row
    log = list(tree.error_log)
    row["well_formed"] = tree.is_well_formed
    row["encoding"] = tree.docinfo.encoding
    for entry in log:
        row[entry.severity + "s"] += 1
    first = next((entry for entry in log if entry.severity != "warning"), None)
    if first is not None:
        row["first_code"] = first.code
        row["first_line"] = first.line
        row["first_column"] = first.column
    if keep_log:
        row["log"] = [
            {
                "code": entry.code,
                "severity": entry.severity,
                "line": entry.line,
                "column": entry.column,
                "offset": entry.offset,
                "message": entry.message,
            }
            for entry in log
        ]
    if xpath is not None:
        try:
            row["xpath"] = _plain(tree.xpath(xpath), etree)
        except etree.XPathError as error:
            row["xpath_error"] = str(error)
    if repair_to is not None and not row["well_formed"]:
        try:
            row["repaired"] = _write_repaired(tree, path, root, repair_to, etree)
        except OSError as error:
            row["repair_error"] = "%s: %s" % (type(error).__name__, error)
    return row


def _plain(result, etree):
    """An XPath result as plain data, for a table and for JSON."""
    if not isinstance(result, list):
        return result
    return [
        etree.tostring(item, encoding="unicode", with_tail=False)
        if etree.iselement(item)
        else item if isinstance(item, str) else list(item)
        for item in result
    ]


def repaired_path(path, root, repair_to):
    """Where the repaired output of ``path`` goes: ``repair_to`` under the
    path relative to ``root``; in the input tree itself, ``NAME.repaired.EXT``
    beside the input, so that no input is overwritten."""
    relative = os.path.relpath(path, root)
    target = os.path.join(repair_to, relative)
    if os.path.abspath(target) == os.path.abspath(path):
        stem, extension = os.path.splitext(target)
        target = stem + ".repaired" + extension
    return target


def _write_repaired(tree, path, root, repair_to, etree):
    target = repaired_path(path, root, repair_to)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    # The repairs are the point here: the warning that lists them is not
    # news (the row counts the parse's errors).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", etree.XMLRepairWarning)
        output = etree.tostring(tree)
    with open(target, "wb") as file:
        file.write(output)
    return target


def check_batch(paths, root=None, repair_to=None, xpath=None, keep_log=False):
    """The rows of a batch of files, in order."""
    return [check_file(path, root, repair_to, xpath, keep_log) for path in paths]


def check_tree(
    directory,
    client=None,
    repair_to=None,
    xpath=None,
    batch=DEFAULT_BATCH,
    keep_log=False,
):
    """Check every XML file under ``directory`` on Dask and return the rows,
    one per file, in the order of ``find_xml_files``.

    ``client`` is a ``distributed.Client`` (the work goes to its cluster);
    without one, the client made last in this process if there is one,
    else Dask's local scheduler (threads, in this process). An XPath
    expression that does not compile raises here, before any work is
    sent."""
    import dask.bag

    if xpath is not None:
        _compile_check(xpath)
    paths = find_xml_files(directory)
    if not paths:
        return []
    batches = dask.bag.from_sequence(paths, partition_size=batch)
    rows = batches.map_partitions(
        check_batch,
        root=os.fspath(directory),
        repair_to=repair_to,
        xpath=xpath,
        keep_log=keep_log,
    )
    if client is None:
        client = _default_client()
    if client is None:
        return rows.compute()
    _ship_this_module(client)
    return client.compute(rows).result()


def _default_client():
    try:
        from distributed import default_client

        return default_client()
    except (ImportError, ValueError):
        return None


def _compile_check(xpath):
    from xml5dom import etree

    etree.fromstring("<x/>").xpath(xpath)


def rows_to_dataframe(rows):
    """The rows as a pandas DataFrame, or ``None`` when pandas is not
    installed."""
    try:
        import pandas
    except ImportError:
        return None
    return pandas.DataFrame(rows)


def _ship_this_module(client):
    # Run as a script, the functions of this module are pickled by value
    # (they live in __main__); imported, they are pickled by reference,
    # and workers that do not have this module could not load them.
    if __name__ != "__main__":
        client.upload_file(__file__)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Check the XML files under DIR with xml5dom on Dask."
    )
    parser.add_argument("directory", metavar="DIR")
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a running scheduler (tcp://host:8786); default: a LocalCluster here",
    )
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers")
    parser.add_argument("--repair-to", metavar="DIR")
    parser.add_argument("--xpath", metavar="EXPR")
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, metavar="N")
    parser.add_argument("--json", metavar="OUT", help="write the rows, one JSON object a line")
    arguments = parser.parse_args(argv)
    if arguments.batch < 1:
        parser.error("--batch must be at least 1")

    from distributed import Client, LocalCluster

    cluster = None
    if arguments.scheduler is None:
        cluster = LocalCluster(
            n_workers=arguments.workers, threads_per_worker=1, processes=True
        )
        client = Client(cluster)
    else:
        client = Client(arguments.scheduler)
    try:
        rows = check_tree(
            arguments.directory,
            client,
            repair_to=arguments.repair_to,
            xpath=arguments.xpath,
            batch=arguments.batch,
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    unreadable = sum(not row["readable"] for row in rows)
    broken = sum(row["readable"] and not row["well_formed"] for row in rows)
    print(
        "checked %d files: %d not well-formed, %d unreadable"
        % (len(rows), broken, unreadable),
        file=sys.stderr,
    )
    table = rows_to_dataframe(rows)
    if table is not None and not arguments.json:
        print(table.to_string())
    return 2 if unreadable else 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
