/* Arbiter — MIT licence, see LICENSE.
 *
 * tree.c: a game as a tree of moves (arbiter/tree.h).  Nodes are allocated one by one and
 * hold the position after their move, so every edit is checked against the rules where it is
 * made and writing needs no replay.  Deep lines are walked in loops along the continuation;
 * only variations nest the recursion (bounded by the reader's ARB_PGN_MAX_DEPTH for read trees).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/tree.h"

typedef struct text_list {
  char **v;
  int n;
} text_list;

struct arb_tree_node {
  arb_tree_node *parent;
  arb_tree_node **kids;
  int nkids, kids_cap;
  arb_move move;
  char san[ARB_SAN_MAX];
  int ply;
  arb_position pos;      /* after the move (the start at the root) */
  text_list comments[2]; /* [ARB_TREE_BEFORE], [ARB_TREE_AFTER] */
  uint8_t *nags;
  int nnags;
  arb_pgn_commands *cmds; /* NULL: none */
};

struct arb_tree {
  arb_tree_node root;
  size_t count;
  char **names, **values;
  int ntags, tags_cap;
  arb_result result;
};

static const arb_pgn_commands no_commands = {-1, -1, 0, 0, 0, -1, 0, {{0, 0, 0}}};

/* ---- small helpers ---- */

