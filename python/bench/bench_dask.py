"""The Dask example (python/examples/dask_check.py) timed on a generated
tree: one process with no Dask, a LocalCluster of two worker processes,
and the CLI (`xml5dom check -r`, one job and the default), for the figure
in docs/python.md ("Many files on Dask").

    PYTHONPATH=python/python python python/bench/bench_dask.py [COUNT] [RUNS] [KB]

COUNT files (default 4000) are written by python/tests/dask_tree.py into a
temporary directory, as the test's tree (documents of a few hundred bytes);
with KB, COUNT files of records of about KB kilobytes each instead (every
fifth cut short, so not well-formed). Each timing is the median of RUNS
(default 3) wall times. The cluster's start-up is timed apart from its runs.
"""

import importlib.util
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "python" / "tests"))
import dask_tree  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "dask_check", REPOSITORY / "python" / "examples" / "dask_check.py"
)
dask_check = importlib.util.module_from_spec(spec)
sys.modules["dask_check"] = dask_check
spec.loader.exec_module(dask_check)


def write_records(root, count, kilobytes):
    record = '<record id="%d"><name>name %d</name><value>%d &amp; more</value></record>\n'
    for n in range(count):
        directory = os.path.join(root, "d%02d" % (n % 20))
        os.makedirs(directory, exist_ok=True)
        parts = ["<records>\n"]
        size = 0
        i = 0
        while size < kilobytes * 1000:
            parts.append(record % (i, i, i))
            size += len(parts[-1])
            i += 1
        text = "".join(parts) + "</records>\n"
        if n % 5 == 0:
            text = text[: len(text) // 2]
        with open(os.path.join(directory, "%05d.xml" % n), "w") as file:
            file.write(text)


def median_time(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    kilobytes = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as root:
        if kilobytes:
            write_records(root, count, kilobytes)
        else:
            dask_tree.write_tree(root, count)
        paths = dask_check.find_xml_files(root)
        size = sum(os.path.getsize(p) for p in paths if os.path.isfile(p))
        print("%d files, %.1f MB, median of %d runs" % (len(paths), size / 1e6, runs))

        single = median_time(runs, lambda: dask_check.check_batch(paths, root))
        print("one process, no Dask:          %6.2f s" % single)

        start = time.perf_counter()
        cluster = LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
        print("LocalCluster start-up:         %6.2f s" % (time.perf_counter() - start))
        try:
            for batch in (1, 8) if kilobytes else (64, 1):
                took = median_time(
                    runs, lambda: dask_check.check_tree(root, client, batch=batch)
                )
                print(
                    "LocalCluster, 2 workers, batch %2d: %6.2f s (%.2fx one process)"
                    % (batch, took, single / took)
                )
        finally:
            client.close()
            cluster.close()

        cli = os.environ.get("XML5DOM_CLI") or str(REPOSITORY / "target" / "release" / "xml5dom")
        if os.path.exists(cli):
            for jobs in ("1", "2"):
                took = median_time(
                    runs,
                    lambda: subprocess.run(
                        [cli, "check", "-q", "--format", "json", "-j", jobs, "-r", root],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    ),
                )
                print("xml5dom check -r -j %s:          %6.2f s" % (jobs, took))


if __name__ == "__main__":
    main()
