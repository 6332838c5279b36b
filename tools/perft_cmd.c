/* Arbiter — MIT licence, see LICENSE.
 *
 * perft_cmd.c: `arbiter perft`.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void perft_usage(FILE *out) {
  fprintf(out, "usage: arbiter perft DEPTH [--fen FEN] [--divide]\n"
               "       arbiter perft --epd FILE [--max-depth N] [--max-nodes N]\n"
               "\n"
               "Counts the leaf nodes of the legal move tree (the last ply is counted, not made).\n"
               "  DEPTH           plies to search (0-20)\n"
               "  --fen FEN       start from FEN instead of the initial position\n"
               "  --divide        one line per root move, 'e2e4: 20', then a blank line\n"
               "  --epd FILE      check every 'FEN ;D1 n ;D2 n ...' line of FILE ('-' = stdin);\n"
               "                  prints each failure and ends with 'N passed, N failed' (then\n"
               "                  ', N skipped' when lines had no depth left to check)\n"
               "  --max-depth N   with --epd: check depths up to N only\n"
               "  --max-nodes N   with --epd: skip depths whose expected count exceeds N\n"
               "Output always ends with 'Nodes searched: N' (Stockfish's format) or the summary.\n"
               "Exit status: 0 ok, 1 a count did not match, 2 bad usage or input.\n");
}

static int parse_long(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

static int run_epd(const char *path, long max_depth, unsigned long long max_nodes) {
  FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
  if (!in) {
    fprintf(stderr, "arbiter perft: %s: %s\n", path, strerror(errno));
    return 2;
  }
  char *line = NULL;
  size_t cap = 0;
  long len, lineno = 0, passed = 0, failed = 0, skipped = 0;
  int too_long;
  while ((len = arb_tool_read_line(in, &line, &cap, 1 << 16, &too_long)) >= 0) {
    lineno++;
    if (too_long) {
      printf("FAIL %s:%ld: line too long\n", path, lineno);
      failed++;
      continue;
    }
    char *p = line;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\0' || *p == '#') continue;
    char *semi = strchr(p, ';');
    size_t fen_len = semi ? (size_t)(semi - p) : strlen(p);
    arb_position pos;
    arb_fen_report rep;
    if (arb_fen_read_n(&pos, p, fen_len, ARB_FEN_PROBLEMS_ALL, &rep) != ARB_OK) {
      printf("FAIL %s:%ld: bad FEN (%s, column %d): %.*s\n", path, lineno, rep.message,
             rep.column + 1, (int)fen_len, p);
      failed++;
      continue;
    }
    int ok = 1, checked = 0;
    while (semi) {
      char *q = semi + 1;
      semi = strchr(q, ';');
      while (*q == ' ')
        q++;
      long depth;
      unsigned long long expected;
      char *end;
      if (*q != 'D' || (depth = strtol(q + 1, &end, 10)) < 0 || end == q + 1) {
        printf("FAIL %s:%ld: cannot read the depth entry '%.*s'\n", path, lineno,
               (int)(semi ? (size_t)(semi - q) : strlen(q)), q);
        ok = 0;
        break;
      }
      errno = 0;
      expected = strtoull(end, &end, 10);
      if (errno) {
        printf("FAIL %s:%ld: bad count\n", path, lineno);
        ok = 0;
        break;
      }
      if (depth > max_depth || expected > max_nodes) continue;
      uint64_t got = arb_perft(&pos, (int)depth);
      checked++;
      if (got != expected) {
        char fen[ARB_FEN_MAX];
        arb_fen_write(&pos, fen, sizeof fen, 0);
        printf("FAIL %s:%ld: %s depth %ld expected %llu got %llu\n", path, lineno, fen, depth,
               expected, (unsigned long long)got);
        ok = 0;
      }
    }
    if (!ok)
      failed++;
    else if (checked)
      passed++;
    else
      skipped++; /* no depth entry, or every one beyond --max-depth / --max-nodes */
    fflush(stdout);
  }
  free(line);
  if (in != stdin) fclose(in);
  if (skipped)
    printf("%ld passed, %ld failed, %ld skipped\n", passed, failed, skipped);
  else
    printf("%ld passed, %ld failed\n", passed, failed);
  return failed ? 1 : 0;
}

int arb_cmd_perft(int argc, char **argv) {
  const char *fen = NULL, *epd = NULL;
  long depth = -1, max_depth = 64;
  unsigned long long max_nodes = ~0ULL;
  int divide = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      perft_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--divide")) {
      divide = 1;
    } else if (!strcmp(a, "--fen") && i + 1 < argc) {
      fen = argv[++i];
    } else if (!strcmp(a, "--epd") && i + 1 < argc) {
      epd = argv[++i];
    } else if (!strcmp(a, "--max-depth") && i + 1 < argc) {
      if (!parse_long(argv[++i], 0, 64, &max_depth)) {
        fprintf(stderr, "arbiter perft: --max-depth wants a number from 0 to 64\n");
        return 2;
      }
    } else if (!strcmp(a, "--max-nodes") && i + 1 < argc) {
      long v;
      if (!parse_long(argv[++i], 0, 0x7fffffffffffffffL, &v)) {
        fprintf(stderr, "arbiter perft: --max-nodes wants a number\n");
        return 2;
      }
      max_nodes = (unsigned long long)v;
    } else if (a[0] != '-' && depth < 0) {
      if (!parse_long(a, 0, 20, &depth)) {
        fprintf(stderr, "arbiter perft: DEPTH must be a number from 0 to 20, not '%s'\n", a);
        return 2;
      }
    } else {
      fprintf(stderr, "arbiter perft: unexpected argument '%s'\n", a);
      perft_usage(stderr);
      return 2;
    }
  }
  if (epd) return run_epd(epd, max_depth, max_nodes);
  if (depth < 0) {
    perft_usage(stderr);
    return 2;
  }
  arb_position pos;
  if (fen) {
    arb_fen_report rep;
    /* Test positions are sometimes deliberately impossible: accept every non-fatal problem,
     * but say so. */
    if (arb_fen_read(&pos, fen, ARB_FEN_PROBLEMS_ALL, &rep) != ARB_OK) {
      fprintf(stderr, "arbiter perft: bad FEN: %s", rep.message);
      if (rep.column >= 0) fprintf(stderr, " (field %d, column %d)", rep.field, rep.column + 1);
      fprintf(stderr, "\n");
      return 2;
    }
    for (int b = 0; b < ARB_FEN_PROBLEM_COUNT; b++)
      if (rep.problems & (1u << b))
        fprintf(stderr, "arbiter perft: warning: %s\n", arb_fen_problem_message(1u << b));
  } else {
    arb_position_startpos(&pos);
  }
  uint64_t total = 0;
  if (divide && depth > 0) {
    arb_move moves[ARB_MAX_MOVES];
    int n = arb_generate_legal(&pos, moves);
    for (int i = 0; i < n; i++) {
      arb_position next = pos;
      arb_undo u;
      char uci[8];
      arb_uci_write(&pos, moves[i], uci, sizeof uci);
      arb_make_move(&next, moves[i], &u);
      uint64_t c = arb_perft(&next, (int)depth - 1);
      total += c;
      printf("%s: %llu\n", uci, (unsigned long long)c);
    }
    printf("\n");
  } else {
    total = arb_perft(&pos, (int)depth);
  }
  printf("Nodes searched: %llu\n", (unsigned long long)total);
  return 0;
}
