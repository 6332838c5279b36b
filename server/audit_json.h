/* Arbiter — MIT licence, see LICENSE.
 *
 * audit_json.h: a reviewed game (arbiter/audit.h) as JSON, the one shape of the trainer's
 * POST /api/train/review and of `arbiter train review --json`.  Ownership: the caller decrefs
 * the object returned.
 */
#ifndef SRV_AUDIT_JSON_H
#define SRV_AUDIT_JSON_H

#include <jansson.h>

#include "arbiter/arbiter.h"

/* {"game","white","black","site","date","result","termination","plies","error"?,"findings":[
 *   {"kind","ply","move_number","side","fen","text","article","points","move"?,"san"?,
 *    "played"?,"played_san"?}]} */
json_t *srv_audit_json(const arb_audit_info *info, const arb_audit_finding *findings, int n);

#endif
