# Arbiter — MIT licence, see LICENSE.
"""cffi builder of arbiter._arbiter: the C library's sources (the list in ../CMakeLists.txt,
read here so that it is kept in one place) compiled into one extension module with the
declarations below and a small translation layer (shim.c): the PGN reader's visitor collecting
games for Python, so that no Python code runs per move.

The source tree is this file's parent directory, or $ARBITER_SOURCE.
"""
import os
import platform
import re

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("ARBITER_SOURCE") or os.path.dirname(HERE)
if not os.path.exists(os.path.join(ROOT, "include", "arbiter", "arbiter.h")):
    raise SystemExit(
        "arbiter_build.py: the C sources are not in %s; build from the repository "
        "(pip install --no-build-isolation ./python) or set ARBITER_SOURCE" % ROOT)


def library_sources():
    """The C library's sources, as CMakeLists.txt lists them (set(ARB_SOURCES ...))."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"set\(ARB_SOURCES\s+([^)]*)\)", text)
    if not m:
        raise SystemExit("arbiter_build.py: no set(ARB_SOURCES ...) in CMakeLists.txt")
    # setuptools wants paths relative to setup.py's directory
    return [os.path.relpath(os.path.join(ROOT, s), HERE) for s in m.group(1).split()]


CDEF = r"""
typedef uint64_t arb_bitboard;
typedef uint16_t arb_move;
typedef uint8_t arb_piece;
typedef uint8_t arb_square;
typedef int... arb_status;
typedef int... arb_color;
typedef int... arb_ruleset;
typedef struct arb_position {
  arb_bitboard by_type[7];
  arb_bitboard by_color[2];
  arb_bitboard castling_rooks;
  uint64_t key;
  arb_piece board[64];
  uint8_t turn;
  uint8_t ep_square;
  uint8_t chess960;
  uint16_t halfmove_clock;
  uint32_t fullmove_number;
  ...;
} arb_position;
typedef struct arb_fen_report {
  uint32_t problems;
  int field;
  int column;
  char message[192];
} arb_fen_report;
typedef struct arb_san_error {
  arb_status code;
  int candidates_count;
  arb_move candidates[8];
  int column;
  char message[128];
} arb_san_error;
typedef struct arb_outcome {
  int result;
  int termination;
  uint8_t automatic;
  int8_t by;
} arb_outcome;
typedef struct arb_game_facts {
  int repetitions;
  uint8_t threefold;
  uint8_t can_claim_threefold;
  uint8_t fivefold;
  uint8_t can_claim_fifty;
  uint8_t fifty;
  uint8_t seventyfive;
  uint8_t checkmate, stalemate, insufficient_material, dead_position;
} arb_game_facts;
typedef struct arb_winnability {
  int verdict;
  int proof;
  int line_len;
  arb_move line[128];
  uint64_t nodes;
} arb_winnability;
typedef struct arb_game arb_game;

void arb_init(void);
const char *arb_strerror(arb_status status);
const char *arb_status_name(arb_status status);
void arb_position_startpos(arb_position *pos);
arb_status arb_position_chess960(arb_position *pos, int number);
int arb_position_chess960_number(const arb_position *pos);
void arb_position_set_chess960(arb_position *pos, int chess960);
int arb_generate_legal(const arb_position *pos, arb_move *moves);
int arb_count_legal(const arb_position *pos);
int arb_is_legal(const arb_position *pos, arb_move move);
int arb_gives_check(const arb_position *pos, arb_move move);
unsigned arb_move_info(const arb_position *pos, arb_move move);
int arb_in_check(const arb_position *pos);
uint64_t arb_perft(const arb_position *pos, int depth);
uint32_t arb_position_problems(const arb_position *pos);
const char *arb_fen_problem_message(uint32_t problem);
const char *arb_fen_problem_name(uint32_t problem);
arb_status arb_fen_read(arb_position *pos, const char *fen, uint32_t accept,
                        arb_fen_report *report);
int arb_fen_write(const arb_position *pos, char *buf, size_t size, unsigned flags);
int arb_uci_write(const arb_position *pos, arb_move move, char *buf, size_t size);
arb_status arb_move_from_squares(const arb_position *pos, arb_square from, arb_square to,
                                 int promotion, arb_move *move);
