/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * game.h: the game layer — a game's history, repetition and move-count rules, every ending,
 * draw offers, claims and resignation, under one of several rule sets.
 *
 * Ownership: arb_game is opaque; arb_game_new allocates it, arb_game_free releases it
 * (arb_game_free(NULL) is a no-op).  Pointers returned by accessors point into the game and
 * stay valid until the next call that changes the game.  Strings returned by *_name functions
 * are static.
 * Thread-safety: a game may be used by one thread at a time; different games are independent.
 * Errors: arb_status codes (ARB_ERR_GAME_OVER, ARB_ERR_NOT_YOUR_TURN, ARB_ERR_NO_OFFER, ...).
 */
#ifndef ARBITER_GAME_H
#define ARBITER_GAME_H

#include "arbiter/notation.h"
#include "arbiter/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Rule sets: every difference between them lives in one table (ruleset.c). ---- */

typedef enum arb_ruleset {
  ARB_RULES_FIDE = 0,   /* FIDE Laws 2023, standard play (default) */
  ARB_RULES_FIDE_RAPID, /* FIDE Appendix A */
  ARB_RULES_FIDE_BLITZ, /* FIDE Appendix B */
  ARB_RULES_USCF,       /* US Chess: fivefold and 75 moves only "the director may declare" */
  ARB_RULES_ONLINE,     /* lichess-style server: threefold, 50 moves, material declared by it */
  ARB_RULES_CASUAL,     /* friendly play: automatic draws as FIDE, no penalties */
  ARB_RULES_COUNT
} arb_ruleset;

/* What a rule set does; see ruleset.c for the table and the reasons. */
typedef struct arb_rules {
  const char *name;             /* "fide", "fide-rapid", "fide-blitz", "uscf", "online", "casual" */
  uint8_t auto_fivefold;        /* fivefold repetition ends the game (else only reported) */
  uint8_t auto_seventyfive;     /* 75-move rule ends the game (else only reported) */
  uint8_t auto_threefold;       /* threefold ends the game without a claim */
  uint8_t auto_fifty;           /* 50-move rule ends the game without a claim */
  uint8_t auto_dead_position;   /* a dead position beyond the material classes ends the game */
  uint8_t claims;               /* threefold/50-move claims are made by players */
  uint8_t intended_move_claims; /* a claim may name an intended move (FIDE 9.2.1, 9.3.1) */
  uint8_t claim_by_either;      /* either player may claim, not just the side to move */
  uint8_t resign_draw_if_cannot_mate; /* FIDE 5.1.2 (2023): resigning is a draw then */
  uint8_t agreement_needs_moves;      /* agreement only after a move by each player (5.2.3) */
  uint16_t wrong_claim_penalty_s;     /* seconds added to the opponent's clock (9.5.3, A.3) */
} arb_rules;

/* The table row of a rule set (NULL for an out-of-range value). */
ARB_API const arb_rules *arb_rules_get(arb_ruleset rules);
/* Parses "fide", "fide-rapid", "fide-blitz", "uscf", "online" or "casual". */
ARB_API arb_status arb_rules_parse(const char *name, arb_ruleset *out);

/* ---- Outcomes ---- */

typedef enum arb_result {
  ARB_RESULT_NONE = 0, /* "*": the game goes on */
  ARB_RESULT_WHITE_WINS,
  ARB_RESULT_BLACK_WINS,
  ARB_RESULT_DRAW
} arb_result;

/* How a game ended — the one vocabulary of the whole library (docs/endings.md): the game layer
 * ends games by the first group itself; the referees (referee.h, otb.h) add the endings of
 * procedure; the JSON codecs, the server, the page and PGN's ArbiterTermination tag all use
 * these names (arb_termination_name), PGN's Termination tag arb_termination_pgn. */
