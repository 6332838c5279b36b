/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * tree.h: a game as a tree of moves, as PGN writes it — built from the PGN reader or from
 * scratch, walked, edited, written back in export format — and the PGN comment commands
 * ([%clk], [%emt], [%eval], [%csl], [%cal]) in structured form.
 *
 * The tree: a root node for the start position, and one node per move.  A node's children are
 * the moves played from its position: child 0 continues the line (the main line, from the
 * root), the others are its variations, in the order PGN writes them.  Each move node keeps its
 * move, its SAN (as arb_san_write writes it), the position after it, the comments written before
 * it (at the start of a variation) and after it, its NAGs, and the comment commands read from
 * its comments after.  The root's comments are the game's starting comments (before the first
 * move); the first move's variations are the root's other children.  A comment read after a
 * variation's ')' belongs to the move before the variation, and is written before it (as
 * chessops and python-chess read and write it).
 *
 * Ownership: arb_tree_new / arb_tree_read / arb_tree_builder_take give a tree the caller frees
 * with arb_tree_free (NULL is a no-op).  Nodes belong to their tree: a node pointer stays valid
 * until its node is deleted (arb_tree_delete, with its subtree) or the tree freed; editing moves
 * nodes within the tree without invalidating them.  Texts returned are owned by the tree and
 * valid until that text is changed.  The tree allocates (like the PGN writer); every function
 * that can run out of memory says so with ARB_ERR_NO_MEMORY and leaves the tree as it was.
 * Thread-safety: a tree is used by one thread at a time; different trees are independent.
 * The comment-command functions (arb_pgn_commands_*) do not allocate and are thread-safe.
 */
#ifndef ARBITER_TREE_H
#define ARBITER_TREE_H

#include <stddef.h>

#include "arbiter/pgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Comment commands ---- */

#define ARB_PGN_MAX_SHAPES 64 /* squares and arrows kept per comment; more stay in the text */

/* A coloured square (from == to, [%csl]) or arrow ([%cal]).  color: 'R', 'G', 'Y' or 'B'. */
typedef struct arb_pgn_shape {
  arb_square from, to;
  char color;
} arb_pgn_shape;

/* The commands of one move's comments.  A value not present: clk_ms and emt_ms -1, has_eval 0,
 * eval_depth -1, no shapes. */
typedef struct arb_pgn_commands {
  int64_t clk_ms; /* [%clk h:mm:ss(.fff)]: time left on the mover's clock after the move */
  int64_t emt_ms; /* [%emt h:mm:ss(.fff)]: time spent on the move */
  uint8_t has_eval;
  uint8_t eval_mate;  /* 1: [%eval #N], eval is N (mate in N; negative: Black mates) */
  int32_t eval;       /* centipawns from White's side ([%eval 0.17] is 17), or N */
  int32_t eval_depth; /* [%eval 0.17,22]: the search depth 22, -1 when not given */
  int nshapes;
  arb_pgn_shape shapes[ARB_PGN_MAX_SHAPES];
} arb_pgn_commands;

/* No command present. */
ARB_API void arb_pgn_commands_clear(arb_pgn_commands *cmds);

/* Reads the commands of a comment's text (as the reader passes it), adding them to *cmds (clear
 * it first with arb_pgn_commands_clear; a command whose value *cmds has already stays in the
 * text), and writes the remaining text to rest (snprintf convention; may be NULL with rest_size
 * 0), *rest_len its length (may be NULL).  Read: [%clk] and [%emt] (arb_pgn_clock_read's
 * format), [%eval] (pawns with at most two decimals, or #N, then optionally ",depth"), [%csl] and
 * [%cal] (comma-separated lists such as Ga1,Rb2b5).  A command that is malformed or beyond
 * ARB_PGN_MAX_SHAPES stays in the text, so nothing is lost.  Blanks next to a removed command
 * are dropped, the runs of text left joined by one blank.  ARB_ERR_ARGUMENT for NULL cmds or
 * NULL text with len > 0. */
ARB_API arb_status arb_pgn_commands_read(const char *text, size_t len, arb_pgn_commands *cmds,
                                         char *rest, size_t rest_size, size_t *rest_len);

/* Writes the present commands as "[%csl ...] [%cal ...] [%eval 0.17,22] [%emt ...] [%clk ...]"
 * (chessops's and lichess's order; eval with two decimals).  snprintf convention: returns the
 * length needed (0 when none is present). */
ARB_API int arb_pgn_commands_write(const arb_pgn_commands *cmds, char *buf, size_t size);

/* ---- The tree ---- */

