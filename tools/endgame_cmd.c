/* placeholder */
#include <stdio.h>
#include "util.h"
int arb_cmd_endgame(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "arbiter endgame: not yet\n"); return 2; }
