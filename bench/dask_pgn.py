#!/usr/bin/env python3
# Arbiter — MIT licence, see LICENSE.
"""PGN at database scale: `arbiter pgn check` and the Dask stage (arbiter.dask) on a real file,
plain and compressed with zstd — throughput per core including decompression (MB of PGN text
per CPU-second: every process's user and system time, the driver's decompression, splitting
and shipping and the workers' reading), and the scaling from one worker to two (the speed with
two workers over twice the speed with one) — a plain file's pieces read by the workers from the
file (shared), or sent by the driver; the .zst's decompressed and sent.  Every run's report is compared with one `arbiter
pgn` process's before a time is believed.

usage: PYTHONPATH=SITE python3 bench/dask_pgn.py [--file F] [--arbiter PATH] [--runs N]
  F: default ../shared/data/pgn/real/lichess-jishanshaikh4-standard-14k.pgn (35 MB, when there)
  SITE: where the arbiter package is installed (scripts/python-install.sh with PYTHON_TARGET)
"""
import argparse
import io
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT = os.path.join(ROOT, "..", "shared", "data", "pgn", "real",
                       "lichess-jishanshaikh4-standard-14k.pgn")


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def worker_cpu():
    import resource as res
    r = res.getrusage(res.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def strip(text):
    return re.sub(rb"; [0-9.]+ MB in .*", b"", text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default=DEFAULT)
    ap.add_argument("--arbiter", default=os.path.join(ROOT, "build", "release", "arbiter"))
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--piece-mb", type=float, default=2)  # 17 pieces of the 35 MB file
    args = ap.parse_args()
    if not os.path.exists(args.file):
        print("bench/dask_pgn.py: skipped (%s is not here)" % args.file)
        return 0
    import distributed
    import zstandard
    import arbiter.dask
    from arbiter.pgn import Options

    tmp = tempfile.mkdtemp()
    zst = os.path.join(tmp, os.path.basename(args.file) + ".zst")
    with open(args.file, "rb") as f, open(zst, "wb") as out:
        zstandard.ZstdCompressor(level=3).copy_stream(f, out)
    mb = os.path.getsize(args.file) / 1e6
    print("%s: %.1f MB of PGN, %.1f MB as .zst (level 3); %d cores, load %.1f" % (
        os.path.basename(args.file), mb, os.path.getsize(zst) / 1e6, os.cpu_count(),
        os.getloadavg()[0]))

    reference = {}
    for name, path in (("plain", args.file), ("zstd", zst)):
        best_wall, best_cpu = float("inf"), float("inf")
        for _ in range(args.runs):
            c0, t0 = cpu_children(), time.perf_counter()
            r = subprocess.run([args.arbiter, "pgn", "check", path], capture_output=True)
            wall, cpu = time.perf_counter() - t0, cpu_children() - c0
            best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
        reference[name] = (r.returncode, strip(r.stdout), r.stderr)
        print("arbiter pgn check, %-5s  one process: %6.1f MB/s wall, %6.1f MB per CPU-second"
              % (name, mb / best_wall, mb / best_cpu))

    speeds = {}
    for workers in (1, 2):
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0",
                                           silence_logs=50)
        client = distributed.Client(cluster, direct_to_workers=True)
        for name, path, shared in (("plain", args.file, True), ("plain", args.file, False),
                                   ("zstd", zst, False)):
            best = (float("inf"), 0.0)  # (wall, CPU) of the fastest run
            for _ in range(args.runs):
                w0 = sum(client.run(worker_cpu).values())
                c0, t0 = cpu_self(), time.perf_counter()
                out, err = io.BytesIO(), io.BytesIO()
                rc = arbiter.dask.run(Options("check"), [path], client=client,
                                      piece_bytes=int(args.piece_mb * (1 << 20)), out=out,
                                      err=err, shared=shared)
                wall = time.perf_counter() - t0
                cpu = cpu_self() - c0 + sum(client.run(worker_cpu).values()) - w0
                assert (rc, strip(out.getvalue()), err.getvalue()) == reference[name], \
                    "the Dask stage's report differs from arbiter pgn's"
                best = min(best, (wall, cpu))
            how = name + (", read by the workers" if shared else ", sent")
            speeds[(workers, how)] = mb / best[0]
            print("Dask stage, %-28s %d worker%s: %6.1f MB/s wall, %6.1f MB per CPU-second "
                  "(driver and workers)" % (how, workers, " " if workers == 1 else "s",
                                            mb / best[0], mb / best[1]))
        client.close()
        cluster.close()
    for how in ("plain, read by the workers", "plain, sent", "zstd, sent"):
        s = speeds[(2, how)] / (2 * speeds[(1, how)])
        print("scaling from one worker to two, %-28s %.0f%% (goal: 90%%)" % (how + ":", 100 * s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
