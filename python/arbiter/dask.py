# Arbiter — MIT licence, see LICENSE.
"""`arbiter pgn check|convert|filter` across a Dask cluster: big PGN files (plain, .pgn.zst,
.pgn.gz) cut at game boundaries, the pieces read by the cluster's workers, the output put
together in input order — the same bytes as one `arbiter pgn` process (docs/dask.md).

    python3 -m arbiter.dask check lichess_db_standard_rated_2024-01.pgn.zst --scheduler tcp://HOST:8786
    python3 -m arbiter.dask convert --to jsonl games.pgn.gz --workers 4 >games.jsonl

The driver (this process) reads and decompresses the input, cuts it with the library's
splitter (arb_pgn_splitter, as `arbiter pgn -j`) into pieces of about --piece-mb megabytes,
and sends each to a worker, which reads it with the library's job (arb_pgn_job: every game
replayed under the full rules, the command's reports and conversions) and sends back its
records; the driver's ordered output (arb_pgn_output) numbers the games across pieces and
writes them in order.  At most a few pieces per worker are in flight: the driver's memory stays
bounded, whatever the file's size.  The workers need the arbiter package (built on each
machine: `make python`) and dask; the input is read by the driver only.
"""
import argparse
import collections
import logging
import os
import sys
import time
from typing import List, Optional, Sequence

from . import ArbiterError
from .pgn import Options, Output, compression, read_piece, read_range, split

__all__ = ["run", "main", "PIECE_BYTES"]

PIECE_BYTES = 8 << 20


def _input_error(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or e.__class__.__name__


def run(options: Options, paths: Sequence[str], *, client, piece_bytes: int = PIECE_BYTES,
        in_flight: Optional[int] = None, shared: bool = False, out=None, err=None) -> int:
    """Reads paths ("-": stdin) as `arbiter pgn` with options does, on client's workers;
    writes the output to out and the diagnostics and errors to err (binary files; default
    stdout and stderr).  With shared, the workers see the same files at the same paths (one
    machine, or a shared file system): the driver only finds where the pieces of a plain file
    are, and each worker reads its piece from the file; compressed files and stdin are always
    decompressed by the driver and their pieces sent.  Returns the command's exit status: 0
    clean, 1 a problem was found, 2 an input could not be read."""
    out = out or sys.stdout.buffer
    err = err or sys.stderr.buffer
    workers = max(len(client.scheduler_info().get("workers", {})), 1)
    in_flight = in_flight or 3 * workers
    output = Output(options.dedupe, options.json)
    t0 = time.perf_counter()
    bad_input = False
    pending = collections.deque()

    def emit_one():
        records, stats = pending.popleft().result()
        o, e = output.add(records, stats)
        out.write(o)
        err.write(e)

    for path in paths or ["-"]:
        shown = "<stdin>" if path == "-" else path
        output.file()
        try:
            ranges = shared and path != "-" and compression(path) == "plain"
            for piece in split(path, target=piece_bytes, max=8 * piece_bytes,
                               keep_data=not ranges):
                if ranges:
                    pending.append(client.submit(read_range, options, shown,
                                                 os.path.abspath(path), piece.offset,
                                                 piece.size, piece.first_line, pure=False))
                else:
                    # the bytes go to a worker straight, not through the task graph
                    data = client.scatter(piece.data, hash=False)
                    pending.append(client.submit(read_piece, options, shown, data,
                                                 piece.first_line, pure=False))
                while len(pending) >= in_flight:
                    emit_one()
        except (OSError, EOFError, ValueError, ArbiterError) as e:
            while pending:
                emit_one()
            out.flush()
            err.write(("arbiter pgn: %s: %s\n" % (shown, _input_error(e))).encode())
            bad_input = True
        except Exception as e:  # a decompressor's own error (zstandard.ZstdError, ...)
            if e.__class__.__module__.split(".")[0] not in ("zstandard", "gzip", "zlib"):
                raise
            while pending:
                emit_one()
            err.write(("arbiter pgn: %s: %s\n" % (shown, _input_error(e))).encode())
            bad_input = True
        while pending:
            emit_one()
    seconds = time.perf_counter() - t0
    out.flush()
    stats, _, duplicates = output.totals()
    summary = output.summary(seconds).encode()
    if not options.quiet and (options.command == "check" or stats["errors"]):
        (out if options.command == "check" else err).write(summary)
    if options.command != "check" and options.dedupe and not options.quiet and duplicates:
        err.write(b"%d duplicate games dropped\n" % duplicates)
    out.flush()
    err.flush()
    if bad_input:
        return 2
    return 1 if stats["errors"] else 0


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python3 -m arbiter.dask",
        description="arbiter pgn check|convert|filter across a Dask cluster: the input cut at "
                    "game boundaries, the pieces read by the workers, the output in input order "
                    "(the same bytes as arbiter pgn).")
    ap.add_argument("command", choices=("check", "convert", "filter"))
    ap.add_argument("files", nargs="*", metavar="FILE", help="PGN files (.pgn, .pgn.zst, "
                    ".pgn.gz); none or '-': stdin")
    where = ap.add_argument_group("the cluster")
    where.add_argument("--scheduler", metavar="ADDR",
                       help="a running scheduler (tcp://HOST:8786); without it a local cluster")
    where.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                       help="the local cluster's worker processes (default: one per core)")
    where.add_argument("--shared", action="store_true",
                       help="the workers see the input files at the same paths (a shared file "
                            "system): they read their pieces of plain files themselves (always "
                            "so on a local cluster)")
    where.add_argument("--piece-mb", type=float, default=PIECE_BYTES / (1 << 20), metavar="MB",
                       help="piece size (default %(default)s)")
    a = ap.add_argument_group("arbiter pgn's options")
    a.add_argument("--to", choices=("pgn", "uci", "lan", "fen", "jsonl"))
    for flag in ("--json", "--strict", "--allow-null", "--no-result-check", "--no-comments",
                 "--no-variations", "--no-nags", "--tree", "--dedupe", "--setup", "--no-setup"):
        a.add_argument(flag, action="store_true")
    a.add_argument("-q", "--quiet", action="store_true")
    a.add_argument("--rules", default="fide")
    for opt in ("--white", "--black", "--player", "--result", "--date-from", "--date-to",
                "--eco", "--position", "--key"):
        a.add_argument(opt)
    a.add_argument("--min-elo", type=int, default=0)
    a.add_argument("--max-elo", type=int, default=0)
    a.add_argument("--tag", action="append", default=[], metavar="NAME=VALUE")
    return ap


