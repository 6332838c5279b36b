/* Arbiter — MIT licence, see LICENSE.
 *
 * quiz_json.c: rules-quiz items (arbiter/quiz.h) as JSON objects and back, for `arbiter quiz`
 * and its fuzz target.  The reader checks every field's type and size and names the first one
 * that is wrong.
 */
#include "quiz_json.h"

#include <stdio.h>
#include <string.h>

/* ---- items to JSON ---- */

static const char *color_name(int c) {
  return c == ARB_WHITE ? "white" : c == ARB_BLACK ? "black" : NULL;
}

static json_t *strings(const char (*s)[ARB_QUIZ_TEXT], int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(a, json_string(s[i]));
  return a;
}

json_t *arb_tool_quiz_item_json(const arb_quiz_item *it) {
  json_t *o = json_object();
  json_object_set_new(o, "id", json_string(it->id));
  json_object_set_new(o, "topic", json_string(arb_quiz_topic_name(it->topic)));
  json_object_set_new(o, "template", json_string(it->template_name));
  json_object_set_new(o, "difficulty", json_integer(it->difficulty));
  json_object_set_new(o, "kind", json_string(it->kind == ARB_QUIZ_MOVE ? "move" : "choice"));
  json_object_set_new(o, "rules", json_string(it->rules));
  json_object_set_new(o, "fen", json_string(it->fen));
  if (it->start_fen[0]) {
    json_object_set_new(o, "start_fen", json_string(it->start_fen));
    json_t *m = json_array();
    for (int i = 0; i < it->nmoves; i++)
      json_array_append_new(m, json_string(it->moves[i]));
    json_object_set_new(o, "moves", m);
  }
  if (it->move[0]) json_object_set_new(o, "move", json_string(it->move));
  if (it->clock.present) {
    json_t *c = json_pack("{s:I,s:I,s:I,s:b}", "white_ms", (json_int_t)it->clock.ms[0], "black_ms",
                          (json_int_t)it->clock.ms[1], "increment_ms",
                          (json_int_t)it->clock.increment_ms, "last_period", it->clock.last_period);
    const char *f = color_name(it->clock.flag);
    json_object_set_new(c, "flag", f ? json_string(f) : json_null());
    json_object_set_new(o, "clock", c);
  }
  if (it->nevents) {
    json_t *a = json_array();
    for (int i = 0; i < it->nevents; i++) {
      const arb_quiz_event *e = &it->events[i];
      json_t *j = json_pack("{s:s}", "type", e->type);
      const char *by = color_name(e->by);
      if (by) json_object_set_new(j, "by", json_string(by));
      if (e->nsquares) {
        json_t *s = json_array();
        for (int k = 0; k < e->nsquares && k < 4; k++)
          json_array_append_new(s, json_string(e->squares[k]));
        json_object_set_new(j, "squares", s);
      }
      if (e->move[0]) json_object_set_new(j, "move", json_string(e->move));
      if (e->intent[0]) json_object_set_new(j, "intent", json_string(e->intent));
      if (e->hands > 1) json_object_set_new(j, "hands", json_integer(e->hands));
      if (e->matter[0]) json_object_set_new(j, "matter", json_string(e->matter));
      json_array_append_new(a, j);
    }
    json_object_set_new(o, "events", a);
  }
  json_object_set_new(o, "question", json_string(it->question));
  if (it->kind == ARB_QUIZ_CHOICE || it->nchoices)
    json_object_set_new(o, "choices", strings(it->choices, it->nchoices));
  json_object_set_new(o, "answer", json_string(it->answer));
  json_object_set_new(o, "explanation", json_string(it->explanation));
  json_t *a = json_array();
  for (int i = 0; i < it->narticles; i++)
    json_array_append_new(a, json_string(it->articles[i]));
  json_object_set_new(o, "articles", a);
  a = json_array();
  for (int i = 0; i < it->nsquares; i++)
    json_array_append_new(a, json_string(it->squares[i]));
  json_object_set_new(o, "squares", a);
  a = json_array();
  for (int i = 0; i < it->narrows; i++)
    json_array_append_new(a, json_pack("[s,s]", it->arrows[i][0], it->arrows[i][1]));
  json_object_set_new(o, "arrows", a);
  if (it->source[0]) json_object_set_new(o, "source", json_string(it->source));
  return o;
}

