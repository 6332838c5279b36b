/* Arbiter — MIT licence, see LICENSE.
 *
 * replay.c: runs a fuzz target's LLVMFuzzerTestOneInput over corpus files without libFuzzer.
 *
 * Usage: fuzz_replay_<target> [-v] [-nofork] FILE|DIR...   (directories are walked
 * recursively, in name order).  Each file's bytes go to the target in a buffer of exactly that
 * size, so a sanitizer build catches reads past the end.  Each input runs in a child process,
 * so one failed property (an abort) or crash is counted and named and the others still run;
 * -nofork runs them in this process instead (for a debugger; the first failure ends the run).
 * Prints "replay: N inputs, P passed, F failed"; exits 0 when nothing failed, 1 when an input
 * failed, 2 when an argument cannot be read.  CI runs this through CTest.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

static const char *current_input; /* for the crash handler */
static size_t inputs, failed, unreadable;
static int verbose, nofork;

/* Names the input that crashed, then lets the signal take its default course. */
static void on_crash(int sig) {
  static const char head[] = "replay: crashed on input ";
  if (current_input) {
    ssize_t ignored = write(2, head, sizeof head - 1);
    ignored = write(2, current_input, strlen(current_input));
    ignored = write(2, "\n", 1);
    (void)ignored;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

static int read_file(const char *path, uint8_t **out, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    uint8_t *bigger = realloc(buf, cap * 2);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  int bad = !buf || ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return -1;
  }
  /* An exact-size copy, so out-of-bounds reads hit the allocation's end (ASan builds). */
  uint8_t *exact = malloc(n ? n : 1);
  if (!exact) {
    free(buf);
    return -1;
  }
  memcpy(exact, buf, n);
  free(buf);
  *out = exact;
  *size = n;
  return 0;
}

static void run_file(const char *path) {
  uint8_t *data;
  size_t size;
  if (read_file(path, &data, &size) != 0) {
    fprintf(stderr, "replay: %s: cannot read: %s\n", path, strerror(errno));
    unreadable++;
    return;
  }
  if (verbose) fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
  inputs++;
  current_input = path;
  if (nofork) {
    LLVMFuzzerTestOneInput(data, size);
  } else {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      LLVMFuzzerTestOneInput(data, size);
      exit(0); /* not _exit: LeakSanitizer checks at exit (stdio was flushed before fork) */
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
      failed++;
      if (pid < 0)
        fprintf(stderr, "replay: %s: fork: %s\n", path, strerror(errno));
      else if (WIFSIGNALED(status))
        fprintf(stderr, "replay: FAILED %s (signal %d)\n", path, WTERMSIG(status));
      else
        fprintf(stderr, "replay: FAILED %s (exit %d)\n", path, WEXITSTATUS(status));
    }
  }
  current_input = NULL;
  free(data);
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void run_path(const char *path, int depth) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
    unreadable++;
    return;
  }
  if (!S_ISDIR(st.st_mode)) {
    run_file(path);
    return;
  }
  if (depth > 16) return; /* symlink loops */
  DIR *dir = opendir(path);
  if (!dir) {
    fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
    unreadable++;
    return;
  }
  char **names = NULL;
  size_t count = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    if (e->d_name[0] == '.') continue; /* ".", "..", and hidden files such as .gitkeep */
    if (count == cap) {
      cap = cap ? cap * 2 : 64;
      char **more = realloc(names, cap * sizeof *names);
      if (!more) break;
      names = more;
    }
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    names[count] = malloc(len);
    if (!names[count]) break;
    snprintf(names[count], len, "%s/%s", path, e->d_name);
    count++;
  }
  closedir(dir);
  if (count) qsort(names, count, sizeof *names, cmp_names);
  for (size_t i = 0; i < count; i++) {
    run_path(names[i], depth + 1);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  signal(SIGABRT, on_crash);
  signal(SIGSEGV, on_crash);
  signal(SIGBUS, on_crash);
  signal(SIGFPE, on_crash);
  signal(SIGILL, on_crash);

  LLVMFuzzerInitialize(&argc, &argv);
  int paths = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-v")) {
      verbose = 1;
      continue;
    }
    if (!strcmp(argv[i], "-nofork")) {
      nofork = 1;
      continue;
    }
    if (argv[i][0] == '-') continue; /* libFuzzer-style flags (-runs=...) are ignored */
    run_path(argv[i], 0);
    paths++;
  }
  if (!paths) {
    fprintf(stderr, "usage: %s [-v] FILE|DIR...\n", argv[0]);
    return 2;
  }
  printf("replay: %zu inputs, %zu passed, %zu failed\n", inputs, inputs - failed, failed);
  if (unreadable) {
    fprintf(stderr, "replay: %zu paths could not be read\n", unreadable);
    return 2;
  }
  return failed ? 1 : 0;
}
