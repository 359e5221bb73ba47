"""The Dask example (python/examples/dask_check.py, issue 33) on a
LocalCluster of two worker processes, over a generated tree of a few
hundred files (dask_tree.py), against the single-process CLI:
`xml5dom check --format json -r` must give, file by file, the same errors
(code, severity, line, column, offset, message) in the same order."""

import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("dask")
pytest.importorskip("distributed")

from conftest import REPOSITORY  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import dask_tree  # noqa: E402

FILE_COUNT = 300


def _load_example():
    path = REPOSITORY / "python" / "examples" / "dask_check.py"
    spec = importlib.util.spec_from_file_location("dask_check", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["dask_check"] = module
    spec.loader.exec_module(module)
    return module


dask_check = _load_example()


def _cli():
    """The built CLI, or None."""
    given = os.environ.get("XML5DOM_CLI")
    if given:
        return given
    built = REPOSITORY / "target" / "release" / "xml5dom"
    return str(built) if built.exists() else None


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("tree")
    taken = dask_tree.write_tree(str(root), FILE_COUNT)
    return str(root), taken


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=None,
    )
    client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture(scope="module")
def run(tree, client):
    """The rows of the generated tree, and the workers that ran each task."""
    from distributed import get_task_stream

    root, _ = tree
    # Small batches: more tasks than workers, so both share the work.
    with get_task_stream(client) as stream:
        rows = dask_check.check_tree(root, client, batch=16, keep_log=True)
    # Tasks are keyed (name, partition); their names depend on how Dask
    # fuses the graph, so only the partitions and workers are checked.
    return rows, {
        (task["key"][1], task["worker"])
        for task in stream.data
        if "check_batch" in str(task["key"][0])
    }


@pytest.fixture(scope="module")
def rows(run):
    return run[0]


def test_walk_takes_the_files_the_cli_takes(tree, rows):
    root, taken = tree
    assert sorted(row["path"] for row in rows) == sorted(taken)
    assert [row["path"] for row in rows] == dask_check.find_xml_files(root)
    # Files of a directory before its subdirectories', in name order.
    assert rows[0]["path"].startswith(os.path.join(root, "0"))
    # The directory named x.xml was walked into, not taken.
    assert any("x.xml" + os.sep in row["path"] for row in rows)


def test_both_workers_worked(client, run):
    # 303 files in batches of 16: 19 partitions, shared by the two worker
    # processes of the cluster.
    rows, tasks = run
    assert len(rows) == FILE_COUNT + 3
    assert {partition for partition, _ in tasks} == set(range(19))
    assert {worker for _, worker in tasks} == set(client.scheduler_info()["workers"])


