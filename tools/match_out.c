/* Arbiter — MIT licence, see LICENSE.
 *
 * match_out.c: the results of `arbiter match` in Arbiter's format and in fastchess's two output
 * modes (match_out.h).  fastchess's lines are reproduced from the format strings of its output
 * classes (output_fastchess.hpp, output_cutechess.hpp) and its arithmetic from elo_wdl.cpp and
 * elo_pentanomial.cpp (stats_elo_*_raw); C's printf and fmt agree on %.Nf, inf and -nan.
 */
#include "match_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DASHES "--------------------------------------------------\n"

int match_format_parse(const char *name, match_format *out) {
  static const char *const names[] = {"arbiter", "fastchess", "cutechess"};
  for (int i = 0; i < 3; i++)
    if (name && !strcmp(name, names[i])) {
      *out = (match_format)i;
      return 0;
    }
  return -1;
}

void match_seconds(int64_t ms, char *buf, size_t len) {
  double v = (double)ms / 1000.0;
  for (int p = 0; p <= 17; p++) { /* the fewest decimals that read back as the same double */
    snprintf(buf, len, "%.*f", p, v);
    if (strtod(buf, NULL) == v) return;
  }
}

static uint64_t pairs_of(const match_tally *t) {
  uint64_t n = 0;
  for (int i = 0; i < STATS_PENTA; i++)
    n += t->penta[i];
  return n;
}

static double llr_of(const match_sprt *s, const match_tally *t, int penta) {
  return penta ? stats_llr_penta(t->penta, s->elo0, s->elo1, s->model)
               : stats_llr_wdl(t->w, t->d, t->l, s->elo0, s->elo1, s->model);
}

int match_sprt_decision(const match_sprt *s, const match_tally *t, int penta) {
  if (!s->on) return 0;
  double lo, hi, llr = llr_of(s, t, penta);
  stats_sprt_bounds(s->alpha, s->beta, &lo, &hi);
  return llr >= hi ? 1 : llr <= lo ? -1 : 0;
}

/* fastchess's Ptnml(0-2) cells: the two half-point cells as one. */
static void penta_text(const match_tally *t, char *buf, size_t len) {
  snprintf(buf, len, "[%llu, %llu, %llu, %llu, %llu]", (unsigned long long)t->penta[STATS_LL],
           (unsigned long long)t->penta[STATS_LD],
           (unsigned long long)(t->penta[STATS_WL] + t->penta[STATS_DD]),
           (unsigned long long)t->penta[STATS_WD], (unsigned long long)t->penta[STATS_WW]);
}

static double points(const match_tally *t) { return (double)t->w + 0.5 * (double)t->d; }
static uint64_t games(const match_tally *t) { return t->w + t->d + t->l; }

/* fastchess's draw ratio in %: of pairs (half-point pairs) or of games. */
static double draw_ratio(const match_tally *t, int penta) {
  return penta ? (double)(t->penta[STATS_WL] + t->penta[STATS_DD]) / (double)pairs_of(t) * 100.0
               : 100.0 * (double)t->d / (double)games(t);
}

static void raw_elo(const match_tally *t, int penta, stats_elo *e) {
  if (penta)
    stats_elo_penta_raw(t->penta, e);
  else
    stats_elo_wdl_raw(t->w, t->d, t->l, e);
}

