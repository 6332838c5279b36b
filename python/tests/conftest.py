# Arbiter — MIT licence, see LICENSE.
# The package under test is the one on sys.path: tests/python.sh installs it into a scratch
# directory with pip and puts that first (make test); by hand, after `make python`, plain pytest.
import ctypes
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture
def data():
    return lambda name: os.path.join(HERE, name)


def python_chess():
    """python-chess from $PYTHON_CHESS (its source, fetched outside the tree), or None."""
    path = os.environ.get("PYTHON_CHESS")
    if not path:
        return None
    sys.path.insert(0, path)
    import chess  # noqa: E402
    import chess.pgn  # noqa: E402,F401
    return chess


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def c_heap_bytes():
    """Bytes the C heap has handed out and not taken back (glibc's mallinfo2: small blocks in
    use plus mmapped ones): what C objects hold, freed or not, whether touched or not."""
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _Mallinfo2
    m = libc.mallinfo2()
    return m.uordblks + m.hblkhd
