/* Arbiter — MIT licence, see LICENSE.
 *
 * shim_board.c: the Python Board's hot calls, as a small CPython module (arbiter._board) in the
 * same shared library as the cffi module (PEP 489: a library may hold several modules; the
 * package loads this one with importlib from the cffi module's file, so both use one copy of
 * the library).  A call from Python through cffi costs more than the work of most of these —
 * argument conversion, the GIL released and taken back, the result turned into Python objects
 * one by one — so here each is one C function that builds its Python answer directly and keeps
 * the GIL (they take microseconds; perft, winnability and PGN files go through cffi, which
 * releases it).  No rule is decided here: each function only chains the library's public calls.
 *
 * Arguments: g is the address of the Board's arb_game (an int: the Board owns the game through
 * cffi and keeps it alive while it calls these); a move is given as Python's Move holds it,
 * key = from | to << 6 | promo << 12 (castling as the king's two squares or king-takes-rook;
 * promo ARB_KNIGHT .. ARB_QUEEN or 0), key 0 the null move; table is the Board's tuple of Move
 * objects indexed by the library's move codes.  Results: a move code (>= 0) or a negative
 * arb_status, so that the package raises its own exceptions with the library's messages.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "arbiter/arbiter.h"
#include "shim.h"

/* The legal move of key in pos: its code, or ARB_ERR_MOVE_ILLEGAL.  The code a normal move or
 * a promotion has is tried first (arb_is_legal checks it exactly as the generator would encode
 * it); en passant, castling and anything illegal go through arb_move_from_squares, which looks
 * at every legal move. */
static int code_of(const arb_position *pos, unsigned key) {
  if (key == 0) return ARB_MOVE_NULL; /* from a1 to a1, no promotion */
  arb_square from = (arb_square)(key & 63), to = (arb_square)(key >> 6 & 63);
  int promo = (int)(key >> 12);
  if (promo > ARB_QUEEN || (promo && promo < ARB_KNIGHT)) return ARB_ERR_MOVE_ILLEGAL;
  arb_move m =
      promo ? ARB_MOVE_MAKE_SPECIAL(from, to, ARB_MOVE_PROMOTION, promo) : ARB_MOVE_MAKE(from, to);
  if (arb_is_legal(pos, m)) return m;
  arb_status st = arb_move_from_squares(pos, from, to, promo, &m);
  return st == ARB_OK ? (int)m : (int)ARB_ERR_MOVE_ILLEGAL;
}

int pyarb_code(const arb_game *g, unsigned key) { return code_of(arb_game_position(g), key); }

int pyarb_parse_san(const arb_game *g, const char *text, size_t len, arb_san_error *err) {
  arb_move m;
  arb_status st = arb_san_read(arb_game_position(g), text, len, ARB_SAN_ALLOW_NULL, &m, err);
  return st == ARB_OK ? (int)m : (int)st;
}

/* ---- argument helpers ---- */

static arb_game *game_arg(PyObject *o) {
  void *p = PyLong_AsVoidPtr(o);
  if (!p && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "arbiter._board: no game");
  return p;
}

static int key_arg(PyObject *o, unsigned *key) {
  long k = PyLong_AsLong(o);
  if (k == -1 && PyErr_Occurred()) return 0;
  if (k < 0 || k > 0xFFFF) {
    PyErr_SetString(PyExc_ValueError, "arbiter._board: not a move key");
    return 0;
  }
  *key = (unsigned)k;
  return 1;
}

static int nargs_ok(Py_ssize_t n, Py_ssize_t want, const char *name) {
  if (n == want) return 1;
  PyErr_Format(PyExc_TypeError, "arbiter._board.%s takes %zd arguments", name, want);
  return 0;
}

/* ---- the calls ---- */

