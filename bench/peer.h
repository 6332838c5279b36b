/* Arbiter — MIT licence, see LICENSE.
 *
 * peer.h: what the benchmarks share — a monotonic clock and finding the peer program
 * (Stockfish, pgn-extract) that a benchmark measures against in the same run.
 */
#ifndef ARB_BENCH_PEER_H
#define ARB_BENCH_PEER_H

#include <stddef.h>
#include <sys/types.h>

/* Monotonic time in seconds. */
double bench_now(void);
/* 1 if path names an executable file. */
int bench_is_executable(const char *path);
/* Resolves name (a path when it has a '/', else looked up in PATH) into out[cap]; 1 if usable. */
int bench_resolve(const char *name, char *out, size_t cap);
/* Finds a peer: $env_var first (a warning naming `who` when it is set but unusable), then each
 * of the NULL-terminated candidates.  1 if found (its path in out). */
int bench_find_peer(const char *env_var, const char *const *candidates, const char *who, char *out,
                    size_t cap);

/* Starts argv[0] (a path) with argv, its stdin, stdout and stderr on /dev/null (exit status 127
 * when that or the exec fails).  Its pid, or -1 when fork failed; the caller waits for it. */
pid_t bench_spawn_quiet(const char *const *argv);

/* Reads the value of -n: a whole number from 1 to max into *runs.  0, or -1 when it is not one. */
int bench_parse_runs(const char *text, int max, int *runs);

#endif