typedef enum arb_termination {
  ARB_TERM_NONE = 0,
  ARB_TERM_CHECKMATE,
  ARB_TERM_STALEMATE,
  ARB_TERM_INSUFFICIENT_MATERIAL,
  ARB_TERM_DEAD_POSITION,
  ARB_TERM_FIVEFOLD_REPETITION,
  ARB_TERM_SEVENTYFIVE_MOVES,
  ARB_TERM_THREEFOLD_REPETITION,
  ARB_TERM_FIFTY_MOVES,
  ARB_TERM_AGREEMENT,
  ARB_TERM_RESIGNATION,
  ARB_TERM_TIME_FORFEIT, /* a flag fell: a loss, or a draw when the opponent could not win */
  /* The endings of procedure (a referee's decision; arb_game_end): */
  ARB_TERM_ABORTED,              /* ended without a result before each side had moved */
  ARB_TERM_ABANDONMENT,          /* online: claimed because the opponent left */
  ARB_TERM_ILLEGAL_MOVE,         /* an illegal move that loses at once (an engine's, in a match) */
  ARB_TERM_SECOND_ILLEGAL_MOVE,  /* FIDE 7.5.5: the second completed illegal move */
  ARB_TERM_ILLEGAL_MOVE_CLAIMED, /* US Chess blitz: a completed illegal move claimed */
  ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL, /* ... by a claimant who cannot mate: a draw */
  ARB_TERM_ILLEGAL_POSITION,  /* FIDE A.5.4: the illegal position was still on the board */
  ARB_TERM_ELECTRONIC_DEVICE, /* FIDE 11.3.2.2 */
  ARB_TERM_CRASH,             /* a program playing (an engine) died */
  ARB_TERM_STALL,             /* ... or stopped answering */
  ARB_TERM_ADJUDICATION,      /* a match's adjudication rule (move limit, scores) */
  ARB_TERM_ARBITER,           /* the arbiter's decision */
  ARB_TERM_COUNT
} arb_termination;

typedef struct arb_outcome {
  arb_result result;
  arb_termination termination;
  uint8_t automatic; /* 1: the rules ended the game; 0: a player did (claim, agreement, resign) */
  int8_t by;         /* the player who claimed/resigned/accepted (arb_color), -1 when automatic */
} arb_outcome;

/* "1-0", "0-1", "1/2-1/2" or "*". */
ARB_API const char *arb_result_string(arb_result result);
/* "checkmate", "stalemate", "insufficient_material", "dead_position", "fivefold_repetition",
 * "seventyfive_moves", "threefold_repetition", "fifty_moves", "agreement", "resignation",
 * "time_forfeit", "aborted", "abandonment", "illegal_move", "second_illegal_move",
 * "illegal_move_claimed", "illegal_move_claimant_lacks_mating_material", "illegal_position",
 * "electronic_device", "crash", "stall", "adjudication", "arbiter_decision"; "" for none.
 * Parse: ARB_ERR_ARGUMENT for other names (and ""). */
ARB_API const char *arb_termination_name(arb_termination t);
ARB_API arb_status arb_termination_parse(const char *name, size_t len, arb_termination *out);
/* The PGN Termination tag's value (PGN standard 9.8.1): "normal" for the endings of the laws
 * and of the players, "time forfeit", "rules infraction" (illegal moves, illegal position,
 * device), "abandoned" (aborted, abandonment, a crash or a stall), "adjudication" (a match's
 * rule, the arbiter's decision); "unterminated" for none. */
ARB_API const char *arb_termination_pgn(arb_termination t);
/* The article of the FIDE Laws (or US Chess rule) the ending rests on ("5.1.1", "9.6.1",
 * "7.5.5", "US blitz 7c", ...); "" for the endings no article covers (aborted, abandonment,
 * crash, stall, a match's illegal move or adjudication). */
ARB_API const char *arb_termination_article(arb_termination t);

/* ---- The game ---- */

typedef struct arb_game arb_game;

/* A new game from start (NULL = the initial position) under the given rules.  Returns NULL when
 * memory runs out.  The start position counts as the first occurrence for repetitions. */
ARB_API arb_game *arb_game_new(const arb_position *start, arb_ruleset rules);
ARB_API void arb_game_free(arb_game *game);

ARB_API arb_ruleset arb_game_rules(const arb_game *game);
/* Event rule (FIDE 9.1.1, "Sofia"): no agreed draw before this move number (0 = no limit). */
ARB_API void arb_game_set_no_draw_before(arb_game *game, unsigned move_number);
/* The node budget of the searches the laws ask during this game — whether the winner could
 * ever mate, when a player resigns (FIDE 5.1.2) or a flag falls (6.9): arb_winnability_of's
 * budget; 0 (the default) is ARB_WIN_DEFAULT_BUDGET, at most about a tenth of a second.  A
 * server that answers every client within milliseconds sets less; a position the budget does
 * not settle counts as one the winner could mate in, which is what the Laws then apply. */
ARB_API void arb_game_set_search_budget(arb_game *game, uint64_t nodes);
ARB_API uint64_t arb_game_search_budget(const arb_game *game);

