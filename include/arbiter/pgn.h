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

/* ---- Splitting a PGN stream at game boundaries (src/pgn/split.c) ----
 *
 * A stream of PGN text is cut into pieces that each hold whole games, so that separate readers
 * (threads, processes, a cluster's workers) can read them apart and their outputs be put
 * together in order as one reader's (arb_pgn_job, arb_pgn_output below).  A piece ends just
 * before a game boundary — a line starting "[Event " after a blank line — the first at or after
 * `target` bytes into the piece.  With no boundary between `target` and `max` bytes, the piece
 * is cut after the last line end there (or at `max`): a game longer than that is cut in two, and
 * each reader reports its part as damaged; memory stays bounded.  Where a piece ends depends
 * only on the stream, never on how it was fed.
 *
 *   arb_pgn_splitter *s = arb_pgn_splitter_new(0, 0);
 *   while ((n = read(fd, buf, sizeof buf)) > 0) {
 *     arb_pgn_splitter_feed(s, buf, n);
 *     while (arb_pgn_splitter_next(s, 0, &piece)) use(piece.data, piece.len, piece.first_line);
 *   }
 *   while (arb_pgn_splitter_next(s, 1, &piece)) use(...);        (the end: the rest)
 *
 * Ownership: arb_pgn_splitter_new allocates, arb_pgn_splitter_free releases (NULL: no-op).  A
 * piece's data points into the splitter and stays valid until the next call on it.  Memory:
 * taking every piece next gives after each feed, the splitter holds at most max + 8 bytes plus
 * the last block fed.  Thread-safety: one thread at a time per splitter.  Errors:
 * ARB_ERR_NO_MEMORY from feed (nothing fed then). */

#define ARB_PGN_PIECE_TARGET (1u << 18) /* 256 KB */
#define ARB_PGN_PIECE_MAX (1u << 19)    /* 512 KB */

typedef struct arb_pgn_piece {
  const char *data; /* the piece's bytes (len of them; not NUL-terminated) */
  size_t len;
  uint64_t first_line; /* the line number of its first byte in the stream (1-based) */
  uint64_t offset;     /* the offset of its first byte in the stream */
  uint8_t forced;      /* no game boundary between target and max: cut at a line end or max */
} arb_pgn_piece;

typedef struct arb_pgn_splitter arb_pgn_splitter;

/* A splitter cutting pieces of about target bytes, at most max (0, 0: ARB_PGN_PIECE_TARGET and
 * ARB_PGN_PIECE_MAX; max is raised to target when smaller).  NULL when memory runs out. */
ARB_API arb_pgn_splitter *arb_pgn_splitter_new(size_t target, size_t max);
ARB_API void arb_pgn_splitter_free(arb_pgn_splitter *s);
/* Appends len bytes of the stream (copied). */
ARB_API arb_status arb_pgn_splitter_feed(arb_pgn_splitter *s, const void *data, size_t len);
/* The next whole piece into *out: 1, or 0 when the bytes fed so far do not yet decide where it
 * ends.  With end non-zero the stream is over: the rest is given out piece by piece, then 0. */
ARB_API int arb_pgn_splitter_next(arb_pgn_splitter *s, int end, arb_pgn_piece *out);

/* ---- Reading pieces as `arbiter pgn` does: reports, conversions, filters (src/pgn/job.c) ----
 *
 * A job is one reader over one piece (or a whole stream fed block by block) that turns what it
 * reads into output records: with format ARB_PGN_FORMAT_NONE (`arbiter pgn check`) one record
 * per problem, "FILE:LINE:COL: game N (White – Black): ply P: message" (or a JSON object with
 * json set); with another format (`convert`, and `filter` with filters set) one record per game
 * without problems that passes the filters, in that format, and the problems as records marked
 * to_stderr.  A record's game number is relative to the job's first game: an arb_pgn_output
 * puts the records of consecutive jobs together in order, numbering games across them, and
 * drops repeated games (dedupe).  The text is byte for byte the command's: `arbiter pgn` is a
 * front end over these calls, as is the Python package's Dask stage.
 *
 * Ownership: _new allocates, _free releases (NULL: no-op); the options (and the strings and
 * arrays they point to) are the caller's and must outlive the job.  A record passed to a sink,
 * or read back with arb_pgn_records_next, points into the job's memory: valid during the call,
 * or until the job is freed.  Thread-safety: one thread at a time per job or output; different
 * ones are independent.  Errors: ARB_ERR_NO_MEMORY (the records so far stay valid). */

typedef enum arb_pgn_format {
  ARB_PGN_FORMAT_NONE = 0, /* check: the reports are the output */
  ARB_PGN_FORMAT_PGN,      /* export format */
  ARB_PGN_FORMAT_UCI,      /* one line of UCI moves per game (main line) */
  ARB_PGN_FORMAT_LAN,      /* one line of long algebraic moves per game */
  ARB_PGN_FORMAT_FEN,      /* every main-line position's FEN, a blank line after each game */
  ARB_PGN_FORMAT_JSONL     /* one JSON object per game: tags, start, uci, san, comments, clocks,
                              evals, result, termination, final */
} arb_pgn_format;

typedef struct arb_pgn_tag_filter {
  const char *name, *value; /* the game has tag name with exactly this value */
} arb_pgn_tag_filter;

