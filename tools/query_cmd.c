#include "util.h"
int arb_cmd_query(int argc, char **argv) { (void)argc; (void)argv; return 0; }