arb_status arb_uci_read(const arb_position *pos, const char *text, size_t len, int allow_null,
                        arb_move *move);
int arb_san_write(const arb_position *pos, arb_move move, char *buf, size_t size);
arb_status arb_san_read(const arb_position *pos, const char *text, size_t len, unsigned flags,
                        arb_move *move, arb_san_error *err);
int arb_is_checkmate(const arb_position *pos);
int arb_is_stalemate(const arb_position *pos);
int arb_is_insufficient_material(const arb_position *pos);
int arb_cannot_mate_by_material(const arb_position *pos, arb_color side);
int arb_is_dead_position(const arb_position *pos);
int arb_winnability_of(const arb_position *pos, arb_color side, uint64_t budget,
                       arb_winnability *out);
const char *arb_win_verdict_name(int v);
const char *arb_win_proof_name(int p);
const char *arb_termination_name(int t);
const char *arb_termination_article(int t);
const char *arb_result_string(int result);

arb_game *arb_game_new(const arb_position *start, arb_ruleset rules);
void arb_game_free(arb_game *game);
void arb_game_set_play_on(arb_game *game, int on);
void arb_game_set_null_moves(arb_game *game, int allow);
const arb_position *arb_game_position(const arb_game *game);
const arb_position *arb_game_position_at(const arb_game *game, int ply);
int arb_game_ply_count(const arb_game *game);
arb_move arb_game_move_at(const arb_game *game, int ply);
arb_status arb_game_play(arb_game *game, arb_move move);
arb_status arb_game_undo(arb_game *game);
void arb_game_facts_of(const arb_game *game, arb_game_facts *facts);
arb_outcome arb_game_outcome(const arb_game *game);

typedef struct arb_pgn_writer arb_pgn_writer;
arb_pgn_writer *arb_pgn_writer_new(unsigned flags);
void arb_pgn_writer_free(arb_pgn_writer *writer);
void arb_pgn_writer_begin_game(arb_pgn_writer *w);
arb_status arb_pgn_writer_tag(arb_pgn_writer *w, const char *name, size_t name_len,
                              const char *value, size_t value_len);
int arb_pgn_tag_name_valid(const char *name, size_t len);
void arb_pgn_writer_start(arb_pgn_writer *w, const arb_position *start);
arb_status arb_pgn_writer_begin_moves(arb_pgn_writer *w);
arb_status arb_pgn_writer_end_game(arb_pgn_writer *w, int result);
const char *arb_pgn_writer_data(const arb_pgn_writer *w, size_t *len);
void arb_pgn_writer_clear(arb_pgn_writer *w);
void arb_pgn_writer_discard_game(arb_pgn_writer *w);


/* ---- clock.h: time controls ---- */
typedef struct arb_time_control {
  uint8_t kind;
  uint8_t model;
  uint8_t nperiods;
  ...;
} arb_time_control;
typedef struct arb_tc_report {
  int column;
  char message[...];
} arb_tc_report;
arb_status arb_tc_parse(const char *text, size_t len, int syntax, arb_time_control *tc,
                        arb_tc_report *report);
int arb_tc_write(const arb_time_control *tc, int syntax, char *buf, size_t size);
typedef int... arb_clock_model;
const char *arb_clock_model_name(arb_clock_model model);
arb_status arb_clock_model_parse(const char *name, arb_clock_model *out);
const char *arb_flag_reason_name(int reason);
#define ARB_CLOCK_NEVER ...
arb_status arb_rules_parse(const char *name, arb_ruleset *out);
typedef int... arb_termination;
arb_status arb_termination_parse(const char *name, size_t len, arb_termination *out);
const char *arb_termination_pgn(int t);
arb_status arb_fen_read_n(arb_position *pos, const char *fen, size_t len, uint32_t accept,
                          arb_fen_report *report);

