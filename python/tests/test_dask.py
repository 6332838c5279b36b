# Arbiter — MIT licence, see LICENSE.
"""arbiter.dask on a local cluster of two worker processes against one `arbiter pgn` process:
check (text and JSON), convert to jsonl and pgn, filter with dedupe — on every PGN file of
tests/data (real games, damaged ones, other variants, CRLF, garbage) put together, plain (its
pieces sent to the workers, or read by them from the file), as zstd in two frames and as gzip
in two members, cut in many small pieces: the same output and
diagnostics byte for byte (the summary line's timing aside), the same exit status.  $ARBITER
names the command (tests/python.sh passes it)."""
import gzip
import io
import os
import subprocess
import sys

import pytest

import arbiter.pgn as pgn

ARBITER = os.environ.get("ARBITER")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(REPO, "tests", "data", "pgn")

if not ARBITER:
    pytest.skip("ARBITER (the arbiter command) is not set: tests/python.sh sets it",
                allow_module_level=True)
distributed = pytest.importorskip("distributed")
import arbiter.dask  # noqa: E402


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("pgn")
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(DATA) for f in fs
                   if f.endswith(".pgn"))
    data = b"".join(open(f, "rb").read() for f in files)
    assert len(files) > 50 and len(data) > 2000000
    plain = d / "all.pgn"
    plain.write_bytes(data)
    import zstandard
    half = len(data) // 2
    c = zstandard.ZstdCompressor()
    (d / "all.pgn.zst").write_bytes(c.compress(data[:half]) + c.compress(data[half:]))
    (d / "all.pgn.gz").write_bytes(gzip.compress(data[:half]) + gzip.compress(data[half:]))
    return d


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=50)
    c = distributed.Client(cluster, direct_to_workers=True)
    yield c
    c.close()
    cluster.close()


def without_timing(text: bytes) -> bytes:
    """The summary line without its '; X MB in S s (R MB/s)' or "seconds" (timing)."""
    import re
    text = re.sub(rb"; [0-9.]+ MB in [0-9.]+ s \([0-9.]+ MB/s\)", b"", text)
    return re.sub(rb'"seconds":[0-9.]+', b"", text)


def compare(client, args, options, path, piece_bytes=65536, shared=False):
    cmd = subprocess.run([ARBITER, "pgn"] + args + [str(path)], capture_output=True)
    out, err = io.BytesIO(), io.BytesIO()
    rc = arbiter.dask.run(options, [str(path)], client=client, piece_bytes=piece_bytes,
                          shared=shared, out=out, err=err)
    assert rc == cmd.returncode, (args, rc, cmd.returncode)
    assert without_timing(out.getvalue()) == without_timing(cmd.stdout), args
    assert without_timing(err.getvalue()) == without_timing(cmd.stderr), args
    return cmd


@pytest.mark.parametrize("shared", [False, True])  # pieces sent, or read by the workers
def test_check(client, inputs, shared):
    cmd = compare(client, ["check"], pgn.Options("check"), inputs / "all.pgn", shared=shared)
    assert cmd.returncode == 1 and cmd.stdout.count(b"\n") > 100  # problems reported


def test_check_json(client, inputs):
    compare(client, ["check", "--json"], pgn.Options("check", json=True), inputs / "all.pgn")


def test_convert_jsonl_from_zstd(client, inputs):
    cmd = compare(client, ["convert", "--to", "jsonl"], pgn.Options("convert", to="jsonl"),
                  inputs / "all.pgn.zst")
    assert cmd.stdout.count(b"\n") > 1000


def test_filter_from_gzip(client, inputs):
    compare(client, ["filter", "--min-elo", "1500", "--dedupe", "--to", "jsonl"],
            pgn.Options("filter", min_elo=1500, dedupe=True, to="jsonl"), inputs / "all.pgn.gz")


def test_convert_pgn_large_pieces(client, inputs):
    compare(client, ["convert", "--strict"], pgn.Options("convert", strict=True),
            inputs / "all.pgn", piece_bytes=1 << 20, shared=True)


def test_cli_and_a_missing_file(inputs, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-m", "arbiter.dask", "check", "-q",
                        str(tmp_path / "none.pgn"), str(inputs / "all.pgn.zst"), "--workers",
                        "2"], capture_output=True, env=env)
    cmd = subprocess.run([ARBITER, "pgn", "check", "-q", str(tmp_path / "none.pgn"),
                          str(inputs / "all.pgn.zst")], capture_output=True)
    assert r.returncode == cmd.returncode == 2
    assert r.stdout == cmd.stdout and r.stderr == cmd.stderr, r.stderr.decode()


def test_pieces_cut_at_game_boundaries(inputs):
    data = (inputs / "all.pgn").read_bytes()
    pieces = list(pgn.split(inputs / "all.pgn.zst", target=50000, max=400000))
    assert b"".join(p.data for p in pieces) == data
    line = 1
    for p in pieces:
        assert p.first_line == line
        line += p.data.count(b"\n")
    assert all(p.data.startswith(b"[Event ") for p in pieces[1:] if not pieces[0].forced)


def test_read_range_reads_in_blocks(inputs):
    # a worker reads its piece a block (1 MB) at a time: the same records as the piece's bytes
    # read at once, over several blocks and a part of one; a file shorter than the piece says
    # is an error, not a shorter piece
    path = inputs / "all.pgn"
    data = path.read_bytes()
    opts = pgn.Options("check")
    for offset, size in ((0, len(data)), (0, (1 << 20) + 12345), (len(data) - 700000, 700000)):
        got = pgn.read_range(opts, "all.pgn", str(path), offset, size, 1)
        want = pgn.read_piece(opts, "all.pgn", data[offset:offset + size], 1)
        assert got == want, (offset, size)
    with pytest.raises(OSError, match="the file changed"):
        pgn.read_range(opts, "all.pgn", str(path), len(data) - 100, 200, 1)