typedef struct arb_tree arb_tree;
typedef struct arb_tree_node arb_tree_node;

/* Where a comment stands: before the move (in PGN only at the start of a variation, or of the
 * game for the root) or after it. */
typedef enum arb_tree_side { ARB_TREE_BEFORE = 0, ARB_TREE_AFTER = 1 } arb_tree_side;

/* A new tree from `start` (NULL: the standard start), with no tags and result "*".  A start that
 * is not the standard one gets the tags SetUp "1" and FEN; a Chess960 one Variant "Chess960"
 * when written.  NULL when memory runs out. */
ARB_API arb_tree *arb_tree_new(const arb_position *start);
ARB_API void arb_tree_free(arb_tree *tree);

ARB_API arb_tree_node *arb_tree_root(arb_tree *tree);
ARB_API const arb_position *arb_tree_start(const arb_tree *tree);
/* Nodes in the tree, the root included. */
ARB_API size_t arb_tree_node_count(const arb_tree *tree);

/* Tags, in their order.  arb_tree_tag: the value of a tag (NUL-terminated) or NULL.
 * arb_tree_set_tag: replaces a tag's value, adds it at the end, or removes it (value NULL);
 * ARB_ERR_ARGUMENT when the name is not a PGN tag name (arb_pgn_tag_name_valid). */
ARB_API int arb_tree_tag_count(const arb_tree *tree);
ARB_API arb_status arb_tree_tag_at(const arb_tree *tree, int i, const char **name,
                                   const char **value);
ARB_API const char *arb_tree_tag(const arb_tree *tree, const char *name);
ARB_API arb_status arb_tree_set_tag(arb_tree *tree, const char *name, const char *value);

/* The game's result (the termination marker; the Result tag is written to agree). */
ARB_API arb_result arb_tree_result(const arb_tree *tree);
ARB_API void arb_tree_set_result(arb_tree *tree, arb_result result);

/* ---- Walking ---- */

/* The move (ARB_MOVE_NONE at the root), its SAN ("" at the root), the position after it (the
 * start at the root), the plies from the start (0 at the root). */
ARB_API arb_move arb_tree_node_move(const arb_tree_node *node);
ARB_API const char *arb_tree_node_san(const arb_tree_node *node);
ARB_API const arb_position *arb_tree_node_position(const arb_tree_node *node);
ARB_API int arb_tree_node_ply(const arb_tree_node *node);
/* The parent (NULL at the root), the children (0 = the line's continuation), the continuation
 * (child 0 or NULL), the node's index among its parent's children (0 at the root). */
ARB_API arb_tree_node *arb_tree_node_parent(const arb_tree_node *node);
ARB_API int arb_tree_node_child_count(const arb_tree_node *node);
ARB_API arb_tree_node *arb_tree_node_child(const arb_tree_node *node, int i);
ARB_API arb_tree_node *arb_tree_node_next(const arb_tree_node *node);
ARB_API int arb_tree_node_index(const arb_tree_node *node);
/* 1 if the node is on the game's main line (the root is). */
ARB_API int arb_tree_node_is_mainline(const arb_tree_node *node);
/* The next node in PGN order (a node, then its variations' nodes, then the continuation), or
 * NULL after the last: from the root this visits every node once. */
ARB_API arb_tree_node *arb_tree_node_walk(const arb_tree_node *node);

/* ---- Annotations ---- */

/* Comments on one side of a node, in order (texts NUL-terminated, *len may be NULL).  PGN keeps
 * a comment before a move apart only at the start of a variation: elsewhere it reads back as the
 * previous move's comment after (at the root, as the root's). */
ARB_API int arb_tree_node_comment_count(const arb_tree_node *node, arb_tree_side side);
ARB_API const char *arb_tree_node_comment(const arb_tree_node *node, arb_tree_side side, int i,
                                          size_t *len);
/* Replaces the comments on that side with one (text NULL or len 0: removes them all), or adds
 * one after the others.  A '}' cannot be written in a PGN comment: it is dropped on writing. */
ARB_API arb_status arb_tree_node_set_comment(arb_tree_node *node, arb_tree_side side,
                                             const char *text, size_t len);
ARB_API arb_status arb_tree_node_add_comment(arb_tree_node *node, arb_tree_side side,
                                             const char *text, size_t len);

/* NAGs ($1 = "!", ...), in order.  set_nags replaces them (n = 0 removes them), add_nag adds
 * one; ARB_ERR_ARGUMENT for a value outside 0..255. */