/* ---- JSON to items ---- */

/* Copies o[key] (a string) into dst; 0, or -1 with why when it is not a string or too long.
 * A missing key gives "" (and -1 when required). */
static int get_str(json_t *o, const char *key, char *dst, size_t n, int required, char *why,
                   size_t wn) {
  json_t *v = json_object_get(o, key);
  dst[0] = 0;
  if (!v) {
    if (required) snprintf(why, wn, "\"%s\" is missing", key);
    return required ? -1 : 0;
  }
  if (!json_is_string(v)) return snprintf(why, wn, "\"%s\" is not a string", key), -1;
  if (json_string_length(v) >= n)
    return snprintf(why, wn, "\"%s\" is longer than %zu characters", key, n - 1), -1;
  memcpy(dst, json_string_value(v), json_string_length(v) + 1);
  return 0;
}

static int color_of(json_t *v, int8_t *out) {
  const char *s = json_string_value(v);
  if (!v || json_is_null(v)) return *out = -1, 0;
  if (s && !strcmp(s, "white")) return *out = ARB_WHITE, 0;
  if (s && !strcmp(s, "black")) return *out = ARB_BLACK, 0;
  return -1;
}

int arb_tool_quiz_item_read(json_t *o, arb_quiz_item *it, char *why, size_t wn) {
  memset(it, 0, sizeof *it);
  it->clock.flag = -1;
  if (!json_is_object(o)) return snprintf(why, wn, "not a JSON object"), -1;
  char topic[32], kind[16];
  if (get_str(o, "id", it->id, sizeof it->id, 1, why, wn) ||
      get_str(o, "topic", topic, sizeof topic, 1, why, wn) ||
      get_str(o, "template", it->template_name, sizeof it->template_name, 1, why, wn) ||
      get_str(o, "kind", kind, sizeof kind, 1, why, wn) ||
      get_str(o, "rules", it->rules, sizeof it->rules, 1, why, wn) ||
      get_str(o, "fen", it->fen, sizeof it->fen, 1, why, wn) ||
      get_str(o, "start_fen", it->start_fen, sizeof it->start_fen, 0, why, wn) ||
      get_str(o, "move", it->move, sizeof it->move, 0, why, wn) ||
      get_str(o, "question", it->question, sizeof it->question, 1, why, wn) ||
      get_str(o, "answer", it->answer, sizeof it->answer, 1, why, wn) ||
      get_str(o, "explanation", it->explanation, sizeof it->explanation, 1, why, wn) ||
      get_str(o, "source", it->source, sizeof it->source, 0, why, wn))
    return -1;
  if (arb_quiz_topic_parse(topic, &it->topic) != ARB_OK)
    return snprintf(why, wn, "unknown topic '%s'", topic), -1;
  if (strcmp(kind, "choice") && strcmp(kind, "move"))
    return snprintf(why, wn, "\"kind\" is '%s', not choice or move", kind), -1;
  it->kind = !strcmp(kind, "move") ? ARB_QUIZ_MOVE : ARB_QUIZ_CHOICE;
  json_t *d = json_object_get(o, "difficulty");
  if (!json_is_integer(d)) return snprintf(why, wn, "\"difficulty\" is not an integer"), -1;
  it->difficulty = (int)json_integer_value(d);
  json_t *m = json_object_get(o, "moves"), *v;
  size_t i;
  if (m && (!json_is_array(m) || json_array_size(m) > ARB_QUIZ_MAX_PLIES))
    return snprintf(why, wn, "\"moves\" is not an array of at most %d moves", ARB_QUIZ_MAX_PLIES),
           -1;
  json_array_foreach(m, i, v) {
    if (!json_is_string(v) || json_string_length(v) >= sizeof it->moves[0])
      return snprintf(why, wn, "moves[%zu] is not a UCI move", i), -1;
    memcpy(it->moves[it->nmoves++], json_string_value(v), json_string_length(v) + 1);
  }
  json_t *c = json_object_get(o, "clock");
  if (c) {
    json_t *w = json_object_get(c, "white_ms"), *b = json_object_get(c, "black_ms");
    if (!json_is_object(c) || !json_is_integer(w) || !json_is_integer(b) ||
        color_of(json_object_get(c, "flag"), &it->clock.flag))
      return snprintf(why, wn,
                      "\"clock\" needs white_ms, black_ms and a flag of white, black or null"),
             -1;
    it->clock.present = 1;
    it->clock.ms[0] = json_integer_value(w);
    it->clock.ms[1] = json_integer_value(b);
    it->clock.increment_ms = json_integer_value(json_object_get(c, "increment_ms"));
    it->clock.last_period = json_is_true(json_object_get(c, "last_period"));
  }
  json_t *ev = json_object_get(o, "events");
  if (ev && (!json_is_array(ev) || json_array_size(ev) > ARB_QUIZ_MAX_EVENTS))
    return snprintf(why, wn, "\"events\" is not an array of at most %d events",
                    ARB_QUIZ_MAX_EVENTS),
           -1;
  json_array_foreach(ev, i, v) {
    arb_quiz_event *e = &it->events[it->nevents++];
    char w[64];
    if (get_str(v, "type", e->type, sizeof e->type, 1, w, sizeof w) ||
        get_str(v, "move", e->move, sizeof e->move, 0, w, sizeof w) ||
        get_str(v, "intent", e->intent, sizeof e->intent, 0, w, sizeof w) ||
        get_str(v, "matter", e->matter, sizeof e->matter, 0, w, sizeof w) ||
        color_of(json_object_get(v, "by"), &e->by))
      return snprintf(why, wn, "events[%zu]: %s", i, w[0] ? w : "\"by\" is not white or black"), -1;
    json_t *s = json_object_get(v, "squares"), *q;
    size_t k;
    if (s && (!json_is_array(s) || json_array_size(s) > 4))
      return snprintf(why, wn, "events[%zu]: \"squares\" is not an array of at most 4", i), -1;
    json_array_foreach(s, k, q) {
      if (!json_is_string(q) || json_string_length(q) != 2)
        return snprintf(why, wn, "events[%zu]: squares[%zu] is not a square", i, k), -1;
      memcpy(e->squares[e->nsquares++], json_string_value(q), 3);
    }
    json_t *h = json_object_get(v, "hands");
    e->hands = json_is_integer(h) ? (uint8_t)json_integer_value(h) : 1;
  }
  json_t *ch = json_object_get(o, "choices");
  if (ch && (!json_is_array(ch) || json_array_size(ch) > ARB_QUIZ_MAX_CHOICES))
    return snprintf(why, wn, "\"choices\" is not an array of at most %d", ARB_QUIZ_MAX_CHOICES), -1;
  json_array_foreach(ch, i, v) {
    if (!json_is_string(v) || json_string_length(v) >= ARB_QUIZ_TEXT)
      return snprintf(why, wn, "choices[%zu] is not a string of less than %d", i, ARB_QUIZ_TEXT),
             -1;
    memcpy(it->choices[it->nchoices++], json_string_value(v), json_string_length(v) + 1);
  }
  json_t *ar = json_object_get(o, "articles");
  if (!json_is_array(ar) || json_array_size(ar) > ARB_QUIZ_MAX_ARTICLES)
    return snprintf(why, wn, "\"articles\" is not an array of at most %d", ARB_QUIZ_MAX_ARTICLES),
           -1;
  json_array_foreach(ar, i, v) {
    if (!json_is_string(v) || json_string_length(v) >= sizeof it->articles[0])
      return snprintf(why, wn, "articles[%zu] is not an article", i), -1;
    memcpy(it->articles[it->narticles++], json_string_value(v), json_string_length(v) + 1);
  }
  return 0;
}
