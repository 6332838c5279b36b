/* Arbiter — MIT licence, see LICENSE.
 *
 * audit_json.c: a reviewed game as JSON (audit_json.h).
 */
#include "audit_json.h"

static json_t *finding_json(const arb_audit_finding *f) {
  json_t *o = json_pack("{s:s,s:i,s:i,s:s,s:s,s:s,s:s,s:f}", "kind", arb_audit_kind_name(f->kind),
                        "ply", f->ply, "move_number", f->move_number, "side",
                        f->side == ARB_WHITE ? "white" : "black", "fen", f->fen, "text", f->text,
                        "article", f->article, "points", f->points);
  if (f->move[0]) {
    json_object_set_new(o, "move", json_string(f->move));
    json_object_set_new(o, "san", json_string(f->san));
  }
  if (f->played[0]) {
    json_object_set_new(o, "played", json_string(f->played));
    json_object_set_new(o, "played_san", json_string(f->played_san));
  }
  return o;
}

json_t *srv_audit_json(const arb_audit_info *i, const arb_audit_finding *f, int n) {
  json_t *o = json_pack("{s:I,s:s,s:s,s:s,s:s,s:s,s:s,s:i}", "game", (json_int_t)i->game, "white",
                        i->white, "black", i->black, "site", i->site, "date", i->date, "result",
                        i->result, "termination", i->termination, "plies", i->plies);
  if (!o) return NULL;
  if (!i->readable) json_object_set_new(o, "error", json_string(i->error));
  json_t *a = json_array();
  for (int k = 0; k < n; k++)
    json_array_append_new(a, finding_json(&f[k]));
  json_object_set_new(o, "findings", a);
  return o;
}