static void h2h_fastchess(FILE *out, const match_h2h *h, const match_sprt *s) {
  const match_tally *t = &h->t;
  stats_elo e;
  raw_elo(t, h->penta, &e);
  fprintf(out, "Results of %s vs %s (%s, %s, %s%s%s):\n", h->first, h->second, h->tc, h->threads,
          h->hash, h->book[0] ? ", " : "", h->book);
  fprintf(out, "Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f\n", e.elo, e.elo_error, e.nelo,
          e.nelo_error);
  fprintf(out, "LOS: %.2f %%, DrawRatio: %.2f %%", e.los * 100.0, draw_ratio(t, h->penta));
  if (h->penta)
    fprintf(out, ", PairsRatio: %.2f",
            (double)(t->penta[STATS_WW] + t->penta[STATS_WD]) /
                (double)(t->penta[STATS_LD] + t->penta[STATS_LL]));
  fprintf(out, "\nGames: %llu, Wins: %llu, Losses: %llu, Draws: %llu, Points: %.1f (%.2f %%)\n",
          (unsigned long long)games(t), (unsigned long long)t->w, (unsigned long long)t->l,
          (unsigned long long)t->d, points(t), points(t) / (double)games(t) * 100);
  if (h->penta) {
    char cells[128];
    penta_text(t, cells, sizeof cells);
    fprintf(out, "Ptnml(0-2): %s, WL/DD Ratio: %.2f\n", cells,
            (double)t->penta[STATS_WL] / (double)t->penta[STATS_DD]);
  }
  if (s->on) {
    double lo, hi, llr = llr_of(s, t, h->penta);
    stats_sprt_bounds(s->alpha, s->beta, &lo, &hi);
    fprintf(out, "LLR: %.2f (%.1f%%) (%.2f, %.2f) [%.2f, %.2f]\n", llr,
            (llr >= 0 ? llr / hi : -llr / lo) * 100., lo, hi, s->elo0, s->elo1);
  }
}

static void sprt_cutechess(FILE *out, const match_tally *t, const match_sprt *s) {
  if (!s->on) return;
  double lo, hi, llr = llr_of(s, t, 0);
  stats_sprt_bounds(s->alpha, s->beta, &lo, &hi);
  fprintf(out, "SPRT: llr %.2f (%.1f%%), lbound %.2f, ubound %.2f%s\n", llr,
          llr < 0 ? llr / lo * 100 : llr / hi * 100, lo, hi,
          llr >= hi  ? " - H1 was accepted"
          : llr < lo ? " - H0 was accepted"
                     : "");
}

static void h2h_cutechess(FILE *out, const match_h2h *h, const match_sprt *s) {
  stats_elo e;
  raw_elo(&h->t, 0, &e);
  fprintf(out, "Elo difference: %.2f +/- %.2f, LOS: %.2f %%, DrawRatio: %.2f %%\n", e.elo,
          e.elo_error, e.los * 100.0, draw_ratio(&h->t, 0));
  sprt_cutechess(out, &h->t, s);
}

static void h2h_arbiter(FILE *out, const match_h2h *h, const match_sprt *s) {
  const match_tally *t = &h->t;
  uint64_t n = games(t);
  if (!n) return;
  int penta = h->penta && pairs_of(t) > 0;
  stats_elo e;
  if (penta)
    stats_elo_penta(t->penta, &e);
  else
    stats_elo_wdl(t->w, t->d, t->l, &e);
  const char *model = penta ? "pentanomial" : "trinomial";
  fprintf(out, "Results of %s vs %s (%s):\n", h->first, h->second, h->tc);
  if (e.degenerate)
    fprintf(out, "Elo: %s %.2f (one-sided 95%%, %s), nElo: -\n", e.score >= 0.5 ? ">" : "<", e.elo,
            model);
  else
    fprintf(out, "Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f (%s)\n", e.elo, e.elo_error, e.nelo,
            e.nelo_error, model);
  fprintf(out, "LOS: %.2f %%, DrawRatio: %.2f %%\n", e.los * 100, draw_ratio(t, penta));
  fprintf(out, "Games: %llu, Wins: %llu, Losses: %llu, Draws: %llu, Points: %.1f (%.2f %%)\n",
          (unsigned long long)n, (unsigned long long)t->w, (unsigned long long)t->l,
          (unsigned long long)t->d, points(t), 100.0 * points(t) / (double)n);
  if (penta) {
    char ratio[32];
    if (t->penta[STATS_DD])
      snprintf(ratio, sizeof ratio, "%.2f",
               (double)t->penta[STATS_WL] / (double)t->penta[STATS_DD]);
    else
      snprintf(ratio, sizeof ratio, "%s", t->penta[STATS_WL] ? "inf" : "-");
    char cells[128];
    penta_text(t, cells, sizeof cells);
    fprintf(out, "Ptnml(0-2): %s, WL/DD Ratio: %s\n", cells, ratio);
  }
  if (s->on) {
    double lo, hi, llr = llr_of(s, t, penta);
    stats_sprt_bounds(s->alpha, s->beta, &lo, &hi);
    fprintf(out, "LLR: %.2f (%.1f%%) (%.2f, %.2f) [%.2f, %.2f] (%s)\n", llr,
            100 * (llr >= 0 ? llr / hi : -llr / lo), lo, hi, s->elo0, s->elo1,
            stats_model_name(s->model));
  }
}