/* ---- referee.h ---- */
typedef int... arb_ref_kind;
typedef int... arb_ref_refusal;
typedef struct arb_ref_tag {
  const char *name;
  const char *value;
} arb_ref_tag;
typedef struct arb_ref_setup {
  const arb_position *start;
  arb_ruleset rules;
  const arb_time_control *control;
  int clock_model;
  unsigned no_draw_before;
  const arb_move *moves;
  size_t move_count;
  const arb_ref_tag *tags;
  size_t tag_count;
  uint8_t lag_compensation;
  int64_t first_move_ms;
  uint8_t sees_flags;
  uint64_t search_budget;
  int64_t abandon_ms;
  ...;
} arb_ref_setup;
typedef struct arb_ref_event {
  arb_ref_kind kind;
  int64_t t;
  int8_t by;
  int8_t side;
  uint8_t set;
  const char *text;
  size_t text_len;
  arb_move move;
  int reason;
  int64_t ms;
  const arb_ref_setup *setup;
  unsigned flags;
  int64_t lag_ms;
  int ply;
  const arb_position *position;
  int termination;
  int result;
  ...;
} arb_ref_event;
#define ARB_REF_NO_TIME ...
#define ARB_REF_AUTO_QUEEN ...
#define ARB_REF_FROM_PREMOVE ...
#define ARB_REF_MADE_ONLY ...
#define ARB_REF_FLAG_SEEN ...
#define ARB_REF_ANNULLED ...
#define ARB_REF_PGN_EMT ...
typedef struct arb_ref_state {
  uint8_t has_game;
  uint8_t over;
  uint8_t aborted;
  uint8_t timed;
  uint8_t claims;
  int turn;
  int ply;
  arb_outcome outcome;
  int8_t draw_offer;
  int8_t unpressed;
  int8_t flag_side;
  int flag_reason;
  arb_move must_play;
  arb_game_facts facts;
  int64_t now;
  int64_t remaining_ms[2];
  int8_t running;
  uint8_t paused;
  int64_t flag_at;
  int64_t deadline;
  char premove[2][8];
  int64_t first_move_by;
  int64_t away_since[2];
  int64_t abandon_claim_at[2];
  int8_t abandoned;
  int abandon_result;
  ...;
} arb_ref_state;
typedef struct arb_claim_verdict {
  uint8_t correct;
  uint8_t must_play;
  arb_move intended;
  uint16_t penalty_s;
  uint8_t became_offer;
} arb_claim_verdict;
typedef struct arb_ref_decision {
  arb_status status;
  arb_ref_refusal refusal;
  char message[...];
  arb_ref_kind kind;
  uint32_t seq;
  arb_move move;
  char san[...];
  char uci[8];
  uint8_t late;
  uint8_t claimed;
  arb_claim_verdict verdict;
  char must_play_uci[8];
  int8_t time_added_to;
  int64_t time_added_ms;
  int64_t comp_ms;
  struct {
    uint8_t played, dropped;
    arb_move move;
    char san[10];
    char uci[8];
    arb_ref_refusal refusal;
    char message[96];
  } premove;
  uint8_t ended;
  arb_ref_state state;
  ...;
} arb_ref_decision;
typedef struct arb_ref_entry {
  int64_t t;
  arb_ref_kind kind;
  int8_t by, side;
  uint8_t set;
  unsigned flags;
  int64_t lag_ms;
  int64_t comp_ms;
  arb_status status;
  arb_ref_refusal refusal;
  arb_move move;
  int reason;
  int64_t ms;
  int ply;
  int64_t clock_ms, move_ms;
  uint8_t ended;
  ...;
} arb_ref_entry;
typedef struct arb_referee arb_referee;
const char *arb_ref_kind_name(arb_ref_kind kind);
const char *arb_ref_refusal_name(arb_ref_refusal refusal);
arb_referee *arb_referee_new(arb_ruleset rules);
void arb_referee_free(arb_referee *ref);
arb_status arb_referee_event(arb_referee *ref, const arb_ref_event *ev, arb_ref_decision *d);
int64_t arb_referee_next_deadline(const arb_referee *ref);
arb_status arb_referee_tick(arb_referee *ref, int64_t now, arb_ref_decision *d);
void arb_referee_state_of(const arb_referee *ref, arb_ref_state *out);
const arb_game *arb_referee_game(const arb_referee *ref);
uint32_t arb_referee_record_count(const arb_referee *ref);
arb_status arb_referee_record_at(const arb_referee *ref, uint32_t i, arb_ref_entry *out);
int64_t arb_referee_abandon_ms(const arb_referee *ref);
int arb_referee_end_words(const arb_referee *ref, char *buf, size_t size);
arb_status arb_referee_write_pgn(const arb_referee *ref, unsigned flags, arb_pgn_writer *w);