typedef struct arb_pgn_job_options {
  const char *file; /* the input's name in reports (NUL-terminated; "<stdin>" ...) */
  arb_pgn_format format;
  uint8_t json;         /* reports as JSON objects (one a line) */
  uint8_t tree;         /* pgn output through a game tree (arbiter/tree.h): comment commands
                           rewritten in one canonical form */
  unsigned read_flags;  /* ARB_PGN_STRICT, ... */
  unsigned write_flags; /* ARB_PGN_WRITE_* (pgn output) */
  arb_ruleset rules;
  /* Filters, for a format other than NONE; a NULL string or 0 is no filter.  filtering must be
   * set for any to apply. */
  uint8_t filtering;
  const char *white, *black, *player; /* a substring of the name, any case */
  const char *result;                 /* "1-0", "0-1", "1/2-1/2", "*" */
  const char *date_from, *date_to;    /* YYYY.MM.DD (a prefix for date_to) */
  long min_elo, max_elo;              /* both players */
  const char *eco_from, *eco_to;      /* "A00", "E99": both or neither */
  int setup;                          /* 1 only games from a FEN, -1 only from the start */
  const arb_position *position;       /* a position the main line reaches (placement, side) */
  uint8_t has_key;
  uint64_t key; /* a Polyglot key the main line reaches */
  const arb_pgn_tag_filter *tags;
  int ntags;      /* at most 16 */
  uint8_t dedupe; /* give games a hash of their start and main line (arb_pgn_output drops the
                     repeats) */
} arb_pgn_job_options;

/* One output record: prefix, then (when game is not 0) the game's number, then suffix. */
typedef struct arb_pgn_record {
  uint8_t to_stderr; /* a problem reported while converting: diagnostics, not output */
  uint8_t is_game;   /* a game's text (counted as written; dedupe applies to it) */
  uint64_t game;     /* a report's game number, relative to the job (1: its first game); 0 none */
  uint64_t hash;     /* with dedupe: the game's start and main line, never 0; else 0 */
  const char *prefix;
  size_t prefix_len;
  const char *suffix;
  size_t suffix_len;
} arb_pgn_record;

typedef void (*arb_pgn_record_fn)(void *ctx, const arb_pgn_record *record);

typedef struct arb_pgn_job arb_pgn_job;

/* A job reading from line first_line (0: 1) of its input.  With sink, each record is handed to
 * it as it is made (in order); without, the records are kept (arb_pgn_job_records).  NULL when
 * memory runs out. */
ARB_API arb_pgn_job *arb_pgn_job_new(const arb_pgn_job_options *o, uint64_t first_line,
                                     arb_pgn_record_fn sink, void *ctx);
ARB_API void arb_pgn_job_free(arb_pgn_job *job);
/* Reads the next len bytes; ARB_ERR_NO_MEMORY when memory ran out. */
ARB_API arb_status arb_pgn_job_feed(arb_pgn_job *job, const void *data, size_t len);
/* The input is over: the last game is finished; *stats (may be NULL) gets the reader's counts. */
ARB_API arb_status arb_pgn_job_finish(arb_pgn_job *job, arb_pgn_stats *stats);
/* The reader's counts so far (games read, ...). */
ARB_API void arb_pgn_job_stats(const arb_pgn_job *job, arb_pgn_stats *stats);
/* The kept records, serialised (*len bytes; valid until the job is freed): read them back with
 * arb_pgn_records_next, here or after copying the bytes elsewhere (another process). */
ARB_API const void *arb_pgn_job_records(const arb_pgn_job *job, size_t *len);
/* The record at *pos of a serialised buffer into *out, *pos moved past it: 1, or 0 at the end
 * (or on a buffer that is not whole). */
ARB_API int arb_pgn_records_next(const void *buf, size_t len, size_t *pos, arb_pgn_record *out);

/* ---- Ordered output of jobs (src/pgn/job.c) ---- */

typedef void (*arb_pgn_write_fn)(void *ctx, int to_stderr, const char *data, size_t len);

typedef struct arb_pgn_output arb_pgn_output;

/* An output writing records through write, game numbers counted across jobs, repeated games
 * dropped when dedupe is set.  NULL when memory runs out. */
ARB_API arb_pgn_output *arb_pgn_output_new(int dedupe, arb_pgn_write_fn write, void *ctx);
ARB_API void arb_pgn_output_free(arb_pgn_output *out);
/* A new input begins (its games are numbered from 1 again). */
ARB_API void arb_pgn_output_file(arb_pgn_output *out);
/* Writes one record of the present job (a repeat, under dedupe, is counted and dropped). */
ARB_API void arb_pgn_output_record(arb_pgn_output *out, const arb_pgn_record *r);
/* The present job is done: the next job's games come after its stats->games; its counts are
 * added to the totals. */
ARB_API void arb_pgn_output_job_done(arb_pgn_output *out, const arb_pgn_stats *stats);
/* The totals so far: the readers' counts, the games written and the repeats dropped. */
ARB_API void arb_pgn_output_totals(const arb_pgn_output *out, arb_pgn_stats *stats,
                                   uint64_t *written, uint64_t *duplicates);
/* `arbiter pgn`'s summary line of stats (with its newline): "N games, N with errors (N errors,
 * N warnings), N skipped (other variants), N plies; X MB in S s (R MB/s)", or with json the
 * object {"summary":{...}}.  snprintf convention. */
ARB_API int arb_pgn_summary_write(const arb_pgn_stats *stats, double seconds, int json, char *buf,
                                  size_t size);

#ifdef __cplusplus
}
#endif
#endif