void match_print_h2h(FILE *out, match_format f, const match_h2h *h, const match_sprt *s) {
  if (f == MATCH_OUT_FASTCHESS) {
    fputs(DASHES, out);
    h2h_fastchess(out, h, s);
    fputs(DASHES, out);
  } else if (f == MATCH_OUT_CUTECHESS)
    h2h_cutechess(out, h, s);
  else
    h2h_arbiter(out, h, s);
  fflush(out);
}

typedef struct ranked {
  match_row *row;
  stats_elo e;
} ranked;

void match_print_table(FILE *out, match_format f, match_row *rows, int n, int penta) {
  if (f == MATCH_OUT_CUTECHESS) penta = 0;
  ranked *r = calloc((size_t)n, sizeof *r);
  if (!r) return;
  int width = 25;
  for (int i = 0; i < n; i++) {
    r[i].row = &rows[i];
    if (f == MATCH_OUT_ARBITER && !(penta ? pairs_of(&rows[i].t) : games(&rows[i].t)))
      memset(&r[i].e, 0, sizeof r[i].e);
    else if (f == MATCH_OUT_ARBITER && penta)
      stats_elo_penta(rows[i].t.penta, &r[i].e);
    else if (f == MATCH_OUT_ARBITER)
      stats_elo_wdl(rows[i].t.w, rows[i].t.d, rows[i].t.l, &r[i].e);
    else
      raw_elo(&rows[i].t, penta, &r[i].e);
    int len = (int)strlen(rows[i].name);
    if (len > width) width = len;
  }
  /* by Elo, highest first, nan last; stable */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0; j--) {
      double a = r[j - 1].e.elo, b = r[j].e.elo;
      if (!((!isnan(b) && isnan(a)) || b > a)) break;
      ranked t = r[j - 1];
      r[j - 1] = r[j];
      r[j] = t;
    }
  if (f == MATCH_OUT_FASTCHESS) fputs(DASHES, out);
  fprintf(out, "%-4s %-*s %10s %10s %10s %10s %10s %10s %10s", "Rank", width, "Name", "Elo", "+/-",
          "nElo", "+/-", "Games", "Score", "Draw");
  if (f != MATCH_OUT_CUTECHESS) fprintf(out, " %20s", "Ptnml(0-2)");
  fputc('\n', out);
  for (int i = 0; i < n; i++) {
    const match_tally *t = &r[i].row->t;
    fprintf(out, "%4d %-*s %10.2f %10.2f %10.2f %10.2f %10llu %9.1f%% %9.1f%%", i + 1, width,
            r[i].row->name, r[i].e.elo, r[i].e.elo_error, r[i].e.nelo, r[i].e.nelo_error,
            (unsigned long long)games(t), points(t) / (double)games(t) * 100, draw_ratio(t, penta));
    if (f != MATCH_OUT_CUTECHESS) {
      char cells[128] = "";
      if (penta) penta_text(t, cells, sizeof cells);
      fprintf(out, " %20s", cells);
    }
    fputc('\n', out);
  }
  if (f == MATCH_OUT_FASTCHESS) fputs(DASHES, out);
  if (f == MATCH_OUT_ARBITER)
    fprintf(out, "(each against the field, %s)\n", penta ? "pentanomial" : "trinomial");
  free(r);
  fflush(out);
}

void match_print_score(FILE *out, const char *first, const char *second, const match_tally *t) {
  uint64_t n = games(t);
  fprintf(out, "Score of %s vs %s: %llu - %llu - %llu  [%.3f] %llu\n", first, second,
          (unsigned long long)t->w, (unsigned long long)t->l, (unsigned long long)t->d,
          points(t) / (double)n, (unsigned long long)n);
  fflush(out);
}