/* ---- otb.h ---- */
typedef int... arb_otb_rules;
typedef int... arb_otb_kind;
typedef int... arb_otb_matter;
typedef int... arb_otb_ruling;
typedef int... arb_otb_refusal;
typedef int... arb_otb_violation;
typedef int... arb_otb_phase;
typedef struct arb_otb_setup {
  const arb_position *start;
  const arb_move *moves;
  size_t move_count;
  arb_otb_rules rules;
  int supervision;
  const arb_time_control *control;
  int sensing;
  int64_t debounce_ms;
  unsigned variations;
  uint8_t guidelines_iii;
  uint8_t illegal_count[2];
  ...;
} arb_otb_setup;
typedef struct arb_otb_event {
  arb_otb_kind kind;
  int64_t t;
  int8_t by;
  int8_t side;
  uint8_t source;
  uint8_t order, intent, hands, other_hand;
  arb_square squares[8];
  uint8_t square_count;
  arb_piece piece;
  const char *text;
  size_t text_len;
  int64_t stable_ms;
  arb_otb_matter matter;
  int ply;
  arb_otb_ruling ruling;
  int64_t ms;
  int result;
  uint8_t evident;
  const arb_otb_setup *setup;
  ...;
} arb_otb_event;
typedef struct arb_otb_obligation {
  uint8_t active;
  uint8_t any;
  arb_bitboard must_move;
  arb_bitboard must_capture;
  uint8_t may_castle[2];
  int allowed_count;
  arb_move allowed[...];
  ...;
} arb_otb_obligation;
typedef struct arb_otb_decision {
  arb_status status;
  arb_otb_refusal refusal;
  char message[...];
  arb_otb_phase phase;
  int having_move;
  arb_otb_obligation obligation;
  uint8_t made;
  char made_uci[8];
  uint8_t made_legal;
  uint8_t completed;
  arb_otb_violation violation;
  char article[...];
  uint8_t penalty_warning;
  int time_added_s[2];
  uint8_t restored;
  char restore_fen[...];
  int annulled_count;
  char annulled[8][8];
  uint8_t stands;
  int8_t claim_valid;
  unsigned needs;
  uint8_t needs_confirmation;
  unsigned warnings;
  uint8_t takeback;
  int signal;
  uint8_t ended;
  char fen[...];
  uint8_t over;
  arb_outcome outcome;
  uint8_t illegal_count[2];
  int repetitions;
  uint8_t timed;
  int64_t remaining_ms[2];
  int8_t running;
  int8_t draw_offer;
  ...;
} arb_otb_decision;
typedef struct arb_otb_record_entry {
  char uci[8];
  char san[...];
  int by;
  uint8_t legal;
  uint8_t stood;
  uint8_t annulled;
  uint8_t completed;
  arb_otb_violation violation;
  int64_t t_made, t_press;
  int64_t clock_ms;
  char fen_after[...];
  ...;
} arb_otb_record_entry;
#define ARB_OTB_NEEDS_PROMOTION_PIECE ...
#define ARB_OTB_NEEDS_ARBITER ...
#define ARB_OTB_NEEDS_TOUCH_ORDER ...
#define ARB_OTB_WARN_BOARD_MISMATCH ...
#define ARB_OTB_WARN_SENSOR_MISREAD ...
#define ARB_OTB_WARN_RESULT_GESTURE ...
#define ARB_OTB_WARN_FLAG_SHOWN ...
#define ARB_OTB_WARN_OUT_OF_TURN ...
#define ARB_OTB_WARN_DISPLACED ...
#define ARB_OTB_WARN_SIGNED_RESULT ...
#define ARB_OTB_US_10I2 ...
#define ARB_OTB_US_11H1 ...
#define ARB_OTB_PGN_LEGAL_ONLY ...
typedef struct arb_otb arb_otb;
const char *arb_otb_rules_name(arb_otb_rules rules);
arb_status arb_otb_rules_parse(const char *name, size_t len, arb_otb_rules *out);
const char *arb_otb_kind_name(arb_otb_kind kind);
arb_status arb_otb_kind_parse(const char *name, size_t len, arb_otb_kind *out);
const char *arb_otb_matter_name(arb_otb_matter m);
arb_status arb_otb_matter_parse(const char *name, size_t len, arb_otb_matter *out);
const char *arb_otb_ruling_name(arb_otb_ruling r);
arb_status arb_otb_ruling_parse(const char *name, size_t len, arb_otb_ruling *out);
const char *arb_otb_refusal_name(arb_otb_refusal r);
const char *arb_otb_violation_name(arb_otb_violation v);
const char *arb_otb_phase_name(arb_otb_phase p);
arb_otb *arb_otb_new(void);
void arb_otb_free(arb_otb *otb);
arb_status arb_otb_event_apply(arb_otb *otb, const arb_otb_event *ev, arb_otb_decision *d);
uint32_t arb_otb_record_count(const arb_otb *otb);
arb_status arb_otb_record_at(const arb_otb *otb, uint32_t i, arb_otb_record_entry *out);
arb_status arb_otb_write_pgn(const arb_otb *otb, unsigned flags, arb_pgn_writer *w);

