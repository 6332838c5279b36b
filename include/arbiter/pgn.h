/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * pgn.h: Portable Game Notation at scale — a streaming reader that replays every game (and
 * every variation) under the full rules and reports exactly what is wrong and where, and a
 * writer for PGN export format.
 *
 * Reader: push bytes in with arb_pgn_reader_feed (any chunk size, a file never has to be in
 * memory at once), then arb_pgn_reader_finish.  The reader calls the visitor's callbacks as it
 * goes.  Memory is bounded: one token (a comment, a tag or a move is at most
 * ARB_PGN_MAX_TOKEN bytes; longer ones are reported and skipped), one position per open
 * variation (at most ARB_PGN_MAX_DEPTH; deeper ones are read, not replayed), and the main
 * line's repetition keys since the last capture or pawn move (at most 256).  Time is linear in
 * the input, however it is cut into chunks.
 *
 * Text: tag values and comments reach the visitor as UTF-8.  Bytes that are not valid UTF-8
 * are read as ISO-8859-1 (the PGN standard's character set) and converted; a UTF-8 byte order
 * mark is skipped; CR, tabs and form feeds are blanks.
 *
 * Ownership: arb_pgn_reader_new / arb_pgn_writer_new allocate, *_free release (NULL is a
 * no-op).  Every pointer the reader passes to a callback (texts, positions, error records) is
 * valid only during that callback; copy what you keep.  Texts passed to callbacks are not
 * NUL-terminated unless said otherwise: use the length.
 * Thread-safety: a reader or writer is used by one thread at a time; different ones are
 * independent.
 * Errors: arb_status codes; problems in the input are not failures of the call — they go to
 * the visitor's `error` callback, and reading goes on with the next game.
 */
#ifndef ARBITER_PGN_H
#define ARBITER_PGN_H

#include <stddef.h>

#include "arbiter/game.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_PGN_MAX_TOKEN (1u << 20) /* longest comment or tag value kept (bytes) */
#define ARB_PGN_MAX_DEPTH 1024       /* deepest variation nesting replayed */

/* ---- Problems found in the input ---- */

typedef enum arb_pgn_problem {
  ARB_PGN_SYNTAX = 1,     /* malformed token, tag, number, NAG, junk text */
  ARB_PGN_TAG,            /* a bad tag pair (unterminated string, no name, ...) */
  ARB_PGN_FEN,            /* the FEN tag is not a valid position */
  ARB_PGN_MOVE_SYNTAX,    /* not a move at all */
  ARB_PGN_MOVE_ILLEGAL,   /* no legal move fits */
  ARB_PGN_MOVE_AMBIGUOUS, /* several legal moves fit */
  ARB_PGN_NOT_STRICT,     /* accepted in lenient reading, but not exact SAN or export format */
  ARB_PGN_NULL_MOVE,      /* a null move where none is allowed */
  ARB_PGN_AFTER_END,      /* a move after the game had ended: mate or stalemate (error);
                             insufficient material or another dead position (a warning naming
                             the ply where the position became dead — servers play on; a win
                             scored after it is an ARB_PGN_RESULT error); fivefold repetition
                             or the 75-move rule (a warning: older rules had no such ending) */
  ARB_PGN_VARIATION,      /* a variation where none can start, unclosed or stray ')' */
  ARB_PGN_RESULT,         /* result missing, or tag and movetext disagree, or contradicted by
                             the final position */
  ARB_PGN_TIME_FORFEIT,   /* scored as a loss on time although the winner could never mate */
  ARB_PGN_TRUNCATED,      /* the input ended inside a game, tag or comment */
  ARB_PGN_LIMIT           /* a token or nesting beyond the reader's limits */
} arb_pgn_problem;

/* A short stable identifier for a problem, e.g. "move_illegal" (JSON reports). */
ARB_API const char *arb_pgn_problem_name(arb_pgn_problem p);

/* Where something is.  line and column are 1-based (column counts bytes). */
typedef struct arb_pgn_location {
  uint64_t line;
  uint32_t column;
  uint64_t game; /* 1-based number of the game in the input */
  int ply;       /* ply of the move concerned (1 = White's first move of the main line or, in a
                    variation, the ply the variation's move has), 0 when no move is concerned */
  int depth;     /* variation depth: 0 = main line */
} arb_pgn_location;

/* At most 64 errors and 64 warnings of one game reach the `error` callback; the counts in
 * arb_pgn_game_end and arb_pgn_stats include all of them. */
typedef struct arb_pgn_error {
  arb_pgn_problem problem;
  uint8_t warning; /* 1: not an error — the game stands (e.g. moves played on after a fivefold
                      repetition, which ends a game only under FIDE rules since 2014) */
  arb_pgn_location where;
  const char *token; /* the offending text (may be NULL), token_len bytes */
  size_t token_len;
  const char *message; /* NUL-terminated human-readable explanation */
} arb_pgn_error;

/* ---- Reader events ---- */

/* One move of the main line or of a variation. */
typedef struct arb_pgn_move {
  arb_move move;   /* the resolved legal move (ARB_MOVE_NULL for an allowed null) */
  const char *san; /* the token as written (without its annotation suffix) */
  size_t san_len;
  const arb_position *before; /* position before the move */
  const arb_position *after;  /* position after it */
  int ply;                    /* 1-based ply counted from the game's start position */
  int depth;                  /* 0 = main line */
} arb_pgn_move;

/* How a game's reading ended. */
typedef struct arb_pgn_game_end {
  uint64_t game;                      /* 1-based game number */
  uint64_t first_line;                /* line of the game's first token */
  arb_result tag_result;              /* Result tag (ARB_RESULT_NONE for "*" or missing) */
  uint8_t has_tag_result;             /* a Result tag with one of the four values was present */
  arb_result movetext_result;         /* the termination marker (ARB_RESULT_NONE for "*" or none) */
  uint8_t has_movetext_result;        /* a termination marker was read */
  arb_outcome final_outcome;          /* what the final main-line position itself decides (mate,
                                         stalemate, dead position, fivefold, 75 moves), else none */
  const arb_position *final_position; /* last main-line position reached (NULL if none) */
  int plies;                          /* main-line moves replayed */
  int errors;                         /* errors reported for this game (warnings not counted) */
  int warnings;                       /* warnings reported for this game */
  uint8_t skipped;     /* not replayed: a Variant Arbiter does not play (see variant) */
  uint8_t chess960;    /* played under Chess960 castling rules */
  const char *variant; /* the Variant tag value (NUL-terminated, "" when none) */
} arb_pgn_game_end;

/* Callbacks; any may be NULL.  `ctx` is passed back unchanged.  Callbacks that return int may
 * return non-zero to skip the rest of the current game (the reader still reads to its end
 * and calls end_game). */
typedef struct arb_pgn_visitor {
  void *ctx;
  int (*begin_game)(void *ctx, uint64_t game, uint64_t line);
  /* Tag pair, value unescaped (\" and \\) and in UTF-8.  Name and value are NUL-terminated. */
  int (*tag)(void *ctx, const char *name, size_t name_len, const char *value, size_t value_len);
  /* The movetext begins at `start` (the FEN tag's position or the initial one). */
  int (*begin_moves)(void *ctx, const arb_position *start);
  int (*move)(void *ctx, const arb_pgn_move *move);
  /* A comment ({...} or ; to the end of the line): the text between the delimiters, with each
   * run of blanks, line ends and control characters made one space and none at either end
   * (line breaks in a comment carry no meaning in PGN; so a comment reads back as written).
   * Comments before the first move of a game without tags are that game's, reported after
   * begin_moves; comments between a game and the next tag section belong to no game. */
  int (*comment)(void *ctx, const char *text, size_t len, int depth);
  /* A NAG: "$n", or a suffix mark after a move: "!" 1, "?" 2, "!!" 3, "??" 4, "!?" 5, "?!" 6. */
  int (*nag)(void *ctx, int nag, int depth);
  int (*begin_variation)(void *ctx, int depth); /* depth of the new variation (1 = first) */
  int (*end_variation)(void *ctx, int depth);
  void (*end_game)(void *ctx, const arb_pgn_game_end *end);
  void (*error)(void *ctx, const arb_pgn_error *error);
} arb_pgn_visitor;

/* Reading options (or-ed into arb_pgn_options.flags). */
#define ARB_PGN_STRICT 1u     /* exact SAN and export-format habits; deviations are errors */
#define ARB_PGN_ALLOW_NULL 2u /* accept null moves ("--", "Z0") in the movetext */
#define ARB_PGN_NO_VARIATIONS                                                                      \
  4u                               /* do not replay variations (they are still read and checked    \
                                      for balance, and still reported to the visitor as text) */
#define ARB_PGN_NO_RESULT_CHECK 8u /* do not check results against the position */
#define ARB_PGN_NO_REPLAY 16u      /* tokens only: no move is resolved (fast splitting) */

typedef struct arb_pgn_options {
  unsigned flags;
  arb_ruleset rules; /* which automatic endings apply to the main line (default FIDE) */
  /* Numbering when the input is one piece of a larger file: the line number of the first byte
   * (0 = 1) and the number to give the first game (0 = 1). */
  uint64_t first_line, first_game;
} arb_pgn_options;

typedef struct arb_pgn_reader arb_pgn_reader;

/* A new reader; opts may be NULL (lenient, FIDE).  The visitor is copied.  NULL when memory
 * runs out. */
ARB_API arb_pgn_reader *arb_pgn_reader_new(const arb_pgn_options *opts,
                                           const arb_pgn_visitor *visitor);
ARB_API void arb_pgn_reader_free(arb_pgn_reader *reader);

/* Reads the next len bytes of the input; complete tokens are processed at once, a token cut by
 * the chunk's end waits for the next call.  ARB_ERR_NO_MEMORY when memory runs out. */
ARB_API arb_status arb_pgn_reader_feed(arb_pgn_reader *reader, const void *data, size_t len);
/* The input has ended: finishes the last game (a game without its termination marker is
 * reported as such, a comment or tag cut by the end as truncated).  The reader may then be fed a
 * new input, whose lines and games are counted afresh. */
ARB_API arb_status arb_pgn_reader_finish(arb_pgn_reader *reader);

/* Statistics of the input read so far. */
typedef struct arb_pgn_stats {
  uint64_t bytes, games, games_with_errors, games_skipped, plies, errors, warnings;
} arb_pgn_stats;
ARB_API void arb_pgn_reader_stats(const arb_pgn_reader *reader, arb_pgn_stats *stats);

/* Classifies a Variant tag value: 0 standard chess (also "", "From Position"), 1 Chess960
 * ("Chess960", "chess 960", "Fischerandom", "FRC", ...), -1 rules Arbiter does not play. */
ARB_API int arb_pgn_variant_kind(const char *value, size_t len);

/* Parses a termination marker or Result tag value: "1-0", "0-1", "1/2-1/2", "*".
 * Returns 0 and sets *result, or -1 for anything else. */
ARB_API int arb_pgn_result_parse(const char *text, size_t len, arb_result *result);

/* ---- Writer: PGN export format ---- */

#define ARB_PGN_WRITE_NO_COMMENTS 1u   /* drop comments */
#define ARB_PGN_WRITE_NO_VARIATIONS 2u /* drop variations */
#define ARB_PGN_WRITE_NO_NAGS 4u       /* drop NAGs */

typedef struct arb_pgn_writer arb_pgn_writer;

/* A writer that appends to an internal buffer.  NULL when memory runs out. */
ARB_API arb_pgn_writer *arb_pgn_writer_new(unsigned flags);
ARB_API void arb_pgn_writer_free(arb_pgn_writer *writer);

/* Starts a game: forgets the previous game's tags (the buffer keeps its text). */
ARB_API void arb_pgn_writer_begin_game(arb_pgn_writer *w);
/* Adds a tag pair (name and value as plain text; the writer escapes).  The Seven Tag Roster
 * is written first in its order (missing ones as "?", Date as "????.??.??"), other tags after
 * it in the order given; a repeated tag keeps its first value.  The Result tag always repeats
 * the result given to arb_pgn_writer_end_game, so tag and termination marker agree.  Names
 * must be PGN symbols.  The game's text appears in the buffer at arb_pgn_writer_end_game. */
ARB_API arb_status arb_pgn_writer_tag(arb_pgn_writer *w, const char *name, size_t name_len,
                                      const char *value, size_t value_len);
/* 1 if name (len bytes) can be a tag name: a PGN symbol of letters, digits and _+#=:- . */
ARB_API int arb_pgn_tag_name_valid(const char *name, size_t len);
/* Tells the writer the game's start position (optional: the first move tells it too).  A game
 * from a Chess960 position (arb_position.chess960) gets [Variant "Chess960"]: a Variant tag given
 * that names other rules is replaced, a missing one added after the other tags. */
ARB_API void arb_pgn_writer_start(arb_pgn_writer *w, const arb_position *start);
/* Ends the tag section; called implicitly by the first movetext call. */
ARB_API arb_status arb_pgn_writer_begin_moves(arb_pgn_writer *w);
/* A move in SAN, played in `before` (move number and "N..." follow from it). */
ARB_API arb_status arb_pgn_writer_move(arb_pgn_writer *w, const arb_position *before,
                                       arb_move move);
/* The same, given also the position after the move (as arb_pgn_move has it), which must be
 * `before` with `move` made: the check mark is read from it instead of making the move again. */
ARB_API arb_status arb_pgn_writer_move_to(arb_pgn_writer *w, const arb_position *before,
                                          arb_move move, const arb_position *after);
ARB_API arb_status arb_pgn_writer_comment(arb_pgn_writer *w, const char *text, size_t len);
ARB_API arb_status arb_pgn_writer_nag(arb_pgn_writer *w, int nag);
ARB_API arb_status arb_pgn_writer_begin_variation(arb_pgn_writer *w);
ARB_API arb_status arb_pgn_writer_end_variation(arb_pgn_writer *w);
/* Writes the termination marker and the blank line that ends the game. */
ARB_API arb_status arb_pgn_writer_end_game(arb_pgn_writer *w, arb_result result);

/* The text written so far (NUL-terminated; valid until the next call on the writer), and
 * clearing it (the writer's state is kept). */
ARB_API const char *arb_pgn_writer_data(const arb_pgn_writer *w, size_t *len);
ARB_API void arb_pgn_writer_clear(arb_pgn_writer *w);
/* Discards the game being written since arb_pgn_writer_begin_game (text and state). */
ARB_API void arb_pgn_writer_discard_game(arb_pgn_writer *w);

#ifdef __cplusplus
}
#endif
#endif
