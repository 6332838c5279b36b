/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * otb.h: the over-the-board referee — the act of moving (FIDE Article 4: touch-move, castling
 * touch order, promotion, the released move), completed illegal moves and their penalties
 * (7.5, A.3-A.5, B.2-B.3, US Chess 11A-11D and blitz), the clock presses that complete moves,
 * flags as observed or claimed (6.8), claims, offers, and the as-played record — driven by the
 * events an arbiter's log, an electronic clock and an e-board produce (../shared/docs/OTB.md).
 *
 *   arb_otb *otb = arb_otb_new();
 *   arb_otb_setup setup = ARB_OTB_SETUP_INIT;            (standard start, FIDE, no e-board)
 *   arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_START, 0);
 *   ev.setup = &setup;
 *   arb_otb_decision d;
 *   arb_otb_event_apply(otb, &ev, &d);
 *   ev = (arb_otb_event)ARB_OTB_EVENT_INIT(ARB_OTB_TOUCH, 1000);
 *   ev.by = ARB_WHITE; ev.squares[0] = ARB_SQUARE(6, 0); ev.square_count = 1;   (touches g1)
 *   arb_otb_event_apply(otb, &ev, &d);          (d.obligation: the g1 knight must move)
 *
 * The model.  The player who has the move (FIDE 1.3: the opponent's move has been *made*, i.e.
 * released, 4.7) goes through idle → touched → lifted → made → completed (the clock press).
 * A made move is on the board (the position shows it); the press completes it.  Whatever the
 * player touched binds him (the obligation: the allowed moves, 4.3-4.4); a released legal move
 * cannot be changed (4.7).  A press that completes an illegal move, a press without a move
 * (7.5.3), a two-handed move (7.5.4) or a promotion left unfinished (7.5.2: a queen) is a
 * completed illegal move: the position before it is restored with the touch-move obligation on
 * the piece, the opponent gets time, and the second one loses — or draws when the opponent
 * cannot mate by any series of legal moves (arb_cannot_mate).  When the referee acts on its own
 * and when only a claim or the arbiter can act is the supervision (see arb_otb_supervision);
 * an illegal move nobody acted on in time stands, and play goes on from the real board, even
 * a position no legal game reaches.
 *
 * Evidence.  Events say where they come from (ARB_OTB_SRC_*).  The referee enforces Article 4
 * by itself when the evidence is its own — an e-board lift — and marks such a ruling
 * needs_confirmation (a board cannot see an unannounced j'adoube or a hand that did not
 * release); a contact entered in the log binds the player, but its breach is ruled on a claim
 * (lost once the claimant touches a piece, 4.8) or when the arbiter observes it.
 *
 * E-boards.  lift/place/board events move pieces on the physical board the referee keeps; a
 * placement equal to a legal successor of the position is a candidate move, made when it has
 * been stable for the debounce (or at the next press, or a release); a slide's intermediate
 * placements never become moves.  Presence-only boards (no piece types) follow the lifted
 * pieces from square to square; their promotions need the piece named (ARB_OTB_PROMOTE_CHOICE).
 * A return to an earlier placement is a changed released move (4.7) under FIDE and US Chess and
 * a takeback under casual rules.  Unexplained placements are warnings, never moves.
 *
 * Ownership: arb_otb is opaque (arb_otb_new/arb_otb_free; NULL is a no-op for free); events and
 * setups are the caller's and are copied.  A decision is a plain value filled by the call.
 * Memory: allocation at a start and as the record grows; none per event otherwise.
 * Thread-safety: one thread at a time per referee.  Errors: a refused event changes nothing;
 * the decision says why (status, refusal, message).
 */
#ifndef ARBITER_OTB_H
#define ARBITER_OTB_H