/* ---- solve.h ---- */
typedef struct arb_solve_result {
  int verdict;
  int length;
  int nkeys;
  arb_move keys[...];
  int key_length[...];
  int keys_complete;
  int line_len;
  arb_move line[...];
  uint64_t nodes;
  ...;
} arb_solve_result;
#define ARB_SOLVE_MAX_N ...
typedef struct arb_solver arb_solver;
arb_solver *arb_solver_new(size_t tt_bytes);
void arb_solver_free(arb_solver *s);
arb_status arb_solve(arb_solver *s, const arb_position *pos, int goal, int n, uint64_t budget,
                     arb_solve_result *out);
const char *arb_solve_goal_name(int goal);
const char *arb_solve_verdict_name(int v, int goal);

/* ---- train.h ---- */
typedef struct arb_puzzle {
  char id[...];
  char fen[...];
  char moves[32][6];
  int nmoves;
  int rating, rating_deviation, popularity, plays;
  char themes[...];
  char game_url[...];
  char openings[...];
  ...;
} arb_puzzle;
#define ARB_PUZZLE_MAX_MOVES ...
typedef struct arb_puzzle_check {
  int verdict;
  int goal;
  int length;
  int ply;
  char other[8];
  int last_alternatives;
  char message[...];
  ...;
} arb_puzzle_check;
const char *arb_puzzle_csv_header(void);
arb_status arb_puzzle_csv_read(const char *line, size_t len, arb_puzzle *p, char *err,
                               size_t err_size);
int arb_puzzle_csv_write(const arb_puzzle *p, char *buf, size_t size);
int arb_puzzle_has_theme(const arb_puzzle *p, const char *theme);
const char *arb_puzzle_kind_theme(const arb_puzzle *p);
arb_status arb_puzzle_check_record(arb_solver *s, const arb_puzzle *p, uint64_t budget,
                                   arb_puzzle_check *out);
const char *arb_puzzle_verdict_name(int v);
int arb_puzzle_move_right(const arb_position *p, arb_move m, arb_move expected, int final,
                          int goal);
const char *arb_puzzle_why_wrong(arb_solver *s, const arb_position *p, arb_move m, int goal,
                                 int left, uint64_t budget, char *buf, size_t size);
typedef struct arb_glicko {
  double rating, rd, volatility;
} arb_glicko;
arb_glicko arb_glicko_new(void);
arb_status arb_glicko_update(arb_glicko *player, const arb_glicko *opponents,
                             const double *scores, int n, double tau);
void arb_glicko_clamp(arb_glicko *g, const arb_glicko *before);
double arb_glicko_expected(const arb_glicko *a, const arb_glicko *b);
void arb_puzzle_rate(arb_glicko *learner, arb_glicko *puzzle, int solved, int theme_kind);
int arb_puzzle_theme_kind(const char *theme);
typedef struct arb_review {
  int box;
  int streak;
  int64_t due_ms;
  int64_t seen_ms;
} arb_review;
void arb_review_answer(arb_review *r, int right, int64_t now_ms);
int arb_review_due(const arb_review *r, int64_t now_ms);