def options_of(ns) -> Options:
    tags = {}
    for t in ns.tag:
        name, eq, value = t.partition("=")
        if not eq or not name:
            raise ValueError("--tag wants NAME=VALUE (at most 16)")
        tags.setdefault(name, value)
    setup = True if ns.setup else (False if ns.no_setup else None)
    key = int(ns.key, 16) if ns.key is not None else None
    return Options(ns.command, to=ns.to, json=ns.json, strict=ns.strict,
                   allow_null=ns.allow_null, no_result_check=ns.no_result_check, rules=ns.rules,
                   no_comments=ns.no_comments, no_variations=ns.no_variations,
                   no_nags=ns.no_nags, tree=ns.tree, quiet=ns.quiet, white=ns.white,
                   black=ns.black, player=ns.player, result=ns.result,
                   date_from=ns.date_from, date_to=ns.date_to, min_elo=ns.min_elo,
                   max_elo=ns.max_elo, eco=ns.eco, tags=tags, setup=setup,
                   position=ns.position, key=key, dedupe=ns.dedupe)


def main(argv: Optional[List[str]] = None) -> int:
    ns = _parser().parse_intermixed_args(argv)
    try:
        options = options_of(ns)
    except ValueError as e:
        print("arbiter pgn: %s" % e, file=sys.stderr)
        return 2
    import distributed
    if ns.scheduler:
        # pieces go from the driver to the workers straight, not through the scheduler
        client = distributed.Client(ns.scheduler, direct_to_workers=True)
        cluster = None
    else:
        # its logging kept quiet: stderr is arbiter pgn's (its diagnostics and summary)
        cluster = distributed.LocalCluster(n_workers=ns.workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0",
                                           silence_logs=logging.CRITICAL)
        client = distributed.Client(cluster, direct_to_workers=True)
    try:
        return run(options, ns.files, client=client, piece_bytes=int(ns.piece_mb * (1 << 20)),
                   shared=ns.shared or cluster is not None)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    sys.exit(main())