#include "arbiter/clock.h"
#include "arbiter/game.h"
#include "arbiter/pgn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rule sets over the board (US Chess blitz has its own illegal-move and flag rules). */
typedef enum arb_otb_rules {
  ARB_OTB_FIDE = 0,
  ARB_OTB_FIDE_RAPID,
  ARB_OTB_FIDE_BLITZ,
  ARB_OTB_USCF,
  ARB_OTB_USCF_BLITZ,
  ARB_OTB_CASUAL,
  ARB_OTB_RULES_COUNT
} arb_otb_rules;
/* "fide", "fide-rapid", "fide-blitz", "uscf", "uscf-blitz", "casual"; parse: ARB_ERR_ARGUMENT
 * for other names. */
ARB_API const char *arb_otb_rules_name(arb_otb_rules rules);
ARB_API arb_status arb_otb_rules_parse(const char *name, size_t len, arb_otb_rules *out);

/* Who watches (FIDE A.4/A.5, B.2/B.3), which decides when the referee acts on a completed
 * illegal move by itself:
 *   standard play, B.2 (one arbiter per game): at once, on the press;
 *   A.4 (one arbiter for at most three games, every game recorded): when the arbiter observes it
 *       or the opponent claims, with no time limit — later moves are annulled;
 *   A.5, B.3: only on a claim or the arbiter's observation before the opponent has made his
 *       next move; after that the move stands;
 *   US Chess: on a claim (or the director's observation) within the last ten moves (11A); the
 *       two minutes only for a claim before the claimant completes his own next move (11D).
 * DEFAULT: standard play; A.5 for rapid, B.3 for blitz. */
typedef enum arb_otb_supervision {
  ARB_OTB_SUP_DEFAULT = 0,
  ARB_OTB_SUP_A4,
  ARB_OTB_SUP_A5,
  ARB_OTB_SUP_B2,
  ARB_OTB_SUP_B3
} arb_otb_supervision;

/* What an e-board can tell apart. */
typedef enum arb_otb_sensing {
  ARB_OTB_BOARD_NONE = 0, /* no e-board: the log and the clock only */
  ARB_OTB_BOARD_IDENTITY, /* piece types on squares (DGT, Millennium, Chessnut, Certabo) */
  ARB_OTB_BOARD_PRESENCE  /* occupancy only (DGT Centaur, Pegasus) */
} arb_otb_sensing;

/* US Chess variations announced for the event. */
#define ARB_OTB_US_10I2 1u /* "rook touched first": castling still allowed */
#define ARB_OTB_US_11H1 2u /* observed illegal moves corrected only on a claim */

typedef struct arb_otb_setup {
  const arb_position *start; /* NULL: the initial position */
  const arb_move *moves;     /* move_count legal moves already completed from start */
  size_t move_count;
  arb_otb_rules rules;
  arb_otb_supervision supervision;
  const arb_time_control *control; /* NULL: no clock times (presses still complete moves) */
  arb_otb_sensing sensing;
  int64_t debounce_ms;      /* e-board: a placement stable this long is released; 0 = 250 */
  unsigned variations;      /* ARB_OTB_US_* */
  uint8_t guidelines_iii;   /* FIDE Guidelines III (quickplay finish) announced */
  uint8_t illegal_count[2]; /* completed illegal moves each side already has */
} arb_otb_setup;
#define ARB_OTB_SETUP_INIT                                                                         \
  { .start = NULL, .rules = ARB_OTB_FIDE, .supervision = ARB_OTB_SUP_DEFAULT }

typedef enum arb_otb_kind {
  ARB_OTB_START = 0,       /* ev.setup */
  ARB_OTB_TOUCH,           /* ev.by touches ev.squares (ev.order, ev.intent) — log */
  ARB_OTB_ADJUST_ANNOUNCE, /* ev.by says "j'adoube" (before contact, 4.2.1) */
  ARB_OTB_LIFT,            /* a piece left ev.squares[0] — e-board */
  ARB_OTB_PLACE,           /* ev.piece (ARB_NO_PIECE on presence boards) put on ev.squares[0] */
  ARB_OTB_BOARD,           /* a full snapshot: ev.text is FEN field 1; ev.stable_ms */
  ARB_OTB_RELEASE,         /* ev.by's hand left the piece on ev.squares[0] — log */
  ARB_OTB_MOVE,            /* ev.by made ev.text (UCI or SAN; may be an illegal move), ev.hands */
  ARB_OTB_PROMOTE_CHOICE,  /* ev.by names the promotion piece ev.piece (presence boards) */
  ARB_OTB_PRESS,           /* ev.by pressed the clock (ev.other_hand: not the moving hand) */
  ARB_OTB_CLOCK_PAUSE,     /* the clock stopped without a press (6.11) */
  ARB_OTB_CLOCK_RESUME,
  ARB_OTB_FLAG_SHOWN,       /* the clock shows ev.side's flag: a fact, not yet a fall (6.8) */
  ARB_OTB_CLAIM,            /* ev.by claims ev.matter (ev.text: an intended move; ev.ply) */
  ARB_OTB_ARBITER_OBSERVES, /* the arbiter sees ev.matter (ev.ply); an illegal move found later:
                               ev.ply the recorded move's ply, ev.text the move as played (7.5.1) */
  ARB_OTB_ARBITER_RULES,    /* the arbiter's judgement: ev.decision (ev.side, ev.ms, ev.result) */
  ARB_OTB_RECORD,           /* ev.by writes ev.text on the scoresheet (ev.ply) */
  ARB_OTB_OFFER_DRAW,
  ARB_OTB_ACCEPT_DRAW,
  ARB_OTB_DECLINE_DRAW,
  ARB_OTB_RESIGN,
  ARB_OTB_DEVICE, /* an electronic device evident on ev.by (11.3.2) */
  ARB_OTB_NOTE,   /* free text: recorded, no effect */
  ARB_OTB_SIGN,   /* both players sign the scoresheets with ev.result (8.7) */
  ARB_OTB_KIND_COUNT
} arb_otb_kind;
/* The JSON names: "start", "touch", "adjust_announce", "lift", "place", "board", "release",
 * "move", "promote_choice", "press", "clock_pause", "clock_resume", "flag_shown", "claim",
 * "arbiter_observes", "arbiter_rules", "record", "offer_draw", "accept_draw", "decline_draw",
 * "resign", "device", "note", "sign". */
ARB_API const char *arb_otb_kind_name(arb_otb_kind kind);
ARB_API arb_status arb_otb_kind_parse(const char *name, size_t len, arb_otb_kind *out);

/* What a claim or an arbiter's observation is about. */
typedef enum arb_otb_matter {
  ARB_OTB_M_NONE = 0,
  ARB_OTB_M_ILLEGAL_MOVE,
  ARB_OTB_M_TOUCH_MOVE,
  ARB_OTB_M_FLAG,
  ARB_OTB_M_THREEFOLD,
  ARB_OTB_M_FIFTY,
  ARB_OTB_M_DEAD_POSITION,
  ARB_OTB_M_QUICKPLAY_INCREMENT, /* Guidelines III.4 */
  ARB_OTB_M_NO_NORMAL_MEANS,     /* Guidelines III.5 */
  ARB_OTB_M_PAWN_ON_LAST_RANK,   /* A.5.4 */
  ARB_OTB_M_BOTH_KINGS_IN_CHECK, /* A.5.4 */
  ARB_OTB_M_COUNT
} arb_otb_matter;
/* "illegal_move", "touch_move", "flag", "threefold", "fifty", "dead_position",
 * "quickplay_increment", "no_normal_means", "pawn_on_last_rank", "both_kings_in_check". */
ARB_API const char *arb_otb_matter_name(arb_otb_matter m);
ARB_API arb_status arb_otb_matter_parse(const char *name, size_t len, arb_otb_matter *out);

/* The arbiter's judgements (ARB_OTB_ARBITER_RULES). */
typedef enum arb_otb_ruling {
  ARB_OTB_R_NONE = 0,
  ARB_OTB_R_ACCEPT,          /* a claim that needed judgement is upheld (III.5: a draw) */
  ARB_OTB_R_REJECT,          /* it is rejected (III.4/III.5: the opponent +2 min) */
  ARB_OTB_R_AGREE_INCREMENT, /* III.4: 5 s per move for both from now */
  ARB_OTB_R_SUPPLY_PIECE,    /* the missing promotion piece was supplied (6.11.4) */
  ARB_OTB_R_NO_VALID_REASON, /* a pause without a valid reason (6.11, 12.9) */
  ARB_OTB_R_TIME_ADJUST,     /* ev.ms added to ev.side's clock */
  ARB_OTB_R_RESULT,          /* the game ends with ev.result */
  ARB_OTB_R_COUNT
} arb_otb_ruling;
ARB_API const char *arb_otb_ruling_name(arb_otb_ruling r);
ARB_API arb_status arb_otb_ruling_parse(const char *name, size_t len, arb_otb_ruling *out);

#define ARB_OTB_SRC_LOG 0    /* an arbiter's, assistant's or player's entry */
#define ARB_OTB_SRC_EBOARD 1 /* the board's sensors */
#define ARB_OTB_SRC_CLOCK 2  /* the clock */

#define ARB_OTB_ORDER_FIRST 0 /* squares in the order touched */
#define ARB_OTB_ORDER_SIMULTANEOUS 1
#define ARB_OTB_ORDER_UNKNOWN 2 /* own piece counts as first (4.3.3) */

#define ARB_OTB_INTENT_MOVE 0
#define ARB_OTB_INTENT_CASTLE 1
#define ARB_OTB_INTENT_ADJUST 2
#define ARB_OTB_INTENT_ACCIDENTAL 3

typedef struct arb_otb_event {
  arb_otb_kind kind;
  int64_t t;      /* ms, never going back */
  int8_t by;      /* arb_color or -1 (e-board events: inferred) */
  int8_t side;    /* flag_shown, arbiter_rules */
  uint8_t source; /* ARB_OTB_SRC_* */
  uint8_t order, intent, hands, other_hand;
  arb_square squares[8];
  uint8_t square_count;
  arb_piece piece;  /* place, promote_choice; ARB_NO_PIECE: unknown */
  const char *text; /* move, claim (intended), record: a move; board: a placement */
  size_t text_len;
  int64_t stable_ms;     /* board: how long the snapshot has been unchanged (0: unknown) */
  arb_otb_matter matter; /* claim, arbiter_observes */
  int ply;               /* claim, arbiter_observes, record: 1-based ply it is about; 0: latest */
  arb_otb_ruling ruling; /* arbiter_rules */
  int64_t ms;            /* arbiter_rules time_adjust */
  arb_result result;     /* arbiter_rules result */
  uint8_t evident;       /* device */
  const arb_otb_setup *setup;
} arb_otb_event;
#define ARB_OTB_EVENT_INIT(kind_, t_)                                                              \
  { .kind = (kind_), .t = (t_), .by = -1, .side = -1 }

/* ---- Decisions ---- */

typedef enum arb_otb_refusal {
  ARB_OTB_OK = 0,
  ARB_OTB_BAD_EVENT,   /* a field missing or out of range */
  ARB_OTB_BAD_MOVE,    /* not a move (no piece of the mover on its square, bad text) */
  ARB_OTB_GAME_OVER,   /* the game has ended */
  ARB_OTB_NOT_ALLOWED, /* the rules in force do not allow it */
  ARB_OTB_TIME_BACKWARDS,
  ARB_OTB_NO_GAME, /* no start yet */
  ARB_OTB_NO_MEMORY,
  ARB_OTB_REFUSAL_COUNT
} arb_otb_refusal;
/* "ok", "bad_event", "bad_move", "game_over", "not_allowed", "time_backwards", "no_game",
 * "no_memory". */
ARB_API const char *arb_otb_refusal_name(arb_otb_refusal r);

/* Violations (a ruling's code) and the article or rule each rests on (arb_otb_violation_article
 * gives the default; the decision carries the one that applied). */
typedef enum arb_otb_violation {
  ARB_OTB_V_NONE = 0,
  ARB_OTB_V_TOUCH_MOVE,               /* 4.3 */
  ARB_OTB_V_ROOK_FIRST_CASTLING,      /* 4.4.2 */
  ARB_OTB_V_RELEASED_MOVE_CHANGED,    /* 4.7 */
  ARB_OTB_V_PROMOTION_CHOICE_CHANGED, /* 4.4.4 */
  ARB_OTB_V_ADJUST_OUT_OF_TURN,       /* 4.2.1, 6.2.5 */
  ARB_OTB_V_ILLEGAL_MOVE_COMPLETED,   /* 7.5.1 */
  ARB_OTB_V_PRESS_WITHOUT_MOVE,       /* 7.5.3 */
  ARB_OTB_V_TWO_HANDS,                /* 7.5.4 */
  ARB_OTB_V_PROMOTION_NOT_COMPLETED,  /* 7.5.2 */
  ARB_OTB_V_CLOCK_OTHER_HAND,         /* 6.2.3 */
  ARB_OTB_V_PAUSE_WITHOUT_REASON,     /* 6.11 */
  ARB_OTB_V_IMPROPER_CLOCK_PRESS,     /* US 8F7: promotion pressed unfinished */
  ARB_OTB_V_MOVE_WRITTEN_IN_ADVANCE,  /* 8.1.2 (US 15A) */
  ARB_OTB_V_COUNT
} arb_otb_violation;
/* "touch_move", "rook_first_castling", "released_move_changed", "promotion_choice_changed",
 * "adjust_out_of_turn", "illegal_move_completed", "press_without_move", "two_hands",
 * "promotion_not_completed", "clock_other_hand", "pause_without_reason", "improper_clock_press",
 * "move_written_in_advance"; "" for none. */
ARB_API const char *arb_otb_violation_name(arb_otb_violation v);

/* The state of the move in progress (the player having the move). */
typedef enum arb_otb_phase {
  ARB_OTB_IDLE = 0,
  ARB_OTB_TOUCHED,
  ARB_OTB_LIFTED,
  ARB_OTB_CASTLING_IN_PROGRESS, /* the king was released on its castling square (4.7.2) */
  ARB_OTB_MADE,                 /* released, not yet pressed */
  ARB_OTB_OVER
} arb_otb_phase;
/* "idle", "touched", "lifted", "castling_in_progress", "made", "over". */
ARB_API const char *arb_otb_phase_name(arb_otb_phase p);

/* Needs (what the referee cannot decide alone). */
#define ARB_OTB_NEEDS_PROMOTION_PIECE 1u
#define ARB_OTB_NEEDS_ARBITER 2u
#define ARB_OTB_NEEDS_TOUCH_ORDER 4u

/* Warnings. */
#define ARB_OTB_WARN_BOARD_MISMATCH 1u /* the board shows no position the game explains */
#define ARB_OTB_WARN_SENSOR_MISREAD 2u /* a piece of the side not to move vanished or moved */
#define ARB_OTB_WARN_RESULT_GESTURE 4u /* kings on the centre squares: a result signal */
#define ARB_OTB_WARN_FLAG_SHOWN 8u     /* a flag shows but has not been called (6.8) */
#define ARB_OTB_WARN_OUT_OF_TURN 16u   /* an action by the player not having the move */
#define ARB_OTB_WARN_DISPLACED 32u     /* a piece knocked over or displaced while moving (7.4) */
#define ARB_OTB_WARN_SIGNED_RESULT 64u /* the signed result differs from the board's (8.7) */

typedef struct arb_otb_obligation {
  uint8_t active;            /* the player having the move is bound */
  uint8_t any;               /* nothing touched can move: any legal move (4.5, 4.4.3) */
  arb_bitboard must_move;    /* touched own piece(s) that must move */
  arb_bitboard must_capture; /* touched enemy piece that must be captured */
  uint8_t may_castle[2];     /* [0] queen side (a), [1] king side (h) */
  int allowed_count;
  arb_move allowed[ARB_MAX_MOVES];
} arb_otb_obligation;

typedef struct arb_otb_decision {
  arb_status status;
  arb_otb_refusal refusal;
  char message[192];
  arb_otb_phase phase;
  arb_color having_move;         /* the player having the move (1.3) */
  arb_otb_obligation obligation; /* the binding on that player */
  /* this event: */
  uint8_t made; /* a move was made (released) by this event */
  char made_uci[8];
  uint8_t made_legal;
  uint8_t completed; /* a move was completed (press, or a game-ending move) */
  arb_otb_violation violation;
  char article[24];
  uint8_t penalty_warning; /* the violation deserves at most a warning (12.9) */
  int time_added_s[2];     /* seconds added to each side's clock (0: none) */
  uint8_t restored;        /* the position before the irregularity was reinstated */
  char restore_fen[ARB_FEN_MAX];
  int annulled_count; /* moves taken off the record by a reinstatement */
  char annulled[8][8];
  uint8_t stands;             /* an illegal move stands (A.5.2/B.3, US 11B) */
  int8_t claim_valid;         /* claims: 1 valid, 0 not; -1 no claim */
  unsigned needs;             /* ARB_OTB_NEEDS_* */
  uint8_t needs_confirmation; /* the ruling rests on an inference sensors cannot prove */
  unsigned warnings;          /* ARB_OTB_WARN_* */
  uint8_t takeback;           /* casual: a return to an earlier position took a move back */
  arb_result signal;          /* a result gesture (kings on the centre squares: both light 1-0, both
                                 dark 0-1, mixed 1/2-1/2), else ARB_RESULT_NONE */
  uint8_t ended;              /* the game ended with this event */
  /* the state after it: */
  char fen[ARB_FEN_MAX]; /* the position play goes on from */
  uint8_t over;
  arb_outcome outcome; /* result, and how the game ended (game.h's one vocabulary: the laws',
                          second_illegal_move, electronic_device, arbiter_decision, ...) */
  uint8_t illegal_count[2];
  int repetitions;
  uint8_t timed;
  int64_t remaining_ms[2];
  int8_t running;
  int8_t draw_offer;
} arb_otb_decision;

typedef struct arb_otb arb_otb;

ARB_API arb_otb *arb_otb_new(void);
ARB_API void arb_otb_free(arb_otb *otb);

/* Applies one event and fills *d (may not be NULL); returns d->status. */
ARB_API arb_status arb_otb_event_apply(arb_otb *otb, const arb_otb_event *ev, arb_otb_decision *d);

/* ---- The as-played record ---- */

typedef struct arb_otb_record_entry {
  char uci[8];           /* as played ("0000" for a press without a move) */
  char san[ARB_SAN_MAX]; /* SAN for a legal move, LAN-like "Ra1-a4" for an illegal one */
  arb_color by;
  uint8_t legal;               /* a legal move */
  uint8_t stood;               /* an illegal move that stood */
  uint8_t annulled;            /* taken back by a reinstatement (or a penalised illegal move) */
  uint8_t completed;           /* pressed (or game-ending) */
  arb_otb_violation violation; /* for an illegal entry: which kind */
  int64_t t_made, t_press;     /* ms; -1 when not (yet) */
  int64_t clock_ms;            /* the mover's time after the press (timed games), else -1 */
  char fen_after[ARB_FEN_MAX]; /* the real position after it */
} arb_otb_record_entry;

ARB_API uint32_t arb_otb_record_count(const arb_otb *otb);
ARB_API arb_status arb_otb_record_at(const arb_otb *otb, uint32_t i, arb_otb_record_entry *out);

#define ARB_OTB_PGN_LEGAL_ONLY 1u /* the corrected legal game only (no annulled or stood moves) */

/* Writes the game as PGN into w.  As played (default): the moves that count, an illegal move
 * that stood written as its SAN-like text followed by a comment "[%illegal FEN] ..." giving the
 * real position after it (arb_pgn reads it back as a warning), annulled moves and penalties as
 * comments; [%clk] after completed moves of a timed game.  With ARB_OTB_PGN_LEGAL_ONLY the
 * corrected legal game: the moves that count, without annulled ones, up to the first illegal
 * move that stood (then a comment says so and the result is "*").
 * ARB_ERR_ARGUMENT without a game. */
ARB_API arb_status arb_otb_write_pgn(const arb_otb *otb, unsigned flags, arb_pgn_writer *w);

#ifdef __cplusplus
}
#endif
#endif