/* ---- quiz.h ---- */
typedef int... arb_quiz_topic;
typedef struct arb_quiz_event {
  char type[20];
  int8_t by;
  uint8_t nsquares;
  char squares[4][3];
  char move[8];
  char intent[8];
  uint8_t hands;
  char matter[24];
} arb_quiz_event;
typedef struct arb_quiz_clock {
  uint8_t present;
  int64_t ms[2];
  int8_t flag;
  uint8_t last_period;
  int64_t increment_ms;
} arb_quiz_clock;
typedef struct arb_quiz_item {
  char id[32];
  arb_quiz_topic topic;
  char template_name[32];
  char rules[16];
  char fen[...];
  char start_fen[...];
  int nmoves;
  char moves[128][6];
  char move[8];
  arb_quiz_clock clock;
  int nevents;
  arb_quiz_event events[8];
  int nchoices;
  char choices[6][112];
  char source[128];
  int difficulty;
  int kind;
  char question[...];
  char answer[...];
  char explanation[...];
  int narticles;
  char articles[6][24];
  int nsquares;
  char squares[8][3];
  int narrows;
  char arrows[8][2][3];
  ...;
} arb_quiz_item;
typedef struct arb_quiz_game {
  arb_position start;
  const arb_move *moves;
  int nmoves;
  const char *source;
} arb_quiz_game;
typedef struct arb_quiz_options {
  unsigned topics;
  int count;
  uint64_t seed;
  const arb_quiz_game *games;
  size_t ngames;
} arb_quiz_options;
#define ARB_QUIZ_TOPIC_COUNT ...
#define ARB_QUIZ_MAX_PLIES ...
#define ARB_QUIZ_MAX_CHOICES ...
#define ARB_QUIZ_MAX_EVENTS ...
const char *arb_quiz_topic_name(arb_quiz_topic topic);
arb_status arb_quiz_topic_parse(const char *name, arb_quiz_topic *out);
int arb_quiz_template_count(void);
const char *arb_quiz_template_name(int index);
arb_quiz_topic arb_quiz_template_topic(int index);
int arb_quiz_template_find(const char *name);
int arb_quiz_template_choices_are_input(int index);
arb_status arb_quiz_derive(arb_quiz_item *item, char *why, size_t why_size);
int arb_quiz_check_item(const arb_quiz_item *item, char *why, size_t why_size);
arb_status arb_quiz_make(const arb_quiz_options *opts, arb_quiz_item *items, size_t cap,
                         size_t *made);

/* ---- endgame.h ---- */
typedef struct arb_endgame arb_endgame;
typedef struct arb_endgame_result {
  int wdl;
  int dtm;
  int plies;
  int nbest;
  arb_move best[...];
  ...;
} arb_endgame_result;
typedef struct arb_endgame_stats {
  uint64_t positions[2];
  uint64_t wins[2], draws[2], losses[2];
  int longest[2];
  char longest_fen[2][100];
  ...;
} arb_endgame_stats;
arb_endgame *arb_endgame_new(const char *material, arb_status *st);
void arb_endgame_free(arb_endgame *eg);
const char *arb_endgame_material(const arb_endgame *eg);
const char *arb_endgame_material_of(const arb_position *pos);
arb_status arb_endgame_probe(const arb_endgame *eg, const arb_position *pos,
                             arb_endgame_result *out);
void arb_endgame_stats_of(const arb_endgame *eg, arb_endgame_stats *out);
const char *arb_endgame_wdl_name(int wdl);


/* ---- pgn.h: splitting, jobs, ordered output ---- */
typedef struct arb_pgn_stats {
  uint64_t bytes, games, games_with_errors, games_skipped, plies, errors, warnings;
} arb_pgn_stats;
typedef struct arb_pgn_piece {
  const char *data;
  size_t len;
  uint64_t first_line;
  uint64_t offset;
  uint8_t forced;
} arb_pgn_piece;
typedef struct arb_pgn_splitter arb_pgn_splitter;
arb_pgn_splitter *arb_pgn_splitter_new(size_t target, size_t max);
void arb_pgn_splitter_free(arb_pgn_splitter *s);
arb_status arb_pgn_splitter_feed(arb_pgn_splitter *s, const void *data, size_t len);
int arb_pgn_splitter_next(arb_pgn_splitter *s, int end, arb_pgn_piece *out);
typedef int... arb_pgn_format;
typedef struct arb_pgn_tag_filter {
  const char *name, *value;
} arb_pgn_tag_filter;
typedef struct arb_pgn_job_options {
  const char *file;
  arb_pgn_format format;
  uint8_t json;
  uint8_t tree;
  unsigned read_flags;
  unsigned write_flags;
  arb_ruleset rules;
  uint8_t filtering;
  const char *white, *black, *player;
  const char *result;
  const char *date_from, *date_to;
  long min_elo, max_elo;
  const char *eco_from, *eco_to;
  int setup;
  const arb_position *position;
  uint8_t has_key;
  uint64_t key;
  const arb_pgn_tag_filter *tags;
  int ntags;
  uint8_t dedupe;
  ...;
} arb_pgn_job_options;
typedef struct arb_pgn_job arb_pgn_job;
typedef struct arb_pgn_record arb_pgn_record;
typedef void (*arb_pgn_record_fn)(void *ctx, const arb_pgn_record *record);
arb_pgn_job *arb_pgn_job_new(const arb_pgn_job_options *o, uint64_t first_line,
                             arb_pgn_record_fn sink, void *ctx);
