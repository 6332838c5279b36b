/* Arbiter — MIT licence, see LICENSE.
 *
 * http.c: the HTTP/1.1 request parser (http.h).  The head (request line and header fields) is
 * gathered whole, up to SRV_HTTP_MAX_HEAD bytes, and then read; the body follows by
 * Content-Length or chunked coding.  What could let two readers of one stream disagree about
 * where a request ends (RFC 9112 section 11.2: both Content-Length and Transfer-Encoding, two
 * different lengths, a coding other than chunked, obsolete line folding, white space before a
 * field's colon) is refused.
 */
#include "http.h"

#include <string.h>

enum {
  ST_HEAD,
  ST_BODY,
  ST_CHUNK_SIZE,
  ST_CHUNK_DATA,
  ST_CHUNK_CRLF,
  ST_TRAILER,
  ST_DONE,
  ST_ERROR
};

const char *srv_http_reason(int status) {
  switch (status) {
  case 101: return "Switching Protocols";
  case 200: return "OK";
  case 201: return "Created";
  case 204: return "No Content";
  case 304: return "Not Modified";
  case 400: return "Bad Request";
  case 403: return "Forbidden";
  case 404: return "Not Found";
  case 405: return "Method Not Allowed";
  case 408: return "Request Timeout";
  case 411: return "Length Required";
  case 413: return "Content Too Large";
  case 414: return "URI Too Long";
  case 426: return "Upgrade Required";
  case 429: return "Too Many Requests";
  case 431: return "Request Header Fields Too Large";
  case 500: return "Internal Server Error";
  case 501: return "Not Implemented";
  case 503: return "Service Unavailable";
  case 505: return "HTTP Version Not Supported";
  default: return "";
  }
}

void srv_http_init(srv_http_parser *p) {
  p->state = ST_HEAD;
  p->head_len = 0;
  p->body_left = 0;
  p->chunk_line_len = 0;
  p->status = 0;
  p->error = NULL;
  memset(&p->req, 0, offsetof(srv_http_request, body));
  p->req.content_length = -1;
  p->req.body[0] = 0;
  p->req.body_len = 0;
}

void srv_http_next(srv_http_parser *p) { srv_http_init(p); }

int srv_http_started(const srv_http_parser *p) { return p->state != ST_HEAD || p->head_len > 0; }

