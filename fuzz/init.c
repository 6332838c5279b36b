/* Arbiter — MIT licence, see LICENSE.
 *
 * init.c: the libFuzzer initialiser shared by every target: build the tables once, before any
 * input (and before replay.c forks its children).
 */
#include "arbiter/arbiter.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  arb_init();
  return 0;
}
