/* Arbiter — MIT licence, see LICENSE.
 *
 * analysis.h: the analysis board's HTTP API (docs/server.md, "The analysis board") — a game
 * (a PGN with its variations, a stored game, or a FEN and moves) answered position by position
 * with what the laws say there: the legal moves, check, mate and stalemate, the repetitions so
 * far and where they were, the halfmove count, the draws that could be claimed now or with a
 * move (FIDE 9.2, 9.3), the automatic endings (9.6), whether the position is dead (5.2.2) and
 * why, and whether each side can still checkmate, with the library's proof.  Every fact is the
 * library's (arbiter/game.h, status.h, tree.h); this file reads the request, walks the tree and
 * puts the facts into words.
 *
 *   POST /api/analysis           the whole game: every node of the tree with its laws
 *   POST /api/analysis/position  one position: the laws at the end of a line of moves
 *   POST /api/analysis/pgn       the annotated game as PGN (the library's writer)
 *
 * Bounds, whatever is posted: at most SRV_ANALYSIS_MAX_PLIES moves in all (main line,
 * variations and added moves), a stored game's PGN at most SRV_ANALYSIS_MAX_PGN bytes, and the
 * "can this side still mate" searches at most SRV_ANALYSIS_BUDGET nodes for one request (each
 * at most SRV_SEARCH_BUDGET): a position the budget does not settle is said to be unknown.
 * The searches of all requests together draw on one budget of SRV_ANALYSIS_RATE nodes a second
 * (at most SRV_ANALYSIS_BURST saved up): a stream of requests gets the cheap proofs only (the
 * material, the pawn walls) and "unknown" for the rest, instead of stalling the server's loop.
 * No sockets and no clock of its own: the transport hands over the body, its time and, for
 * {"game": ID}, a way to load the stored game's PGN.
 *
 * Threads: one (the transport's): the search budget is shared between calls.
 */
#ifndef ARB_SERVER_ANALYSIS_H
#define ARB_SERVER_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#define SRV_ANALYSIS_MAX_PLIES 600
#define SRV_ANALYSIS_MAX_PGN (256 * 1024)
#define SRV_ANALYSIS_BUDGET 400000
#define SRV_ANALYSIS_RATE 1000000  /* search nodes a second for all requests (about 0.12 s) */
#define SRV_ANALYSIS_BURST 2000000 /* ... saved up at most */

/* Loads the PGN of the stored game `id` (already checked to look like a game id): returns 200
 * with *pgn (malloc'd, NUL-terminated), or the HTTP status of the failure (404: no such game)
 * with *pgn NULL. */
typedef int (*srv_analysis_loader)(void *ctx, const char *id, char **pgn);

/* One POST under /api/analysis: path is "/api/analysis", "/api/analysis/position" or
 * "/api/analysis/pgn"; body the request JSON (len bytes, need not be NUL-terminated); now_ms
 * the transport's monotonic time in milliseconds (for the shared search budget); load may
 * be NULL (then {"game": ID} answers 404).  Returns the HTTP status (200, 400 with a JSON error
 * naming what and where, 404 for an unknown path or game, 413 beyond the bounds, 500 without
 * memory); *out gets the JSON answer (malloc'd; NULL only when memory ran out). */
int srv_analysis_http(const char *path, const char *body, size_t len, int64_t now_ms,
                      srv_analysis_loader load, void *load_ctx, char **out);

#endif
