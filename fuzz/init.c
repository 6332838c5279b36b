/* Arbiter — MIT licence, see LICENSE.
 *
 * init.c: what every target shares: the libFuzzer initialiser (the tables are built once,
 * before any input and before replay.c forks its children) and the input layout helpers.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  arb_init();
  return 0;
}

const char *fuzz_start_position(const uint8_t *data, size_t size, arb_position *pos) {
  const char *text = (const char *)data;
  const char *nl = memchr(text, '\n', size);
  size_t fen_len = nl ? (size_t)(nl - text) : size;
  if (arb_fen_read_n(pos, text, fen_len, ARB_FEN_PROBLEMS_ALL, NULL) != ARB_OK)
    arb_position_startpos(pos);
  return nl ? nl + 1 : NULL;
}

const char *fuzz_next_line(const char **p, const char *end, size_t *len, int *count, int max) {
  if (!*p || *p > end || *count >= max) return NULL;
  const char *line = *p, *eol = memchr(line, '\n', (size_t)(end - line));
  *len = eol ? (size_t)(eol - line) : (size_t)(end - line);
  *p = eol ? eol + 1 : end + 1;
  (*count)++;
  return line;
}

int fuzz_same_position(const arb_position *a, const arb_position *b) {
  return memcmp(a->by_type, b->by_type, sizeof a->by_type) == 0 &&
         memcmp(a->by_color, b->by_color, sizeof a->by_color) == 0 &&
         a->castling_rooks == b->castling_rooks && a->key == b->key &&
         memcmp(a->board, b->board, sizeof a->board) == 0 && a->turn == b->turn &&
         a->ep_square == b->ep_square && a->ep_target == b->ep_target &&
         a->chess960 == b->chess960 && a->halfmove_clock == b->halfmove_clock &&
         a->fullmove_number == b->fullmove_number;
}

void fuzz_line_context(const arb_position *pos, const char *line, size_t len, char *ctx) {
  char fen[ARB_FEN_MAX];
  arb_fen_write(pos, fen, sizeof fen, 0);
  snprintf(ctx, FUZZ_CTX_MAX, "%s | %.*s", fen, (int)(len < 40 ? len : 40), line);
}

int fuzz_in_list(const arb_move *moves, int n, arb_move m) {
  for (int i = 0; i < n; i++)
    if (moves[i] == m) return 1;
  return 0;
}
