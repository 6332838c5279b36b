/* Arbiter — MIT licence, see LICENSE.
 *
 * peer.c: see peer.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "peer.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bench_is_executable(const char *path) { return path[0] && access(path, X_OK) == 0; }

/* Looks name up in PATH; writes the full path into out.  1 if found. */
static int search_path(const char *name, char *out, size_t cap) {
  const char *p = getenv("PATH");
  if (!p) return 0;
  for (;;) {
    const char *end = strchr(p, ':');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    int n =
        len ? snprintf(out, cap, "%.*s/%s", (int)len, p, name) : snprintf(out, cap, "./%s", name);
    if (n > 0 && (size_t)n < cap && bench_is_executable(out)) return 1;
    if (!end) return 0;
    p = end + 1;
  }
}

int bench_resolve(const char *name, char *out, size_t cap) {
  if (strchr(name, '/')) {
    int n = snprintf(out, cap, "%s", name);
    return n > 0 && (size_t)n < cap && bench_is_executable(out);
  }
  return search_path(name, out, cap);
}

int bench_find_peer(const char *env_var, const char *const *candidates, const char *who, char *out,
                    size_t cap) {
  const char *env = getenv(env_var);
  if (env && env[0]) {
    if (bench_resolve(env, out, cap)) return 1;
    fprintf(stderr, "%s: $%s=%s is not an executable; looking elsewhere\n", who, env_var, env);
  }
  for (int i = 0; candidates[i]; i++)
    if (bench_resolve(candidates[i], out, cap)) return 1;
  return 0;
}

int bench_parse_runs(const char *text, int max, int *runs) {
  char *end;
  long v = strtol(text, &end, 10);
  if (!*text || *end || v < 1 || v > max) return -1;
  *runs = (int)v;
  return 0;
}

pid_t bench_spawn_quiet(const char *const *argv) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid != 0) return pid < 0 ? -1 : pid;
  int fd = open("/dev/null", O_RDWR);
  if (fd < 0 || dup2(fd, STDIN_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
      dup2(fd, STDERR_FILENO) < 0)
    _exit(127);
  execv(argv[0], (char *const *)(uintptr_t)argv);
  _exit(127);
}