/* The position now, and at ply i (0 = start ... arb_game_ply_count = now). */
ARB_API const arb_position *arb_game_position(const arb_game *game);
ARB_API const arb_position *arb_game_position_at(const arb_game *game, int ply);
/* Plies played since the start position. */
ARB_API int arb_game_ply_count(const arb_game *game);
/* The move of ply i (1-based: ply 1 is the first move played) and its SAN ("" out of range). */
ARB_API arb_move arb_game_move_at(const arb_game *game, int ply);
ARB_API const char *arb_game_san_at(const arb_game *game, int ply);

/* Plays a move, which must be legal.  Then evaluates the automatic endings in the order of
 * RULES.md R21.  A pending draw offer lapses when its opponent moves.
 * ARB_ERR_GAME_OVER after the end, ARB_ERR_MOVE_ILLEGAL for an illegal move (nothing changes).
 * ARB_MOVE_NULL: see arb_game_set_null_moves (ARB_ERR_NULL_MOVE while they are off). */
ARB_API arb_status arb_game_play(arb_game *game, arb_move move);

/* Null moves (off by default; FIDE has none — they are for analysis, engines' PGN and
 * python-chess users): with allow non-zero, arb_game_play takes ARB_MOVE_NULL and
 * arb_game_play_text "--", "Z0", "0000" and "null".  A null move passes the turn and is played
 * and undone like any move (arb_game_undo); its SAN is "--", its UCI "0000".  Refused while the
 * side to move is in check (ARB_ERR_NULL_IN_CHECK): the king would stay attacked.
 * How it counts, as in python-chess:
 * - move counters: like a quiet move — the halfmove clock goes up by one (a null move is
 *   neither a capture nor a pawn move, so it cannot reset the 50/75-move count, and it does
 *   advance it: both are counted in plies played), the fullmove number after Black's;
 * - repetitions: the position after a null move is compared like any other (placement, side
 *   to move, castling rights, a legal en passant capture — which a null move gives up), and the
 *   search for earlier occurrences runs across null moves, back to the last capture or pawn
 *   move.  A null move changes only the side to move, so the positions on either side of it are
 *   real positions with a well-defined identity; cutting the history at null moves would make a
 *   repetition depend on how the line was entered rather than on the positions.
 * Automatic endings are judged after a null move as after any move. */
ARB_API void arb_game_set_null_moves(arb_game *game, int allow);
/* Play on (off by default): moves may follow an automatic ending, as on an analysis board or
 * python-chess's Board.  arb_game_outcome is then always the current position's own automatic
 * ending (checkmate, stalemate, dead position, fivefold, 75 moves under the rules in force) or
 * none: moving on past one, or taking a move back, judges the new position afresh.  An ending a
 * player made (claim, agreement, resignation, arb_game_end) still ends play. */
ARB_API void arb_game_set_play_on(arb_game *game, int on);
/* Parses SAN or UCI (lenient) and plays it; err (may be NULL) explains a failure, of the
 * parse or of arb_game_play (e.g. ARB_ERR_NULL_IN_CHECK, ARB_ERR_GAME_OVER). */
ARB_API arb_status arb_game_play_text(arb_game *game, const char *text, size_t len,
                                      arb_san_error *err);
/* Takes back the last move, and with it any ending, open offer or must-play obligation that
 * came after it (also a resignation or agreement made since).  ARB_ERR_ARGUMENT at the start. */
ARB_API arb_status arb_game_undo(arb_game *game);

/* How often the current position (FIDE 9.2.3 identity: placement, side to move, castling
 * rights, en passant square only when the capture is legal) has occurred, counting now. */
ARB_API int arb_game_repetitions(const arb_game *game);
/* How often the position after `move` (legal now) would have occurred, counting that time. */
ARB_API int arb_game_repetitions_after(const arb_game *game, arb_move move);

/* Facts about the current position under the game's rules. */
typedef struct arb_game_facts {
  int repetitions;             /* arb_game_repetitions */
  uint8_t threefold;           /* the current position occurred 3 or more times */
  uint8_t can_claim_threefold; /* ... or some legal move would make it the 3rd time (9.2.1) */
  uint8_t fivefold;            /* occurred 5 or more times (9.6.1) */
  uint8_t can_claim_fifty;     /* 50 moves each without capture or pawn move (9.3), and not mate; or
                                  a legal move that would complete them (9.3.1) */
  uint8_t fifty;               /* halfmove clock >= 100 and not mate */
  uint8_t seventyfive;         /* halfmove clock >= 150 and not mate (9.6.2) */
  uint8_t checkmate, stalemate, insufficient_material, dead_position;
} arb_game_facts;
ARB_API void arb_game_facts_of(const arb_game *game, arb_game_facts *facts);