void arb_pgn_job_free(arb_pgn_job *job);
arb_status arb_pgn_job_feed(arb_pgn_job *job, const void *data, size_t len);
arb_status arb_pgn_job_finish(arb_pgn_job *job, arb_pgn_stats *stats);
const void *arb_pgn_job_records(const arb_pgn_job *job, size_t *len);
int arb_pgn_summary_write(const arb_pgn_stats *stats, double seconds, int json, char *buf,
                          size_t size);
/* shim.c */
arb_status pyarb_write_moves(arb_pgn_writer *w, const arb_position *start, const arb_move *moves,
                             int count);
typedef struct pyarb_pgn pyarb_pgn;
pyarb_pgn *pyarb_pgn_new(unsigned flags);
void pyarb_pgn_free(pyarb_pgn *p);
arb_status pyarb_pgn_feed(pyarb_pgn *p, const char *data, size_t len);
arb_status pyarb_pgn_finish(pyarb_pgn *p);
int pyarb_pgn_ready(const pyarb_pgn *p);
const char *pyarb_pgn_tags(const pyarb_pgn *p, int i, size_t *len);
const arb_move *pyarb_pgn_moves(const pyarb_pgn *p, int i, int *count);
const arb_position *pyarb_pgn_start(const pyarb_pgn *p, int i);
const char *pyarb_pgn_errors(const pyarb_pgn *p, int i, size_t *len);
int pyarb_pgn_result(const pyarb_pgn *p, int i);
uint64_t pyarb_pgn_number(const pyarb_pgn *p, int i);
int pyarb_pgn_flags(const pyarb_pgn *p, int i);
void pyarb_pgn_drop(pyarb_pgn *p);
typedef struct pyarb_output pyarb_output;
pyarb_output *pyarb_output_new(int dedupe);
void pyarb_output_free(pyarb_output *o);
void pyarb_output_file(pyarb_output *o);
int pyarb_output_job(pyarb_output *o, const void *records, size_t len, const arb_pgn_stats *stats);
const char *pyarb_output_text(pyarb_output *o, int to_stderr, size_t *len);
void pyarb_output_clear(pyarb_output *o);
void pyarb_output_totals(const pyarb_output *o, arb_pgn_stats *stats, uint64_t *written,
                         uint64_t *duplicates);
int pyarb_code(const arb_game *g, unsigned key);
int pyarb_parse_san(const arb_game *g, const char *text, size_t len, arb_san_error *err);
"""

ffi = FFI()
ffi.cdef(CDEF)
flags = ["-std=c11", "-O2", "-fvisibility=hidden", "-DNDEBUG"]
if platform.machine() in ("x86_64", "AMD64", "amd64"):
    flags.append("-mpopcnt")  # as CMakeLists.txt's ARB_POPCNT
ffi.set_source(
    "arbiter._arbiter",
    '#include "arbiter/arbiter.h"\n#include "shim.h"\n',
    sources=library_sources() + ["arbiter/shim.c", "arbiter/shim_board.c"],
    include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src"),
                  os.path.join(HERE, "arbiter")],
    extra_compile_args=flags,
    libraries=["m"],
    # shim_board.c is also a CPython module (arbiter._board) using the full C API: the library
    # is built from source for the interpreter at hand, so no stable-ABI (abi3) name
    py_limited_api=False,
)

if __name__ == "__main__":
    ffi.compile(verbose=True)
