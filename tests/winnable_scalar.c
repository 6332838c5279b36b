/* Arbiter — MIT licence, see LICENSE.
 *
 * winnable_scalar.c: src/rules/winnable.c built with its scalar code only, under other names,
 * so that test_dead can check that the vector code (AVX-512, when the library is built for a CPU
 * that has it) gives exactly the same searches: verdicts, proofs, node counts and lines.
 */
#define WIN_SCALAR 1
#define arb_winnability_of arb_test_scalar_winnability_of
#define arb_win_verdict_name arb_test_scalar_win_verdict_name
#define arb_win_proof_name arb_test_scalar_win_proof_name
#include "rules/winnable.c"

/* 1 when the library itself runs the vector code (same compiler flags as this file). */
const int arb_test_vector_code = WIN_VECTOR_CPU;
