# Arbiter — MIT licence, see LICENSE.
# The package under test is the one on sys.path: tests/python.sh installs it into a scratch
# directory with pip and puts that first (make test); by hand, after `make python`, plain pytest.
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
