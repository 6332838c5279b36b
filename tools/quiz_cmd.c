/* placeholder */
#include <stdio.h>
#include "util.h"
int arb_cmd_quiz(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "arbiter quiz: not yet\n"); return 2; }