ARB_API int arb_tree_node_nag_count(const arb_tree_node *node);
ARB_API int arb_tree_node_nag(const arb_tree_node *node, int i);
ARB_API arb_status arb_tree_node_set_nags(arb_tree_node *node, const int *nags, int n);
ARB_API arb_status arb_tree_node_add_nag(arb_tree_node *node, int nag);

/* The node's comment commands (written after its comments after the move). */
ARB_API const arb_pgn_commands *arb_tree_node_commands(const arb_tree_node *node);
ARB_API arb_status arb_tree_node_set_commands(arb_tree_node *node, const arb_pgn_commands *cmds);

/* ---- Editing ---- */

/* Adds `move` (legal in the parent's position) from `parent`: the existing child with that move,
 * or a new last child (a new variation, or the continuation of a line that has none).  *out (may
 * be NULL) gets the node.  ARB_ERR_MOVE_ILLEGAL, ARB_ERR_NULL_MOVE, ARB_ERR_NO_MEMORY. */
ARB_API arb_status arb_tree_add_move(arb_tree *tree, arb_tree_node *parent, arb_move move,
                                     arb_tree_node **out);
/* The same with the move in SAN (lenient reading, arb_san_read); err may be NULL. */
ARB_API arb_status arb_tree_add_san(arb_tree *tree, arb_tree_node *parent, const char *san,
                                    size_t len, arb_tree_node **out, arb_san_error *err);
/* Adds a line of moves in SAN separated by blanks ("e4 e5 2. Nf3"; move numbers are skipped)
 * from `parent`, each move after the one before; *last gets the last node.  All or nothing: on
 * a bad move nothing is added, *bad_index (may be NULL) gets its 0-based index in the line. */
ARB_API arb_status arb_tree_add_line(arb_tree *tree, arb_tree_node *parent, const char *text,
                                     size_t len, arb_tree_node **last, int *bad_index);
/* Moves a node one place up among its siblings (promote: a variation before the one above it;
 * child 1 becomes the line's continuation), or one down (demote).  Already first (last): no
 * change.  ARB_ERR_ARGUMENT at the root. */
ARB_API arb_status arb_tree_promote(arb_tree_node *node);
ARB_API arb_status arb_tree_demote(arb_tree_node *node);
/* Makes the node's line the game's main line: the node and each of its ancestors becomes its
 * parent's first child, the lines they replace becoming their first variations. */
ARB_API arb_status arb_tree_promote_to_main(arb_tree_node *node);
/* Deletes a node with everything after it (its pointer and its subtree's become invalid).
 * ARB_ERR_ARGUMENT at the root (use arb_tree_free). */
ARB_API arb_status arb_tree_delete(arb_tree *tree, arb_tree_node *node);

/* ---- PGN in and out ---- */

/* Writes the game to the writer in export format: arb_pgn_writer_begin_game, the tags, the
 * starting comments, every move with its comments, NAGs, commands and variations, the result
 * (arb_pgn_writer_end_game).  ARB_ERR_NO_MEMORY, or the writer's error. */
ARB_API arb_status arb_tree_write(const arb_tree *tree, arb_pgn_writer *writer);

/* Builds trees from a PGN reader: arb_tree_builder_visitor fills *visitor with callbacks (ctx =
 * the builder) to pass to arb_pgn_reader_new, or to call from one's own callbacks; after each
 * end_game the game's tree is ready for arb_tree_builder_take (the caller then owns it; an
 * untaken tree is freed when the next game begins).  Comment commands are read from the
 * comments after each move.  A game the reader skips (another Variant) gives no tree. */
typedef struct arb_tree_builder arb_tree_builder;
ARB_API arb_tree_builder *arb_tree_builder_new(void);
ARB_API void arb_tree_builder_free(arb_tree_builder *builder);
ARB_API void arb_tree_builder_visitor(arb_tree_builder *builder, arb_pgn_visitor *visitor);
ARB_API arb_tree *arb_tree_builder_take(arb_tree_builder *builder);

/* Reads the first game of a PGN text into *tree (NULL when the text has no game).  *errors (may
 * be NULL) gets the number of errors the reader found in it and message (may be NULL) the first
 * one, "line L: text" (snprintf convention).  opts as for arb_pgn_reader_new (NULL: lenient).
 * ARB_OK when a game was read (with or without errors: check *errors), ARB_ERR_ARGUMENT when
 * the text holds no game, ARB_ERR_NO_MEMORY. */
ARB_API arb_status arb_tree_read(const char *pgn, size_t len, const arb_pgn_options *opts,
                                 arb_tree **tree, int *errors, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif
