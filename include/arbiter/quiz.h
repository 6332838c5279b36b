/* Arbiter — MIT licence, see LICENSE.
 *
 * quiz.h: the rules quiz — items whose every answer the library derives.  An item is a
 * template name plus its inputs (a position, the moves that led to it where history matters,
 * the move asked about, a clock, an over-the-board event log, the rule set); the template's
 * derivation turns the inputs into the question, the choices, the answer, the explanation
 * (built from what the rules found: the attacking piece, the plies of a repetition, the
 * penalty), the articles and the squares to highlight.  Making an item is choosing inputs
 * (from real games or from a seed) and deriving; checking an item is deriving again from its
 * inputs alone and comparing — the stored answer is never read to find the answer.
 *
 * Layer: train, above rules, game, clock and referee (it calls arb_game, arb_flag_fall,
 * arb_otb, arb_referee, arb_move_explain, arb_winnability_of).
 *
 * Ownership: items, games and options are caller values; nothing here keeps a pointer after a
 * call returns.  arb_quiz_make and arb_quiz_derive allocate only through the lower layers'
 * explicit _new/_free (a game, a referee), freed before they return.
 * Thread-safety: every function is reentrant; names are static strings.
 * Errors: arb_status codes; a derivation that cannot make the item says why in words.
 */
#ifndef ARB_QUIZ_H
#define ARB_QUIZ_H

#include <stddef.h>
#include <stdint.h>

#include "arbiter/common.h"
#include "arbiter/notation.h"
#include "arbiter/position.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Topics, in the bank's order.  Names: "movement", "castling", "en-passant", "promotion",
 * "mate-stalemate", "threefold", "fivefold", "fifty-move", "dead-position", "agreement",
 * "flag", "touch-move", "illegal-move", "scoresheet", "online". */
typedef enum arb_quiz_topic {
  ARB_QUIZ_MOVEMENT = 0,
  ARB_QUIZ_CASTLING,
  ARB_QUIZ_EN_PASSANT,
  ARB_QUIZ_PROMOTION,
  ARB_QUIZ_MATE_STALEMATE,
  ARB_QUIZ_THREEFOLD,
  ARB_QUIZ_FIVEFOLD,
  ARB_QUIZ_FIFTY_MOVE,
  ARB_QUIZ_DEAD_POSITION,
  ARB_QUIZ_AGREEMENT,
  ARB_QUIZ_FLAG,
  ARB_QUIZ_TOUCH_MOVE,
  ARB_QUIZ_ILLEGAL_MOVE,
  ARB_QUIZ_SCORESHEET,
  ARB_QUIZ_ONLINE,
  ARB_QUIZ_TOPIC_COUNT
} arb_quiz_topic;

/* The topic's name ("" out of range); parse: ARB_ERR_ARGUMENT for other names. */
ARB_API const char *arb_quiz_topic_name(arb_quiz_topic topic);
ARB_API arb_status arb_quiz_topic_parse(const char *name, arb_quiz_topic *out);

#define ARB_QUIZ_MAX_PLIES 128  /* moves leading to the position shown */
#define ARB_QUIZ_MAX_CHOICES 6  /* choices of a choice item */
#define ARB_QUIZ_MAX_EVENTS 8   /* entries of an event log */
#define ARB_QUIZ_MAX_ARTICLES 6 /* article references */
#define ARB_QUIZ_MAX_MARKS 8    /* squares and arrows */
#define ARB_QUIZ_TEXT 112       /* a choice or an answer, with its NUL */
#define ARB_QUIZ_QUESTION 480
#define ARB_QUIZ_EXPLANATION 768

/* One entry of an event log: over the board ("touch", "adjust_announce", "move" (an
 * attempted move, legal or not, with hands), "press", "claim" (with its matter),
 * "earlier_illegal" — a completed illegal move this player already has, "offer_draw",
 * "accept_draw", "decline_draw"), or of a game ("move", "offer_draw", "accept_draw",
 * "decline_draw", "claim_threefold", "claim_fifty", "premove", "note" — words only). */
typedef struct arb_quiz_event {
  char type[20];
  int8_t by;        /* arb_color, or -1 */
  uint8_t nsquares; /* touch: the squares in the order touched */
  char squares[4][3];
  char move[8];    /* UCI ("" none) */
  char intent[8];  /* touch: "" (to move), "castle", "adjust" */
  uint8_t hands;   /* move: 2 = made with two hands; else 1 */
  char matter[24]; /* claim: what is claimed ("illegal_move", "touch_move", ...) */
} arb_quiz_event;

/* A clock where the question needs one. */
typedef struct arb_quiz_clock {
  uint8_t present;
  int64_t ms[2];        /* the time each side has left */
  int8_t flag;          /* whose flag is down (arb_color), 2 both, -1 none */
  uint8_t last_period;  /* the period shown is the last (sudden-death) one */
  int64_t increment_ms; /* added per move (0: none) */
} arb_quiz_clock;

#define ARB_QUIZ_CHOICE 0 /* answer: one of the choices */
#define ARB_QUIZ_MOVE 1   /* answer: a move in UCI, the only correct one */

/* An item.  Inputs are what a template reads; the rest is what derivation writes. */
typedef struct arb_quiz_item {
  /* inputs */
  char id[32]; /* stable, e.g. "castling-0007" */
  arb_quiz_topic topic;
  char template_name[32]; /* e.g. "castling-legal-now" (arb_quiz_template_name) */
  char rules[16];         /* "fide", "fide-rapid", "fide-blitz", "uscf", "uscf-blitz", "online",
                             "casual" */
  char fen[ARB_FEN_MAX];  /* the position shown */
  char start_fen[ARB_FEN_MAX]; /* "" unless history matters: then moves lead from it to fen */
  int nmoves;
  char moves[ARB_QUIZ_MAX_PLIES][6];
  char move[8]; /* the move the question is about (UCI), "" none */
  arb_quiz_clock clock;
  int nevents;
  arb_quiz_event events[ARB_QUIZ_MAX_EVENTS];
  int nchoices; /* choices are inputs for templates whose choices are moves to judge */
  char choices[ARB_QUIZ_MAX_CHOICES][ARB_QUIZ_TEXT];
  char source[128]; /* the game the position comes from (URL), "" for a made-up one */
  /* derived */
  int difficulty; /* 1..5 */
  int kind;       /* ARB_QUIZ_CHOICE or ARB_QUIZ_MOVE */
  char question[ARB_QUIZ_QUESTION];
  char answer[ARB_QUIZ_TEXT];
  char explanation[ARB_QUIZ_EXPLANATION];
  int narticles;
  char articles[ARB_QUIZ_MAX_ARTICLES][24]; /* "FIDE 3.8.2.2", "US Chess 14C" */
  int nsquares;
  char squares[ARB_QUIZ_MAX_MARKS][3];
  int narrows;
  char arrows[ARB_QUIZ_MAX_MARKS][2][3];
} arb_quiz_item;

/* Templates: arb_quiz_template_count() of them, each with a name and a topic. */
ARB_API int arb_quiz_template_count(void);
ARB_API const char *arb_quiz_template_name(int index);     /* "" out of range */
ARB_API arb_quiz_topic arb_quiz_template_topic(int index); /* ARB_QUIZ_TOPIC_COUNT out of range */
ARB_API int arb_quiz_template_find(const char *name);      /* its index, or -1 */
/* 1 if the template's choices are inputs (moves to judge) rather than derived. */
ARB_API int arb_quiz_template_choices_are_input(int index);

/* Derives the item's derived fields from its inputs (the template's rules applied to the
 * position, moves, events and clock).  ARB_OK; otherwise the status (ARB_ERR_ARGUMENT for an
 * unknown template or inputs that do not make a question, ARB_ERR_FEN_* / ARB_ERR_MOVE_* for a
 * position or move that does not read or replay) and words in why (may be NULL). */
ARB_API arb_status arb_quiz_derive(arb_quiz_item *item, char *why, size_t why_size);

/* Re-derives item from its inputs and compares: 1 when the stored answer, kind, choices (as a
 * set), explanation and topic are what the rules give, and the item is well formed (an id of
 * at most 31 characters, difficulty 1..5, the answer one of the choices, a move item's answer
 * the only correct move); else 0 with the first difference in why. */
ARB_API int arb_quiz_check_item(const arb_quiz_item *item, char *why, size_t why_size);

/* A game to take positions from: its start and its main line (the caller's memory). */
typedef struct arb_quiz_game {
  arb_position start;
  const arb_move *moves;
  int nmoves;
  const char *source; /* URL or "" */
} arb_quiz_game;

typedef struct arb_quiz_options {
  unsigned topics; /* bit set of 1u << topic; 0 = every topic */
  int count;       /* items wanted in all (spread evenly over the topics' templates) */
  uint64_t seed;
  const arb_quiz_game *games; /* positions from real games (may be NULL: seeded positions) */
  size_t ngames;
} arb_quiz_options;

/* Makes up to opts->count items (at most cap) into items[], numbered per topic
 * ("topic-0001"), deterministic for the same options and games.  *made is the number made;
 * a template that finds too few inputs makes fewer.  ARB_ERR_ARGUMENT for bad options. */
ARB_API arb_status arb_quiz_make(const arb_quiz_options *opts, arb_quiz_item *items, size_t cap,
                                 size_t *made);

#ifdef __cplusplus
}
#endif
#endif