static srv_http_result fail(srv_http_parser *p, int status, const char *why) {
  p->state = ST_ERROR;
  p->status = status;
  p->error = why;
  return SRV_HTTP_ERROR;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int tchar(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* a == b (b lower case), case-insensitively, a of length n */
static int iequal(const char *a, size_t n, const char *b) {
  if (strlen(b) != n) return 0;
  for (size_t i = 0; i < n; i++)
    if (lower((unsigned char)a[i]) != b[i]) return 0;
  return 1;
}

/* Does the comma-separated list v (length n) hold token tok (lower case)? */
static int has_token(const char *v, size_t n, const char *tok) {
  size_t i = 0;
  while (i < n) {
    while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
      i++;
    size_t s = i;
    while (i < n && v[i] != ',')
      i++;
    size_t e = i;
    while (e > s && (v[e - 1] == ' ' || v[e - 1] == '\t'))
      e--;
    if (e > s && iequal(v + s, e - s, tok)) return 1;
  }
  return 0;
}

static void copy_value(char *out, size_t size, const char *v, size_t n) {
  if (n >= size) n = size - 1;
  memcpy(out, v, n);
  out[n] = 0;
}

/* Reads the head in p->head[0..len): the request line, then the fields. */
static srv_http_result read_head(srv_http_parser *p, size_t len) {
  srv_http_request *r = &p->req;
  const char *h = p->head, *end = h + len;
  /* the request line */
  const char *eol = memchr(h, '\n', len);
  if (!eol) return fail(p, 400, "no request line");
  const char *line_end = eol > h && eol[-1] == '\r' ? eol - 1 : eol;
  const char *sp1 = memchr(h, ' ', (size_t)(line_end - h));
  if (!sp1 || sp1 == h) return fail(p, 400, "the request line is not METHOD TARGET HTTP/1.1");
  size_t mlen = (size_t)(sp1 - h);
  for (size_t i = 0; i < mlen; i++)
    if (!tchar((unsigned char)h[i])) return fail(p, 400, "the method is not a token");
  if (mlen >= sizeof r->method_text) return fail(p, 501, "no such method");
  memcpy(r->method_text, h, mlen);
  r->method_text[mlen] = 0;
  r->method = !strcmp(r->method_text, "GET")       ? SRV_HTTP_GET
              : !strcmp(r->method_text, "HEAD")    ? SRV_HTTP_HEAD
              : !strcmp(r->method_text, "POST")    ? SRV_HTTP_POST
              : !strcmp(r->method_text, "OPTIONS") ? SRV_HTTP_OPTIONS
                                                   : SRV_HTTP_OTHER;
  const char *target = sp1 + 1;
  const char *sp2 = memchr(target, ' ', (size_t)(line_end - target));
  if (!sp2 || sp2 == target) return fail(p, 400, "the request line is not METHOD TARGET HTTP/1.1");
  size_t tlen = (size_t)(sp2 - target);
  if (tlen > SRV_HTTP_MAX_TARGET) return fail(p, 414, "the target is too long");
  for (size_t i = 0; i < tlen; i++)
    if ((unsigned char)target[i] <= ' ' || (unsigned char)target[i] >= 0x7f)
      return fail(p, 400, "the target holds a byte that is not printable ASCII");
  const char *version = sp2 + 1;
  size_t vlen = (size_t)(line_end - version);
  if (vlen != 8 || memcmp(version, "HTTP/", 5) || version[6] != '.' || version[5] < '0' ||
      version[5] > '9' || version[7] < '0' || version[7] > '9')
    return fail(p, 400, "the request line does not end in HTTP/1.1");
  if (version[5] != '1') return fail(p, 505, "only HTTP/1.0 and HTTP/1.1 are spoken here");
  /* a later minor version is read as 1.1, the highest spoken here (RFC 9110 2.5) */
  r->minor = version[7] > '1' ? 1 : version[7] - '0';
  /* the origin form /path?query; the absolute form (http://host/path) is read as its path;
   * anything else (CONNECT's authority form, OPTIONS *) is kept as it is */
  const char *t = target, *tend = target + tlen;
  if (tlen > 7 && (iequal(t, 7, "http://") || (tlen > 8 && iequal(t, 8, "https://")))) {
    const char *slash = memchr(t + 8, '/', (size_t)(tend - (t + 8)));
    t = slash ? slash : tend;
  }
  if (r->method != SRV_HTTP_OTHER && r->method != SRV_HTTP_OPTIONS && (t == tend || *t != '/') &&
      t != tend)
    return fail(p, 400, "the target is not a path (/...) nor an absolute URL");
  const char *q = memchr(t, '?', (size_t)(tend - t));
  copy_value(r->path, sizeof r->path, t, (size_t)((q ? q : tend) - t));
  if (!r->path[0]) strcpy(r->path, "/");
  if (q) copy_value(r->query, sizeof r->query, q + 1, (size_t)(tend - q - 1));
  /* the fields */
  int hosts = 0, connection_close = 0, connection_keep = 0, connection_upgrade = 0, upgrade_ws = 0;
  const char *s = eol + 1;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    if (!nl) nl = end;
    const char *le = nl > s && nl[-1] == '\r' ? nl - 1 : nl;
    if (le == s) break; /* the blank line */
    if (*s == ' ' || *s == '\t') return fail(p, 400, "obsolete line folding in a header field");
    const char *colon = memchr(s, ':', (size_t)(le - s));
    if (!colon || colon == s) return fail(p, 400, "a header field without a name");
    for (const char *c = s; c < colon; c++)
      if (!tchar((unsigned char)*c)) return fail(p, 400, "a header field name is not a token");
    const char *v = colon + 1, *ve = le;
    while (v < ve && (*v == ' ' || *v == '\t'))
      v++;
    while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
      ve--;
    for (const char *c = v; c < ve; c++)
      if (*c == 0 || *c == '\r') return fail(p, 400, "a control character in a header field");
    size_t nlen = (size_t)(colon - s), vl = (size_t)(ve - v);
    if (iequal(s, nlen, "host")) {
      if (++hosts > 1) return fail(p, 400, "two Host fields");
      copy_value(r->host, sizeof r->host, v, vl);
    } else if (iequal(s, nlen, "content-length")) {
      if (!vl) return fail(p, 400, "an empty Content-Length");
      int64_t n = 0;
      for (size_t i = 0; i < vl; i++) {
        if (v[i] < '0' || v[i] > '9') return fail(p, 400, "Content-Length is not a number");
        if (n > (int64_t)1 << 40) return fail(p, 413, "the body is too big");
        n = n * 10 + (v[i] - '0');
      }
      if (r->content_length >= 0 && r->content_length != n)
        return fail(p, 400, "two different Content-Length fields");
      r->content_length = n;
    } else if (iequal(s, nlen, "transfer-encoding")) {
      if (!iequal(v, vl, "chunked"))
        return fail(p, 501, "the only transfer coding spoken here is chunked");
      r->chunked = 1;
    } else if (iequal(s, nlen, "connection")) {
      connection_close |= has_token(v, vl, "close");
      connection_keep |= has_token(v, vl, "keep-alive");
      connection_upgrade |= has_token(v, vl, "upgrade");
    } else if (iequal(s, nlen, "upgrade")) {
      upgrade_ws |= has_token(v, vl, "websocket");
    } else if (iequal(s, nlen, "sec-websocket-key")) {
      copy_value(r->ws_key, sizeof r->ws_key, v, vl);
    } else if (iequal(s, nlen, "sec-websocket-version")) {
      r->ws_version = 0;
      for (size_t i = 0; i < vl && i < 4; i++)
        r->ws_version = v[i] >= '0' && v[i] <= '9' ? r->ws_version * 10 + (v[i] - '0') : -1;
    } else if (iequal(s, nlen, "origin")) {
      copy_value(r->origin, sizeof r->origin, v, vl);
    } else if (iequal(s, nlen, "sec-fetch-site")) {
      copy_value(r->fetch_site, sizeof r->fetch_site, v, vl);
    } else if (iequal(s, nlen, "x-forwarded-for")) {
      copy_value(r->forwarded_for, sizeof r->forwarded_for, v, vl);
    } else if (iequal(s, nlen, "x-learner")) {
      copy_value(r->learner, sizeof r->learner, v, vl);
    } else if (iequal(s, nlen, "if-modified-since")) {
      copy_value(r->if_modified_since, sizeof r->if_modified_since, v, vl);
    }
    s = nl + 1;
  }
  if (r->chunked && r->content_length >= 0)
    return fail(p, 400, "both Content-Length and Transfer-Encoding");
  if (r->minor == 1 && hosts == 0) return fail(p, 400, "an HTTP/1.1 request without Host");
  if (r->content_length > SRV_HTTP_MAX_BODY) return fail(p, 413, "the body is too big");
  r->keep_alive = r->minor == 1 ? !connection_close : connection_keep && !connection_close;
  r->upgrade = upgrade_ws && connection_upgrade;
  return SRV_HTTP_MORE;
}

static int hexval(int c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* A chunk-size line (without its line end): hex digits, then perhaps ";extensions". */
static srv_http_result chunk_size(srv_http_parser *p) {
  const char *l = p->chunk_line;
  size_t n = p->chunk_line_len;
  if (n && l[n - 1] == '\r') n--;
  int64_t size = 0;
  size_t i = 0;
  for (; i < n && hexval((unsigned char)l[i]) >= 0; i++) {
    if (size > SRV_HTTP_MAX_BODY) return fail(p, 413, "the body is too big");
    size = size * 16 + hexval((unsigned char)l[i]);
  }
  if (!i) return fail(p, 400, "a chunk size that is not a hexadecimal number");
  while (i < n && (l[i] == ' ' || l[i] == '\t'))
    i++;
  if (i < n && l[i] != ';') return fail(p, 400, "a chunk size that is not a hexadecimal number");
  if ((int64_t)p->req.body_len + size > SRV_HTTP_MAX_BODY)
    return fail(p, 413, "the body is too big");
  p->body_left = size;
  p->state = size ? ST_CHUNK_DATA : ST_TRAILER;
  p->chunk_line_len = 0;
  return SRV_HTTP_MORE;
}

static srv_http_result done(srv_http_parser *p) {
  p->state = ST_DONE;
  p->req.body[p->req.body_len] = 0;
  return SRV_HTTP_DONE;
}

srv_http_result srv_http_feed(srv_http_parser *p, const char *data, size_t len, size_t *used) {
  size_t i = 0;
  srv_http_result rc = SRV_HTTP_MORE;
  *used = 0;
  if (p->state == ST_ERROR) return SRV_HTTP_ERROR;
  if (p->state == ST_DONE) return SRV_HTTP_DONE;
  while (i < len) {
    switch (p->state) {
    case ST_HEAD: {
      char c = data[i++];
      if (!p->head_len && (c == '\r' || c == '\n')) break; /* blank lines before a request */
      if (p->head_len == sizeof p->head) {
        *used = i;
        return fail(p, 431, "the request's header fields are over 8 KB");
      }
      p->head[p->head_len++] = c;
      if (c != '\n') break;
      /* the head ends at an empty line: "\n\n" or "\n\r\n" */
      size_t n = p->head_len;
      int end = (n >= 2 && p->head[n - 2] == '\n') ||
                (n >= 3 && p->head[n - 2] == '\r' && p->head[n - 3] == '\n');
      if (!end) break;
      if ((rc = read_head(p, p->head_len)) == SRV_HTTP_ERROR) {
        *used = i;
        return rc;
      }
      if (p->req.chunked) {
        p->state = ST_CHUNK_SIZE;
      } else if (p->req.content_length > 0) {
        p->state = ST_BODY;
        p->body_left = p->req.content_length;
      } else {
        *used = i;
        return done(p);
      }
      break;
    }
    case ST_BODY:
    case ST_CHUNK_DATA: {
      size_t n = len - i;
      if ((int64_t)n > p->body_left) n = (size_t)p->body_left;
      memcpy(p->req.body + p->req.body_len, data + i, n);
      p->req.body_len += n;
      p->body_left -= (int64_t)n;
      i += n;
      if (p->body_left) break;
      if (p->state == ST_BODY) {
        *used = i;
        return done(p);
      }
      p->state = ST_CHUNK_CRLF;
      p->chunk_line_len = 0;
      break;
    }
    case ST_CHUNK_CRLF: {
      char c = data[i++];
      if (c == '\r' && !p->chunk_line_len) {
        p->chunk_line_len = 1;
      } else if (c == '\n') {
        p->state = ST_CHUNK_SIZE;
        p->chunk_line_len = 0;
      } else {
        *used = i;
        return fail(p, 400, "a chunk's data does not end where its size says");
      }
      break;
    }
    case ST_CHUNK_SIZE:
    case ST_TRAILER: {
      char c = data[i++];
      if (c != '\n') {
        if (p->chunk_line_len == sizeof p->chunk_line) {
          if (p->state == ST_CHUNK_SIZE) {
            *used = i;
            return fail(p, 400, "a chunk-size line is too long");
          }
          /* a long trailer field: skipped, but its bytes count against the head's bound */
          if ((p->head_len += 1) > sizeof p->head) {
            *used = i;
            return fail(p, 431, "the request's trailer fields are over 8 KB");
          }
          break;
        }
        p->chunk_line[p->chunk_line_len++] = c;
        break;
      }
      if (p->state == ST_CHUNK_SIZE) {
        if ((rc = chunk_size(p)) == SRV_HTTP_ERROR) {
          *used = i;
          return rc;
        }
        break;
      }
      /* a trailer line: an empty one ends the request; others are ignored (bounded) */
      size_t n = p->chunk_line_len;
      if (n && p->chunk_line[n - 1] == '\r') n--;
      p->chunk_line_len = 0;
      if (!n) {
        *used = i;
        return done(p);
      }
      if ((p->head_len += n) > sizeof p->head) {
        *used = i;
        return fail(p, 431, "the request's trailer fields are over 8 KB");
      }
      break;
    }
    default: *used = i; return SRV_HTTP_ERROR;
    }
  }
  *used = i;
  return SRV_HTTP_MORE;
}