static char *dup_n(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

static void texts_clear(text_list *l) {
  for (int i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

/* Adds a copy of s[0, n) without the '}' that a PGN comment cannot hold (8.2.5), so that the
 * tree holds what it writes. */
static arb_status texts_add(text_list *l, const char *s, size_t n) {
  char *p = dup_n(s, n);
  if (p && memchr(p, '}', n)) { /* (and the blanks it leaves folded, as the writer does) */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      if (p[i] != '}' && !(p[i] == ' ' && (k == 0 || p[k - 1] == ' '))) p[k++] = p[i];
    while (k && p[k - 1] == ' ')
      k--;
    p[k] = '\0';
  }
  char **v = p ? realloc(l->v, (size_t)(l->n + 1) * sizeof *v) : NULL;
  if (!v) {
    free(p);
    return ARB_ERR_NO_MEMORY;
  }
  v[l->n++] = p;
  l->v = v;
  return ARB_OK;
}

static void node_clear(arb_tree_node *n) {
  texts_clear(&n->comments[0]);
  texts_clear(&n->comments[1]);
  free(n->nags);
  free(n->cmds);
  free(n->kids);
}

/* Frees n and everything after it; returns the number of nodes freed. */
static size_t free_subtree(arb_tree_node *n) {
  size_t k = 0;
  while (n) {
    for (int i = 1; i < n->nkids; i++)
      k += free_subtree(n->kids[i]);
    arb_tree_node *next = n->nkids ? n->kids[0] : NULL;
    node_clear(n);
    free(n);
    k++;
    n = next;
  }
  return k;
}

/* A new last child of p playing m (legal, or the null move a reader allowed) to `after`. */
static arb_tree_node *append_child(arb_tree *t, arb_tree_node *p, arb_move m,
                                   const arb_position *after) {
  if (p->nkids == p->kids_cap) {
    int cap = p->kids_cap ? 2 * p->kids_cap : 1;
    arb_tree_node **k = realloc(p->kids, (size_t)cap * sizeof *k);
    if (!k) return NULL;
    p->kids = k;
    p->kids_cap = cap;
  }
  arb_tree_node *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->parent = p;
  n->move = m;
  n->ply = p->ply + 1;
  n->pos = *after;
  if (arb_san_write(&p->pos, m, n->san, sizeof n->san) <= 0) n->san[0] = '\0';
  p->kids[p->nkids++] = n;
  t->count++;
  return n;
}

static int index_of(const arb_tree_node *n) {
  if (!n->parent) return 0;
  for (int i = 0; i < n->parent->nkids; i++)
    if (n->parent->kids[i] == n) return i;
  return 0;
}

/* ---- the tree ---- */

static arb_tree *tree_alloc(const arb_position *start) {
  arb_init();
  arb_tree *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  if (start)
    t->root.pos = *start;
  else
    arb_position_startpos(&t->root.pos);
  t->count = 1;
  t->result = ARB_RESULT_NONE;
  return t;
}

arb_tree *arb_tree_new(const arb_position *start) {
  arb_tree *t = tree_alloc(start);
  if (!t || !start) return t;
  arb_position std;
  arb_position_startpos(&std);
  if (start->key != std.key || memcmp(start->board, std.board, sizeof std.board) != 0 ||
      start->fullmove_number != 1 || start->halfmove_clock != 0) {
    char fen[ARB_FEN_MAX];
    arb_fen_write(start, fen, sizeof fen, 0);
    if (arb_tree_set_tag(t, "SetUp", "1") != ARB_OK || arb_tree_set_tag(t, "FEN", fen) != ARB_OK) {
      arb_tree_free(t);
      return NULL;
    }
  }
  return t;
}

void arb_tree_free(arb_tree *t) {
  if (!t) return;
  for (int i = 0; i < t->root.nkids; i++)
    free_subtree(t->root.kids[i]);
  node_clear(&t->root);
  for (int i = 0; i < t->ntags; i++) {
    free(t->names[i]);
    free(t->values[i]);
  }
  free(t->names);
  free(t->values);
  free(t);
}

arb_tree_node *arb_tree_root(arb_tree *t) { return &t->root; }
const arb_position *arb_tree_start(const arb_tree *t) { return &t->root.pos; }
size_t arb_tree_node_count(const arb_tree *t) { return t->count; }

int arb_tree_tag_count(const arb_tree *t) { return t->ntags; }

arb_status arb_tree_tag_at(const arb_tree *t, int i, const char **name, const char **value) {
  if (i < 0 || i >= t->ntags) return ARB_ERR_ARGUMENT;
  if (name) *name = t->names[i];
  if (value) *value = t->values[i];
  return ARB_OK;
}

static int tag_index(const arb_tree *t, const char *name, size_t nl) {
  for (int i = 0; i < t->ntags; i++)
    if (strlen(t->names[i]) == nl && memcmp(t->names[i], name, nl) == 0) return i;
  return -1;
}

const char *arb_tree_tag(const arb_tree *t, const char *name) {
  int i = tag_index(t, name, strlen(name));
  return i < 0 ? NULL : t->values[i];
}

/* Sets (replace 1) or adds when absent (replace 0: a repeated tag keeps its first value, as the
 * reader and the writer have it). */
static arb_status put_tag(arb_tree *t, const char *name, size_t nl, const char *value, size_t vl,
                          int replace) {
  if (!arb_pgn_tag_name_valid(name, nl)) return ARB_ERR_ARGUMENT;
  int i = tag_index(t, name, nl);
  if (i >= 0 && !value) {
    free(t->names[i]);
    free(t->values[i]);
    memmove(t->names + i, t->names + i + 1, (size_t)(t->ntags - i - 1) * sizeof *t->names);
    memmove(t->values + i, t->values + i + 1, (size_t)(t->ntags - i - 1) * sizeof *t->values);
    t->ntags--;
    return ARB_OK;
  }
  if (!value || (i >= 0 && !replace)) return ARB_OK;
  char *v = dup_n(value, vl);
  if (!v) return ARB_ERR_NO_MEMORY;
  if (i >= 0) {
    free(t->values[i]);
    t->values[i] = v;
    return ARB_OK;
  }
  if (t->ntags == t->tags_cap) {
    int cap = t->tags_cap ? 2 * t->tags_cap : 8;
    char **a = realloc(t->names, (size_t)cap * sizeof *a);
    if (a) t->names = a;
    char **b = a ? realloc(t->values, (size_t)cap * sizeof *b) : NULL;
    if (b) t->values = b;
    if (!a || !b) {
      free(v);
      return ARB_ERR_NO_MEMORY;
    }
    t->tags_cap = cap;
  }
  char *nm = dup_n(name, nl);
  if (!nm) {
    free(v);
    return ARB_ERR_NO_MEMORY;
  }
  t->names[t->ntags] = nm;
  t->values[t->ntags++] = v;
  return ARB_OK;
}

arb_status arb_tree_set_tag(arb_tree *t, const char *name, const char *value) {
  if (!name) return ARB_ERR_ARGUMENT;
  return put_tag(t, name, strlen(name), value, value ? strlen(value) : 0, 1);
}

arb_result arb_tree_result(const arb_tree *t) { return t->result; }
void arb_tree_set_result(arb_tree *t, arb_result r) { t->result = r; }

/* ---- walking ---- */

arb_move arb_tree_node_move(const arb_tree_node *n) { return n->move; }
const char *arb_tree_node_san(const arb_tree_node *n) { return n->san; }
const arb_position *arb_tree_node_position(const arb_tree_node *n) { return &n->pos; }
int arb_tree_node_ply(const arb_tree_node *n) { return n->ply; }
arb_tree_node *arb_tree_node_parent(const arb_tree_node *n) { return n->parent; }
int arb_tree_node_child_count(const arb_tree_node *n) { return n->nkids; }
arb_tree_node *arb_tree_node_child(const arb_tree_node *n, int i) {
  return i >= 0 && i < n->nkids ? n->kids[i] : NULL;
}
arb_tree_node *arb_tree_node_next(const arb_tree_node *n) { return n->nkids ? n->kids[0] : NULL; }
int arb_tree_node_index(const arb_tree_node *n) { return index_of(n); }

int arb_tree_node_is_mainline(const arb_tree_node *n) {
  for (; n->parent; n = n->parent)
    if (n->parent->kids[0] != n) return 0;
  return 1;
}

arb_tree_node *arb_tree_node_walk(const arb_tree_node *n) {
  if (n->nkids) return n->kids[0];
  for (; n->parent; n = n->parent) {
    int i = index_of(n);
    if (i + 1 < n->parent->nkids) return n->parent->kids[i + 1];
  }
  return NULL;
}

/* ---- annotations ---- */

int arb_tree_node_comment_count(const arb_tree_node *n, arb_tree_side side) {
  return side == ARB_TREE_BEFORE || side == ARB_TREE_AFTER ? n->comments[side].n : 0;
}

const char *arb_tree_node_comment(const arb_tree_node *n, arb_tree_side side, int i, size_t *len) {
  if ((side != ARB_TREE_BEFORE && side != ARB_TREE_AFTER) || i < 0 || i >= n->comments[side].n)
    return NULL;
  if (len) *len = strlen(n->comments[side].v[i]);
  return n->comments[side].v[i];
}

arb_status arb_tree_node_add_comment(arb_tree_node *n, arb_tree_side side, const char *text,
                                     size_t len) {
  if ((side != ARB_TREE_BEFORE && side != ARB_TREE_AFTER) || (!text && len))
    return ARB_ERR_ARGUMENT;
  return texts_add(&n->comments[side], text ? text : "", len);
}

arb_status arb_tree_node_set_comment(arb_tree_node *n, arb_tree_side side, const char *text,
                                     size_t len) {
  if (side != ARB_TREE_BEFORE && side != ARB_TREE_AFTER) return ARB_ERR_ARGUMENT;
  text_list fresh = {NULL, 0};
  if (text && len && texts_add(&fresh, text, len) != ARB_OK) return ARB_ERR_NO_MEMORY;
  texts_clear(&n->comments[side]);
  n->comments[side] = fresh;
  return ARB_OK;
}

int arb_tree_node_nag_count(const arb_tree_node *n) { return n->nnags; }
int arb_tree_node_nag(const arb_tree_node *n, int i) {
  return i >= 0 && i < n->nnags ? n->nags[i] : -1;
}

arb_status arb_tree_node_set_nags(arb_tree_node *n, const int *nags, int k) {
  if (k < 0 || (k && !nags)) return ARB_ERR_ARGUMENT;
  for (int i = 0; i < k; i++)
    if (nags[i] < 0 || nags[i] > 255) return ARB_ERR_ARGUMENT;
  uint8_t *v = NULL;
  if (k && !(v = malloc((size_t)k))) return ARB_ERR_NO_MEMORY;
  for (int i = 0; i < k; i++)
    v[i] = (uint8_t)nags[i];
  free(n->nags);
  n->nags = v;
  n->nnags = k;
  return ARB_OK;
}

arb_status arb_tree_node_add_nag(arb_tree_node *n, int nag) {
  if (nag < 0 || nag > 255) return ARB_ERR_ARGUMENT;
  uint8_t *v = realloc(n->nags, (size_t)n->nnags + 1);
  if (!v) return ARB_ERR_NO_MEMORY;
  v[n->nnags++] = (uint8_t)nag;
  n->nags = v;
  return ARB_OK;
}

const arb_pgn_commands *arb_tree_node_commands(const arb_tree_node *n) {
  return n->cmds ? n->cmds : &no_commands;
}

arb_status arb_tree_node_set_commands(arb_tree_node *n, const arb_pgn_commands *c) {
  if (!c || c->nshapes < 0 || c->nshapes > ARB_PGN_MAX_SHAPES) return ARB_ERR_ARGUMENT;
  if (!n->cmds && !(n->cmds = malloc(sizeof *n->cmds))) return ARB_ERR_NO_MEMORY;
  *n->cmds = *c;
  return ARB_OK;
}

/* ---- editing ---- */

arb_status arb_tree_add_move(arb_tree *t, arb_tree_node *p, arb_move m, arb_tree_node **out) {
  if (out) *out = NULL;
  if (!t || !p) return ARB_ERR_ARGUMENT;
  if (m == ARB_MOVE_NULL) return ARB_ERR_NULL_MOVE;
  for (int i = 0; i < p->nkids; i++)
    if (p->kids[i]->move == m) {
      if (out) *out = p->kids[i];
      return ARB_OK;
    }
  arb_move legal[ARB_MAX_MOVES];
  int k = arb_generate_legal(&p->pos, legal), found = 0;
  for (int i = 0; i < k && !found; i++)
    found = legal[i] == m;
  if (!found) return ARB_ERR_MOVE_ILLEGAL;
  arb_position after = p->pos;
  arb_undo u;
  arb_make_move(&after, m, &u);
  arb_tree_node *n = append_child(t, p, m, &after);
  if (!n) return ARB_ERR_NO_MEMORY;
  if (out) *out = n;
  return ARB_OK;
}

arb_status arb_tree_add_san(arb_tree *t, arb_tree_node *p, const char *san, size_t len,
                            arb_tree_node **out, arb_san_error *err) {
  if (out) *out = NULL;
  if (!t || !p || !san) return ARB_ERR_ARGUMENT;
  arb_move m;
  arb_status st = arb_san_read(&p->pos, san, len, 0, &m, err);
  return st != ARB_OK ? st : arb_tree_add_move(t, p, m, out);
}

/* Removes n from its parent's children and frees its subtree. */
static void unlink_free(arb_tree *t, arb_tree_node *n) {
  arb_tree_node *p = n->parent;
  int i = index_of(n);
  memmove(p->kids + i, p->kids + i + 1, (size_t)(p->nkids - i - 1) * sizeof *p->kids);
  p->nkids--;
  t->count -= free_subtree(n);
}

arb_status arb_tree_add_line(arb_tree *t, arb_tree_node *p, const char *text, size_t len,
                             arb_tree_node **last, int *bad_index) {
  if (last) *last = NULL;
  if (bad_index) *bad_index = -1;
  if (!t || !p || (!text && len)) return ARB_ERR_ARGUMENT;
  arb_tree_node *cur = p, *first_new = NULL;
  size_t i = 0;
  int index = 0;
  while (i < len) {
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
      i++;
    size_t b = i;
    while (i < len && !(text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
      i++;
    if (i == b) break;
    /* "12." "12..." "..." and the number glued to its move ("1.e4") */
    size_t d = b;
    while (d < i && text[d] >= '0' && text[d] <= '9')
      d++;
    if (d < i && text[d] == '.') {
      while (d < i && text[d] == '.')
        d++;
      b = d;
      if (b == i) continue;
    }
    int had = cur->nkids;
    arb_tree_node *n;
    arb_status st = arb_tree_add_san(t, cur, text + b, i - b, &n, NULL);
    if (st != ARB_OK) {
      if (first_new) unlink_free(t, first_new);
      if (bad_index) *bad_index = index;
      return st;
    }
    if (!first_new && cur->nkids > had) first_new = n;
    cur = n;
    index++;
  }
  if (last) *last = cur;
  return ARB_OK;
}

static arb_status swap_with(arb_tree_node *n, int delta) {
  if (!n || !n->parent) return ARB_ERR_ARGUMENT;
  arb_tree_node **k = n->parent->kids;
  int i = index_of(n), j = i + delta;
  if (j < 0 || j >= n->parent->nkids) return ARB_OK;
  k[i] = k[j];
  k[j] = n;
  return ARB_OK;
}

arb_status arb_tree_promote(arb_tree_node *n) { return swap_with(n, -1); }
arb_status arb_tree_demote(arb_tree_node *n) { return swap_with(n, 1); }

arb_status arb_tree_promote_to_main(arb_tree_node *n) {
  if (!n) return ARB_ERR_ARGUMENT;
  for (; n->parent; n = n->parent) {
    arb_tree_node **k = n->parent->kids;
    int i = index_of(n);
    memmove(k + 1, k, (size_t)i * sizeof *k);
    k[0] = n;
  }
  return ARB_OK;
}

arb_status arb_tree_delete(arb_tree *t, arb_tree_node *n) {
  if (!t || !n || !n->parent) return ARB_ERR_ARGUMENT;
  unlink_free(t, n);
  return ARB_OK;
}

/* ---- writing ---- */

/* One comment, without the '}' PGN cannot hold, and with `extra` (the commands) after it. */
static arb_status write_comment(arb_pgn_writer *w, const char *s, const char *extra) {
  size_t n = s ? strlen(s) : 0, e = extra ? strlen(extra) : 0;
  char *u = malloc(n + e + 2);
  if (!u) return ARB_ERR_NO_MEMORY;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] != '}') u[k++] = s[i];
  if (e) {
    if (k) u[k++] = ' ';
    memcpy(u + k, extra, e);
    k += e;
  }
  arb_status st = arb_pgn_writer_comment(w, u, k);
  free(u);
  return st;
}

static arb_status write_node(arb_pgn_writer *w, const arb_tree_node *n) {
  arb_status st = ARB_OK, s2;
  for (int i = 0; i < n->comments[0].n; i++)
    if ((s2 = write_comment(w, n->comments[0].v[i], NULL)) != ARB_OK && !st) st = s2;
  if (n->parent) {
    s2 = n->move == ARB_MOVE_NULL ? arb_pgn_writer_move(w, &n->parent->pos, n->move)
                                  : arb_pgn_writer_move_to(w, &n->parent->pos, n->move, &n->pos);
    if (s2 != ARB_OK && !st) st = s2;
  }
  for (int i = 0; i < n->nnags; i++)
    if ((s2 = arb_pgn_writer_nag(w, n->nags[i])) != ARB_OK && !st) st = s2;
  char small[256], *cmd = NULL;
  if (n->cmds) {
    int k = arb_pgn_commands_write(n->cmds, small, sizeof small);
    cmd = small;
    if (k >= (int)sizeof small) {
      if (!(cmd = malloc((size_t)k + 1))) return ARB_ERR_NO_MEMORY;
      arb_pgn_commands_write(n->cmds, cmd, (size_t)k + 1);
    }
    if (k == 0) cmd = NULL;
  }
  /* The commands go at the end of the last comment, as lichess writes them — unless a text
   * holds a command itself (one that was repeated): then first, so that they read back as the
   * node's; and on their own when that comment is empty (an empty comment reads back as one)
   * or starts with "[%" (joined, "[%illegal" and a command would read as another command). */
  const text_list *after = &n->comments[1];
  const char *last = after->n ? after->v[after->n - 1] : "";
  int front = 0, alone = !last[0] || (last[0] == '[' && last[1] == '%');
  for (int i = 0; i < after->n && cmd && !front; i++) {
    arb_pgn_commands probe;
    arb_pgn_commands_clear(&probe);
    size_t rl, len = strlen(after->v[i]);
    arb_pgn_commands_read(after->v[i], len, &probe, NULL, 0, &rl);
    front = rl != len;
  }
  if (cmd && (front || alone)) {
    if ((s2 = write_comment(w, NULL, cmd)) != ARB_OK && !st) st = s2;
    if (cmd != small) free(cmd);
    cmd = NULL;
  }
  for (int i = 0; i < after->n; i++)
    if ((s2 = write_comment(w, after->v[i], i + 1 == after->n ? cmd : NULL)) != ARB_OK && !st)
      st = s2;
  if (cmd && cmd != small) free(cmd);
  return st;
}

/* Everything after p: its continuation, the continuation's variations, and so on. */
static arb_status write_from(arb_pgn_writer *w, const arb_tree_node *p) {
  arb_status st = ARB_OK, s2;
  while (p->nkids) {
    const arb_tree_node *main = p->kids[0];
    if ((s2 = write_node(w, main)) != ARB_OK && !st) st = s2;
    for (int i = 1; i < p->nkids; i++) {
      arb_pgn_writer_begin_variation(w);
      if ((s2 = write_node(w, p->kids[i])) != ARB_OK && !st) st = s2;
      if ((s2 = write_from(w, p->kids[i])) != ARB_OK && !st) st = s2;
      arb_pgn_writer_end_variation(w);
    }
    p = main;
  }
  return st;
}

arb_status arb_tree_write(const arb_tree *t, arb_pgn_writer *w) {
  if (!t || !w) return ARB_ERR_ARGUMENT;
  arb_pgn_writer_begin_game(w);
  for (int i = 0; i < t->ntags; i++)
    arb_pgn_writer_tag(w, t->names[i], strlen(t->names[i]), t->values[i], strlen(t->values[i]));
  arb_pgn_writer_start(w, &t->root.pos);
  arb_pgn_writer_begin_moves(w);
  arb_status st = write_node(w, &t->root);
  arb_status s2 = write_from(w, &t->root);
  if (s2 != ARB_OK && !st) st = s2;
  s2 = arb_pgn_writer_end_game(w, t->result);
  return st ? st : s2;
}

/* ---- building from the reader ---- */

typedef struct frame {
  arb_tree_node *start, *cur; /* where the line branches off, its last move */
  text_list pending;          /* comments before the line's first move */
  uint8_t dead;               /* a variation that cannot be placed: its events are dropped */
} frame;

struct arb_tree_builder {
  arb_tree *tree, *done;
  frame *st;
  int depth, cap;
  uint8_t started;    /* begin_moves was seen: movetext events build */
  char scratch[4096]; /* a comment's text without its commands */
};

static void frames_reset(arb_tree_builder *b) {
  for (int i = 0; i <= b->depth && i < b->cap; i++)
    texts_clear(&b->st[i].pending);
  b->depth = 0;
}

static int bld_begin_game(void *ctx, uint64_t game, uint64_t line) {
  arb_tree_builder *b = ctx;
  (void)game;
  (void)line;
  frames_reset(b);
  arb_tree_free(b->tree);
  arb_tree_free(b->done);
  b->done = NULL;
  b->started = 0;
  b->tree = tree_alloc(NULL);
  return b->tree ? 0 : 1;
}

static int bld_tag(void *ctx, const char *name, size_t nl, const char *value, size_t vl) {
  arb_tree_builder *b = ctx;
  if (b->tree) put_tag(b->tree, name, nl, value, vl, 0);
  return 0;
}

static int bld_begin_moves(void *ctx, const arb_position *start) {
  arb_tree_builder *b = ctx;
  if (!b->tree || !b->cap) return 1;
  b->tree->root.pos = *start;
  b->started = 1;
  b->depth = 0;
  b->st[0].start = b->st[0].cur = &b->tree->root;
  b->st[0].dead = 0;
  return 0;
}

static frame *live(arb_tree_builder *b, int depth) {
  if (!b->tree || !b->started || depth != b->depth || b->st[depth].dead) return NULL;
  return &b->st[depth];
}

static int bld_move(void *ctx, const arb_pgn_move *m) {
  arb_tree_builder *b = ctx;
  frame *f = live(b, m->depth);
  if (!f) return 0;
  /* After an "[%illegal ...]" comment the reader plays on from the position it gives: the
   * position that stood is the line's. */
  if (f->cur->pos.key != m->before->key ||
      memcmp(f->cur->pos.board, m->before->board, sizeof m->before->board) != 0)
    f->cur->pos = *m->before;
  arb_tree_node *n = append_child(b->tree, f->cur, m->move, m->after);
  if (!n) return 1;
  n->comments[0] = f->pending;
  f->pending.v = NULL;
  f->pending.n = 0;
  f->cur = n;
  return 0;
}

static int bld_comment(void *ctx, const char *text, size_t len, int depth) {
  arb_tree_builder *b = ctx;
  frame *f = live(b, depth);
  if (!f) return 0;
  if (f->cur == f->start) {
    text_list *l = depth == 0 ? &f->cur->comments[1] : &f->pending;
    return texts_add(l, text, len) != ARB_OK;
  }
  arb_tree_node *n = f->cur;
  arb_pgn_commands c;
  if (n->cmds)
    c = *n->cmds;
  else
    arb_pgn_commands_clear(&c);
  size_t rl;
  char *rest = b->scratch;
  if (len >= sizeof b->scratch && !(rest = malloc(len + 1))) return 1;
  arb_pgn_commands_read(text, len, &c, rest, len + 1, &rl);
  arb_status st = ARB_OK;
  /* A comment that starts with "[%illegal " tells the reader where play went on: the text left
   * must not start so when the comment did not (it would, written back). */
  static const char illegal[] = "[%illegal ";
  if (rl >= 10 && !memcmp(rest, illegal, 10) && !(len >= 10 && !memcmp(text, illegal, 10))) {
    memcpy(rest, text, len);
    rl = len; /* kept whole, commands and all */
  } else if (c.clk_ms >= 0 || c.emt_ms >= 0 || c.has_eval || c.nshapes) {
    st = arb_tree_node_set_commands(n, &c);
  }
  /* A comment that held only commands is not kept as text: the commands are written back. */
  if (st == ARB_OK && (rl || rl == len)) st = texts_add(&n->comments[1], rest, rl);
  if (rest != b->scratch) free(rest);
  return st != ARB_OK;
}

static int bld_nag(void *ctx, int nag, int depth) {
  arb_tree_builder *b = ctx;
  frame *f = live(b, depth);
  if (!f || f->cur == f->start) return 0; /* a NAG before any move annotates nothing */
  return arb_tree_node_add_nag(f->cur, nag) != ARB_OK;
}

static int bld_begin_variation(void *ctx, int depth) {
  arb_tree_builder *b = ctx;
  if (!b->tree || !b->started || depth != b->depth + 1) return 0;
  if (depth >= b->cap) {
    int cap = b->cap * 2;
    while (cap <= depth)
      cap *= 2;
    frame *s = realloc(b->st, (size_t)cap * sizeof *s);
    if (!s) return 1;
    b->st = s;
    b->cap = cap;
  }
  const frame *p = &b->st[depth - 1];
  frame *f = &b->st[depth];
  memset(f, 0, sizeof *f);
  f->dead = p->dead || p->cur == p->start;
  if (!f->dead) f->start = f->cur = p->cur->parent;
  b->depth = depth;
  return 0;
}

static int bld_end_variation(void *ctx, int depth) {
  arb_tree_builder *b = ctx;
  if (!b->tree || !b->started || depth != b->depth || depth == 0) return 0;
  texts_clear(&b->st[depth].pending);
  b->depth = depth - 1;
  return 0;
}

static void bld_end_game(void *ctx, const arb_pgn_game_end *e) {
  arb_tree_builder *b = ctx;
  frames_reset(b);
  if (!b->tree) return;
  if (e->skipped) {
    arb_tree_free(b->tree);
    b->tree = NULL;
    return;
  }
  b->tree->result = e->has_movetext_result ? e->movetext_result : e->tag_result;
  b->done = b->tree;
  b->tree = NULL;
}

arb_tree_builder *arb_tree_builder_new(void) {
  arb_tree_builder *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->cap = 8;
  b->st = calloc((size_t)b->cap, sizeof *b->st);
  if (!b->st) {
    free(b);
    return NULL;
  }
  return b;
}

void arb_tree_builder_free(arb_tree_builder *b) {
  if (!b) return;
  frames_reset(b);
  arb_tree_free(b->tree);
  arb_tree_free(b->done);
  free(b->st);
  free(b);
}

void arb_tree_builder_visitor(arb_tree_builder *b, arb_pgn_visitor *v) {
  memset(v, 0, sizeof *v);
  v->ctx = b;
  v->begin_game = bld_begin_game;
  v->tag = bld_tag;
  v->begin_moves = bld_begin_moves;
  v->move = bld_move;
  v->comment = bld_comment;
  v->nag = bld_nag;
  v->begin_variation = bld_begin_variation;
  v->end_variation = bld_end_variation;
  v->end_game = bld_end_game;
}

arb_tree *arb_tree_builder_take(arb_tree_builder *b) {
  arb_tree *t = b->done;
  b->done = NULL;
  return t;
}

/* arb_tree_read: the builder, stopped after the first game, with the first error noted. */
typedef struct one_read {
  arb_pgn_visitor inner;
  arb_tree_builder *b;
  int games, errors;
  char *msg;
  size_t msg_size;
} one_read;

static int one_begin_game(void *ctx, uint64_t game, uint64_t line) {
  one_read *o = ctx;
  if (++o->games > 1) return 1;
  return o->inner.begin_game(o->b, game, line);
}
#define ONE_FORWARD(name, params, args)                                                            \
  static int one_##name params {                                                                   \
    one_read *o = ctx;                                                                             \
    return o->games > 1 ? 1 : o->inner.name args;                                                  \
  }
ONE_FORWARD(tag, (void *ctx, const char *n, size_t nl, const char *v, size_t vl),
            (o->b, n, nl, v, vl))
ONE_FORWARD(begin_moves, (void *ctx, const arb_position *s), (o->b, s))
ONE_FORWARD(move, (void *ctx, const arb_pgn_move *m), (o->b, m))
ONE_FORWARD(comment, (void *ctx, const char *t, size_t n, int d), (o->b, t, n, d))
ONE_FORWARD(nag, (void *ctx, int nag, int d), (o->b, nag, d))
ONE_FORWARD(begin_variation, (void *ctx, int d), (o->b, d))
ONE_FORWARD(end_variation, (void *ctx, int d), (o->b, d))

static void one_end_game(void *ctx, const arb_pgn_game_end *e) {
  one_read *o = ctx;
  if (o->games == 1) o->inner.end_game(o->b, e);
}

static void one_error(void *ctx, const arb_pgn_error *e) {
  one_read *o = ctx;
  if (e->warning || e->where.game != 1) return;
  if (o->errors++ == 0 && o->msg && o->msg_size)
    snprintf(o->msg, o->msg_size, "line %llu: %s", (unsigned long long)e->where.line, e->message);
}

arb_status arb_tree_read(const char *pgn, size_t len, const arb_pgn_options *opts, arb_tree **tree,
                         int *errors, char *message, size_t message_size) {
  if (tree) *tree = NULL;
  if (errors) *errors = 0;
  if (message && message_size) message[0] = '\0';
  if (!tree || (!pgn && len)) return ARB_ERR_ARGUMENT;
  one_read o;
  memset(&o, 0, sizeof o);
  o.msg = message;
  o.msg_size = message_size;
  if (!(o.b = arb_tree_builder_new())) return ARB_ERR_NO_MEMORY;
  arb_tree_builder_visitor(o.b, &o.inner);
  arb_pgn_visitor v = {
      &o,      one_begin_game,      one_tag,           one_begin_moves, one_move, one_comment,
      one_nag, one_begin_variation, one_end_variation, one_end_game,    one_error};
  arb_pgn_options ro;
  memset(&ro, 0, sizeof ro);
  if (opts) ro = *opts;
  ro.first_game = 1;
  arb_pgn_reader *r = arb_pgn_reader_new(&ro, &v);
  arb_status st = r ? ARB_OK : ARB_ERR_NO_MEMORY;
  if (r && (st = arb_pgn_reader_feed(r, pgn, len)) == ARB_OK) st = arb_pgn_reader_finish(r);
  arb_pgn_reader_free(r);
  *tree = arb_tree_builder_take(o.b);
  arb_tree_builder_free(o.b);
  if (errors) *errors = o.errors;
  if (st != ARB_OK) {
    arb_tree_free(*tree);
    *tree = NULL;
    return st;
  }
  return *tree ? ARB_OK : ARB_ERR_ARGUMENT;
}