def test_rows_against_the_cli(tree, rows):
    cli = _cli()
    if cli is None:
        pytest.skip(
            "no CLI: build it (cargo build --release) or set XML5DOM_CLI "
            "to compare with `xml5dom check --format json -r`"
        )
    root, _ = tree
    run = subprocess.run(
        [cli, "check", "--format", "json", "--summary", "always", "-q", "-r", root],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # 2: a file could not be read (the others were still checked).
    assert run.returncode == 2, run.stderr
    by_file = {}
    order = []
    for line in run.stdout.splitlines():
        error = json.loads(line)
        if error["file"] not in by_file:
            order.append(error["file"])
            by_file[error["file"]] = []
        by_file[error["file"]].append(
            {key: error[key] for key in ("code", "severity", "line", "column", "offset", "message")}
        )
    # The CLI names the files it could not read on standard error only.
    unreadable_by_cli = [
        line.split("cannot read ", 1)[1].split(": ", 1)[0]
        for line in run.stderr.splitlines()
        if "cannot read " in line
    ]
    assert unreadable_by_cli == [row["path"] for row in rows if not row["readable"]]
    # The CLI's totals, from the rows (the generated tree has more than
    # one of each, so every noun is plural).
    readable = [row for row in rows if row["readable"]]
    summary = "checked %d files: %d errors in %d files, %d warnings, %d limits reached; %d could not be checked" % (
        len(readable),
        sum(row["errors"] for row in readable),
        sum(row["errors"] > 0 for row in readable),
        sum(row["warnings"] for row in readable),
        sum(row["limits"] for row in readable),
        len(rows) - len(readable),
    )
    assert summary in run.stderr.splitlines()

    assert order == [row["path"] for row in readable if row["log"]]
    for row in readable:
        cli_log = by_file.get(row["path"], [])
        assert len(row["log"]) == len(cli_log), row["path"]
        for ours, theirs in zip(row["log"], cli_log):
            position = ("code", "severity", "line", "column", "offset")
            assert [ours[k] for k in position] == [theirs[k] for k in position], row["path"]
            if ours["severity"] == "limit":
                # The CLI adds the limit's value and the flags that raise it.
                assert theirs["message"].startswith(ours["message"] + " (the limit is "), row["path"]
            else:
                assert ours["message"] == theirs["message"], row["path"]


def test_rows_say_what_each_file_is(rows):
    by_name = {os.path.basename(row["path"]): row for row in rows}
    for name, row in by_name.items():
        if name == "unreadable.xml":
            assert not row["readable"]
            assert "FileNotFoundError" in row["read_error"]
            assert row["well_formed"] is None and row["errors"] == 0
            continue
        assert row["readable"] and row["read_error"] is None
        log = row["log"]
        for severity in ("error", "warning", "limit"):
            assert row[severity + "s"] == sum(e["severity"] == severity for e in log)
        assert row["well_formed"] == (row["errors"] == 0 and row["limits"] == 0)
        first = next((e for e in log if e["severity"] != "warning"), None)
        assert (row["first_code"], row["first_line"], row["first_column"]) == (
            (first["code"], first["line"], first["column"]) if first else (None, None, None)
        )
        kind = name.split("-", 1)[1]
        if kind.startswith(("plain", "namespaced", "cdata", "entities", "crlf", "deep")) and not (
            kind.endswith("cp1252-as-utf8." + name.rsplit(".", 1)[1])
        ):
            assert row["well_formed"], name
        if "-laughs-" in name and "cp1252" not in name and "latin-1" not in name:
            assert row["limits"] == 1 and not row["well_formed"], name
        if "-control-reference-" in name and "cp1252" not in name and "latin-1" not in name:
            assert row["warnings"] >= 1 and row["errors"] == 0, name
        if "utf-16le" in name:  # declared UTF-16, with a little-endian BOM
            assert row["encoding"] == "UTF-16", name
        if "utf-16be" in name:  # a big-endian BOM, no declaration
            assert row["encoding"] == "UTF-16BE", name
        if "latin-1" in name:
            assert row["encoding"] == "ISO-8859-1" and row["well_formed"], name
        if "cp1252-as-utf8" in name:
            assert row["encoding"] == "UTF-8" and row["first_code"] == "windows-1252-in-utf-8", name
        if "-mismatched-utf-8." in name:
            assert (row["first_code"], row["first_line"], row["first_column"]) == (
                "mismatched-end-tag",
                2,
                8 + len(name.split("-", 1)[0].lstrip("0") or "0") + 1,
            ), name


def test_repair_and_xpath(tmp_path, client):
    from xml5dom import etree

    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "broken.xml").write_bytes(b"<a>\n<b>text</a>")
    (root / "good.xml").write_bytes(b"<a><b>one</b><b>two</b></a>")
    os.symlink("nothing.xml", root / "gone.xml")
    out = tmp_path / "out"
    rows = dask_check.check_tree(str(root), client, repair_to=str(out), xpath="//b/text()")
    by_name = {os.path.basename(row["path"]): row for row in rows}
    assert [os.path.basename(row["path"]) for row in rows] == ["gone.xml", "good.xml", "broken.xml"]
    assert by_name["gone.xml"]["readable"] is False and by_name["gone.xml"]["xpath"] is None
    assert by_name["good.xml"]["repaired"] is None
    assert by_name["good.xml"]["xpath"] == ["one", "two"]
    assert by_name["broken.xml"]["xpath"] == ["text"]
    repaired = out / "sub" / "broken.xml"
    assert by_name["broken.xml"]["repaired"] == str(repaired)
    assert repaired.read_bytes() == b"<a>\n<b>text</b></a>"
    assert etree.parse(str(repaired)).is_well_formed
    assert not (out / "good.xml").exists()

    # Into the input tree itself: beside the input, never over it.
    rows = dask_check.check_tree(str(root), client, repair_to=str(root))
    beside = root / "sub" / "broken.repaired.xml"
    assert [row["repaired"] for row in rows] == [None, None, str(beside)]
    assert (root / "sub" / "broken.xml").read_bytes() == b"<a>\n<b>text</a>"
    assert beside.read_bytes() == b"<a>\n<b>text</b></a>"

    # An expression that does not compile fails before any work is sent.
    with pytest.raises(etree.XPathError):
        dask_check.check_tree(str(root), client, xpath="//[")

    # Elements come back as their serialization.
    rows = dask_check.check_tree(str(root / "sub"), client, xpath="//b")
    assert rows[0]["xpath"] == ["<b>text</b>"]


def test_without_a_client(tmp_path, client):
    # No client given: the one made last (the fixture's) does the work.
    (tmp_path / "bad.xml").write_bytes(b"<a>&</a>")
    rows = dask_check.check_tree(str(tmp_path))
    assert [(row["first_code"], row["first_column"]) for row in rows] == [("bare-ampersand", 4)]


def test_table_without_and_with_pandas(rows):
    try:
        import pandas  # noqa: F401
    except ImportError:
        assert dask_check.rows_to_dataframe(rows) is None
        return
    table = dask_check.rows_to_dataframe(rows)
    assert list(table["path"]) == [row["path"] for row in rows]


def test_command_line_on_a_local_cluster(tmp_path):
    root = tmp_path / "in"
    root.mkdir()
    (root / "good.xml").write_bytes(b"<a/>")
    (root / "bad.xml").write_bytes(b"<a>")
    out = tmp_path / "rows.jsonl"
    run = subprocess.run(
        [sys.executable, str(REPOSITORY / "python" / "examples" / "dask_check.py"), str(root),
         "--workers", "1", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stderr
    assert "checked 2 files: 1 not well-formed, 0 unreadable" in run.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(os.path.basename(r["path"]), r["well_formed"], r["first_code"]) for r in lines] == [
        ("bad.xml", False, lines[0]["first_code"]),
        ("good.xml", True, None),
    ]
    assert lines[0]["first_code"]