/* The outcome so far (result ARB_RESULT_NONE while the game goes on). */
ARB_API arb_outcome arb_game_outcome(const arb_game *game);

/* ---- Offers, claims, resignation ---- */

typedef enum arb_claim_reason { ARB_CLAIM_THREEFOLD = 1, ARB_CLAIM_FIFTY = 2 } arb_claim_reason;

typedef struct arb_claim_verdict {
  uint8_t correct;      /* the claim was correct: the game is drawn */
  uint8_t must_play;    /* incorrect claim with an intended move: that move must be played */
  arb_move intended;    /* the intended move (ARB_MOVE_NONE when the claim named none) */
  uint16_t penalty_s;   /* incorrect: seconds to add to the opponent's clock (clock layer) */
  uint8_t became_offer; /* the claim now stands as a draw offer (9.1.2.3) */
} arb_claim_verdict;

/* A claim of a draw by `by`, on the present position or with an intended move (legal now; it is
 * not played).  Correct → the game ends (ARB_TERM_THREEFOLD_REPETITION / FIFTY_MOVES).
 * Incorrect → the verdict says what follows, and the claim stands as a draw offer.
 * A claim is correct when the condition holds now or the intended move would complete it.
 * ARB_ERR_NOT_YOUR_TURN when only the side to move may claim, ARB_ERR_GAME_OVER,
 * ARB_ERR_MUST_PLAY while the move written in an earlier wrong claim is still to be played,
 * ARB_ERR_NOT_ALLOWED when the rule set has no claims (or no intended-move claims),
 * ARB_ERR_MOVE_ILLEGAL for an illegal intended move. */
ARB_API arb_status arb_game_claim(arb_game *game, arb_color by, arb_claim_reason reason,
                                  arb_move intended, arb_claim_verdict *verdict);

/* Whether a claim by the side to move would be correct now: the condition holds on the present
 * position, or the intended move (may be ARB_MOVE_NONE) would complete it;
 * changes nothing.  0 for an illegal intended move. */
ARB_API int arb_game_claim_correct(const arb_game *game, arb_claim_reason reason,
                                   arb_move intended);

/* Draw offers: an offer cannot be withdrawn; it stays open until accepted, declined, or until
 * the opponent moves; the offering side's own moves keep it open.  Accepting needs an open
 * offer by the other side (ARB_ERR_NO_OFFER), a move by each player (ARB_ERR_NOT_ALLOWED),
 * and the event's minimum move number (ARB_ERR_NOT_ALLOWED). */
ARB_API arb_status arb_game_offer_draw(arb_game *game, arb_color by);
ARB_API arb_status arb_game_accept_draw(arb_game *game, arb_color by);
ARB_API arb_status arb_game_decline_draw(arb_game *game, arb_color by);
/* The side with an open draw offer, or -1. */
ARB_API int arb_game_draw_offer(const arb_game *game);
/* The move named in a wrong claim (FIDE 9.5.2), which the claimant must play next, or
 * ARB_MOVE_NONE when there is no such obligation. */
ARB_API arb_move arb_game_must_play(const arb_game *game);

/* Ends the game on time: `flagged`'s flag fell and the clock layer's verdict (arb_game_flag_fall)
 * is `result` (a win for the opponent, or a draw).  ARB_ERR_GAME_OVER when the game had already
 * ended (that ending stands), ARB_ERR_ARGUMENT for a bad colour or ARB_RESULT_NONE. */
ARB_API arb_status arb_game_time_forfeit(arb_game *game, arb_color flagged, arb_result result);

/* Ends the game by a decision of procedure (a referee's: ARB_TERM_ABANDONMENT ..
 * ARB_TERM_ARBITER; an abort, which has no result, is the referee's alone) with `result`; `by`
 * is the player it rests on (who claimed, or who forfeited), or -1.  The caller decides the result:
 * this only records it. ARB_ERR_GAME_OVER when the game had ended, ARB_ERR_ARGUMENT for a
 * termination of the laws (they come from play, claims, offers, resignation and flags),
 * ARB_TERM_ABORTED, or a bad result or colour. */
ARB_API arb_status arb_game_end(arb_game *game, arb_result result, arb_termination termination,
                                int by);

/* Resignation by either player at any time; a draw instead when the opponent cannot checkmate
 * by any sequence of legal moves and the rule set says so (FIDE 5.1.2). */
ARB_API arb_status arb_game_resign(arb_game *game, arb_color by);

#ifdef __cplusplus
}
#endif
#endif
