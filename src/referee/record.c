/* Arbiter — MIT licence, see LICENSE.
 *
 * record.c: the referee's record — every event of the present game with its time and decision —
 * and the game written from it as PGN (export format, TimeControl, [%clk] and [%emt]).
 */
#include <stdlib.h>
#include <string.h>

#include "referee/referee_internal.h"

int arb__ref_record(arb_referee *ref, const arb_ref_entry *e) {
  if (ref->nrec == ref->rec_cap) {
    uint32_t cap = ref->rec_cap ? ref->rec_cap * 2 : 64;
    if (cap <= ref->rec_cap) return 0; /* 2^32 entries */
    arb_ref_entry *r = realloc(ref->rec, (size_t)cap * sizeof *r);
    if (!r) return 0;
    ref->rec = r;
    ref->rec_cap = cap;
  }
  ref->rec[ref->nrec++] = *e;
  return 1;
}

void arb__ref_record_clear(arb_referee *ref) { ref->nrec = 0; }

uint32_t arb_referee_record_count(const arb_referee *ref) { return ref->nrec; }

arb_status arb_referee_record_at(const arb_referee *ref, uint32_t i, arb_ref_entry *out) {
  if (i >= ref->nrec || !out) return ARB_ERR_ARGUMENT;
  *out = ref->rec[i];
  return ARB_OK;
}

arb_status arb_referee_write_pgn(const arb_referee *ref, unsigned flags, arb_pgn_writer *w) {
  const arb_game *g = ref->game;
  if (!g || !w) return ARB_ERR_ARGUMENT;
  arb_outcome o = arb_game_outcome(g);
  const arb_position *start = arb_game_position_at(g, 0);
  arb_pgn_writer_begin_game(w);
  const char *res = arb_result_string(o.result);
  arb_status s = arb_pgn_writer_tag(w, "Result", 6, res, strlen(res));
  /* The referee's own tags first: a repeated tag keeps its first value. */
  char buf[ARB_FEN_MAX + 16];
  if (!s && ref->timed) {
    int n = arb_tc_write(&ref->clock.tc, ARB_TC_PGN, buf, sizeof buf);
    if (n > 0 && (size_t)n < sizeof buf)
      s = arb_pgn_writer_tag(w, "TimeControl", 11, buf, (size_t)n);
  }
  const char *term = arb_termination_pgn(ref->aborted ? ARB_TERM_ABORTED : o.termination);
  if (!s) s = arb_pgn_writer_tag(w, "Termination", 11, term, strlen(term));
  if (!s && start->chess960) s = arb_pgn_writer_tag(w, "Variant", 7, "Chess960", 8);
  arb_fen_write(start, buf, sizeof buf, 0);
  if (!s && (start->chess960 || strcmp(buf, ARB_FEN_START) != 0)) {
    s = arb_pgn_writer_tag(w, "SetUp", 5, "1", 1);
    if (!s) s = arb_pgn_writer_tag(w, "FEN", 3, buf, strlen(buf));
  }
  for (size_t i = 0; !s && i < ref->ntags; i++)
    s = arb_pgn_writer_tag(w, ref->tags[i].name, strlen(ref->tags[i].name), ref->tags[i].value,
                           strlen(ref->tags[i].value));
  /* The accepted moves of the record are the game's plies, in order (after the start of the
   * present segment, over the board: the game is then written from there). */
  uint32_t r = 0;
  for (uint32_t i = 0; ref->nseg && i < ref->nrec; i++)
    if (ref->rec[i].kind == ARB_REF_CONTINUE_FROM && ref->rec[i].status == ARB_OK &&
        !(ref->rec[i].flags & ARB_REF_ANNULLED))
      r = i + 1;
  for (int ply = 1; !s && ply <= arb_game_ply_count(g); ply++) {
    s = arb_pgn_writer_move_to(w, arb_game_position_at(g, ply - 1), arb_game_move_at(g, ply),
                               arb_game_position_at(g, ply));
    if (!ref->nseg && ply <= ref->book) continue; /* the setup's moves: not in the record */
    while (r < ref->nrec && !(ref->rec[r].kind == ARB_REF_MOVE && ref->rec[r].status == ARB_OK &&
                              !(ref->rec[r].flags & ARB_REF_ANNULLED)))
      r++;
    if (r == ref->nrec) continue;
    const arb_ref_entry *e = &ref->rec[r++];
    /* whole seconds, rounded down, for every move alike (as lichess writes them): a clock
     * shown as 0:04:57.123 after one move and 0:05:00 after the next reads as two precisions */
    arb_pgn_clock_data cd = {
        e->clock_ms >= 0 ? e->clock_ms / 1000 * 1000 : -1,
        (flags & ARB_REF_PGN_EMT) && e->move_ms >= 0 ? e->move_ms / 1000 * 1000 : -1, -1, -1};
    if (s || !ref->timed || (cd.clk_ms < 0 && cd.emt_ms < 0)) continue;
    char text[96];
    int n = arb_pgn_comment_clock_write(&cd, text, sizeof text);
    s = n > 0 && (size_t)n < sizeof text ? arb_pgn_writer_comment(w, text, (size_t)n)
                                         : ARB_ERR_BUFFER;
  }
  if (!s) s = arb_pgn_writer_end_game(w, o.result);
  if (s) arb_pgn_writer_discard_game(w);
  return s;
}
