/* Arbiter — MIT licence, see LICENSE.
 *
 * svg_cmd.c: `arbiter svg` (not yet written).
 */
#include "util.h"

int arb_cmd_svg(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return 2;
}