/* legal(g, table) -> list: the legal moves, table[code] each, in the generator's order. */
static PyObject *b_legal(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  (void)self;
  if (!nargs_ok(n, 2, "legal")) return NULL;
  arb_game *g = game_arg(args[0]);
  if (!g) return NULL;
  PyObject *table = args[1];
  if (!PyTuple_Check(table) || PyTuple_GET_SIZE(table) != 65536) {
    PyErr_SetString(PyExc_TypeError, "arbiter._board.legal: table must be a tuple of 65536");
    return NULL;
  }
  arb_move moves[ARB_MAX_MOVES];
  int count = arb_generate_legal(arb_game_position(g), moves);
  PyObject *list = PyList_New(count);
  if (!list) return NULL;
  for (int i = 0; i < count; i++) {
    PyObject *m = PyTuple_GET_ITEM(table, moves[i]);
    Py_INCREF(m);
    PyList_SET_ITEM(list, i, m);
  }
  return list;
}

/* code(g, key) -> int: the legal move's code, or ARB_ERR_MOVE_ILLEGAL. */
static PyObject *b_code(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  (void)self;
  unsigned key;
  if (!nargs_ok(n, 2, "code")) return NULL;
  arb_game *g = game_arg(args[0]);
  if (!g || !key_arg(args[1], &key)) return NULL;
  return PyLong_FromLong(pyarb_code(g, key));
}

/* push(g, key) -> int: plays the move; its code, or why not (a negative arb_status). */
static PyObject *b_push(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  (void)self;
  unsigned key;
  if (!nargs_ok(n, 2, "push")) return NULL;
  arb_game *g = game_arg(args[0]);
  if (!g || !key_arg(args[1], &key)) return NULL;
  int code = pyarb_code(g, key);
  if (code >= 0) {
    arb_status st = arb_game_play(g, (arb_move)code);
    if (st != ARB_OK) code = (int)st;
  }
  return PyLong_FromLong(code);
}

/* undo(g) -> int: takes the last move back (arb_game_undo's status). */
static PyObject *b_undo(PyObject *self, PyObject *arg) {
  (void)self;
  arb_game *g = game_arg(arg);
  if (!g) return NULL;
  return PyLong_FromLong(arb_game_undo(g));
}

/* san(g, key) -> str, or int (ARB_ERR_MOVE_ILLEGAL) when the move is not legal. */
static PyObject *b_san(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  (void)self;
  unsigned key;
  if (!nargs_ok(n, 2, "san")) return NULL;
  arb_game *g = game_arg(args[0]);
  if (!g || !key_arg(args[1], &key)) return NULL;
  const arb_position *pos = arb_game_position(g);
  int code = code_of(pos, key);
  if (code < 0) return PyLong_FromLong(code);
  char buf[ARB_SAN_MAX];
  int len = arb_san_write(pos, (arb_move)code, buf, sizeof buf);
  if (len < 0) return PyLong_FromLong(len);
  return PyUnicode_FromStringAndSize(buf, len);
}

/* parse_san(g, text) -> int: the code of the legal move the SAN names (null moves allowed), or
 * a negative arb_status (the package asks cffi's pyarb_parse_san for the library's message). */
static PyObject *b_parse_san(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  (void)self;
  if (!nargs_ok(n, 2, "parse_san")) return NULL;
  arb_game *g = game_arg(args[0]);
  if (!g) return NULL;
  Py_ssize_t len;
  const char *text = PyUnicode_AsUTF8AndSize(args[1], &len);
  if (!text) return NULL;
  arb_san_error err;
  return PyLong_FromLong(pyarb_parse_san(g, text, (size_t)len, &err));
}

static PyMethodDef methods[] = {
    {"legal", (PyCFunction)(void (*)(void))b_legal, METH_FASTCALL, "legal(g, table) -> list"},
    {"code", (PyCFunction)(void (*)(void))b_code, METH_FASTCALL, "code(g, key) -> int"},
    {"push", (PyCFunction)(void (*)(void))b_push, METH_FASTCALL, "push(g, key) -> int"},
    {"undo", b_undo, METH_O, "undo(g) -> int"},
    {"san", (PyCFunction)(void (*)(void))b_san, METH_FASTCALL, "san(g, key) -> str | int"},
    {"parse_san", (PyCFunction)(void (*)(void))b_parse_san, METH_FASTCALL,
     "parse_san(g, text) -> int"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "arbiter._board",
                                    "The Board's hot calls (see shim_board.c).",
                                    -1,
                                    methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__board(void);
PyMODINIT_FUNC PyInit__board(void) { return PyModule_Create(&module); }
