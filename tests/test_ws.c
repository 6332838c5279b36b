/* Arbiter — MIT licence, see LICENSE.
 *
 * test_ws.c: the WebSocket reader and writer (server/ws.c) against RFC 6455's own examples
 * (section 1.3's handshake key, section 5.7's frames), and each way a client's frames fail the
 * connection with the close code section 7.4.1 gives; SHA-1 against FIPS 180's examples;
 * UTF-8 against RFC 3629's rules.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "sha1.h"
#include "ws.h"

static srv_ws_reader R; /* 8 KB: not on the stack */

/* Feeds bytes step at a time; the events' kinds (and the last event) come back. */
static int feed(const uint8_t *data, size_t len, size_t step, srv_ws_event *last, char *text) {
  int events = 0;
  size_t at = 0;
  text[0] = 0;
  while (at < len) {
    size_t n = len - at < step ? len - at : step;
    while (n) {
      size_t used;
      srv_ws_event ev;
      srv_ws_feed(&R, data + at, n, &used, &ev);
      at += used, n -= used;
      if (ev.kind == SRV_WS_NONE) break;
      events++;
      *last = ev;
      if (ev.kind == SRV_WS_TEXT || ev.kind == SRV_WS_PING) {
        strncat(text, ev.data, ev.len);
        strcat(text, "|");
      }
      if (ev.kind == SRV_WS_FAIL || ev.kind == SRV_WS_CLOSE) return events;
      if (!used && !n) break;
    }
  }
  return events;
}

Test(ws, the_rfc_handshake_key) {
  char out[SRV_WS_ACCEPT_LEN + 1];
  cr_assert_eq(srv_ws_accept("dGhlIHNhbXBsZSBub25jZQ==", out), 0);
  cr_assert_str_eq(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  cr_assert_eq(srv_ws_accept("dGhlIHNhbXBsZSBub25jZQ=", out), -1, "15 bytes");
  cr_assert_eq(srv_ws_accept("dGhlIHNhbXBsZ*Bub25jZQ==", out), -1, "not base64");
}

Test(ws, sha1_of_fips_examples) {
  uint8_t h[20];
  srv_sha1("abc", 3, h);
  const uint8_t abc[20] = {0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
                           0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d};
  cr_assert_arr_eq(h, abc, 20);
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  srv_sha1(two, strlen(two), h);
  const uint8_t two_h[20] = {0x84, 0x98, 0x3e, 0x44, 0x1c, 0x3b, 0xd2, 0x6e, 0xba, 0xae,
                             0x4a, 0xa1, 0xf9, 0x51, 0x29, 0xe5, 0xe5, 0x46, 0x70, 0xf1};
  cr_assert_arr_eq(h, two_h, 20);
}

Test(ws, the_rfc_frames_at_every_cut) {
  /* 5.7: a masked "Hello"; a fragmented unmasked one is for clients only, so here masked;
   * a masked ping "Hello" */
  const uint8_t hello[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58};
  const uint8_t frag[] = {0x01, 0x83, 0, 0, 0, 0, 'H',     'e',    'l',
                          0x80, 0x82, 1, 2, 3, 4, 'l' ^ 1, 'o' ^ 2};
  const uint8_t ping[] = {0x89, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58};
  uint8_t all[sizeof hello + sizeof frag + sizeof ping];
  memcpy(all, hello, sizeof hello);
  memcpy(all + sizeof hello, frag, sizeof frag);
  memcpy(all + sizeof hello + sizeof frag, ping, sizeof ping);
  for (size_t step = 1; step <= sizeof all; step++) {
    srv_ws_init(&R);
    srv_ws_event last;
    char text[100];
    cr_assert_eq(feed(all, sizeof all, step, &last, text), 3, "step %zu", step);
    cr_assert_str_eq(text, "Hello|Hello|Hello|", "step %zu", step);
    cr_assert_eq(last.kind, SRV_WS_PING);
  }
}

Test(ws, a_256_byte_message_uses_the_16_bit_length) {
  uint8_t f[4 + 4 + 256];
  f[0] = 0x81, f[1] = 0xfe, f[2] = 1, f[3] = 0, f[4] = f[5] = f[6] = f[7] = 0;
  memset(f + 8, 'a', 256);
  srv_ws_init(&R);
  srv_ws_event ev;
  char text[400];
  cr_assert_eq(feed(f, sizeof f, 1000, &ev, text), 1);
  cr_assert_eq(ev.len, 256);
  uint8_t h[10];
  cr_assert_eq(srv_ws_header(h, SRV_WS_OP_TEXT, 256), 4);
  cr_assert_eq(h[1], 126);
  cr_assert_eq(srv_ws_header(h, SRV_WS_OP_TEXT, 70000), 10);
  cr_assert_eq(srv_ws_header(h, SRV_WS_OP_TEXT, 5), 2);
  cr_assert_eq(h[0], 0x81);
  cr_assert_eq(h[1], 5);
}

static int fails_with(const uint8_t *f, size_t n) {
  srv_ws_init(&R);
  srv_ws_event ev;
  char text[9000];
  feed(f, n, 1, &ev, text);
  return ev.kind == SRV_WS_FAIL ? ev.code : 0;
}

Test(ws, bad_frames_fail_with_their_code) {
  const uint8_t unmasked[] = {0x81, 0x02, '{', '}'};
  cr_assert_eq(fails_with(unmasked, sizeof unmasked), 1002,
               "5.1: a server closes on an unmasked frame");
  const uint8_t rsv[] = {0xc1, 0x80, 0, 0, 0, 0};
  cr_assert_eq(fails_with(rsv, sizeof rsv), 1002);
  const uint8_t op[] = {0x83, 0x80, 0, 0, 0, 0};
  cr_assert_eq(fails_with(op, sizeof op), 1002);
  const uint8_t cont[] = {0x80, 0x80, 0, 0, 0, 0};
  cr_assert_eq(fails_with(cont, sizeof cont), 1002);
  const uint8_t binary[] = {0x82, 0x80, 0, 0, 0, 0};
  cr_assert_eq(fails_with(binary, sizeof binary), 1003);
  const uint8_t big[] = {0x81, 0xff, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0};
  cr_assert_eq(fails_with(big, sizeof big), 1009, "a claimed 100 MB");
  const uint8_t huge[] = {0x81, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  cr_assert_eq(fails_with(huge, sizeof huge), 1002, "the top bit of a 64-bit length");
  const uint8_t frag_ping[] = {0x09, 0x80, 0, 0, 0, 0};
  cr_assert_eq(fails_with(frag_ping, sizeof frag_ping), 1002);
  uint8_t long_ping[2 + 4 + 126] = {0x89, 0xfe, 0, 126};
  cr_assert_eq(fails_with(long_ping, sizeof long_ping), 1002);
  const uint8_t latin1[] = {0x81, 0x82, 0, 0, 0, 0, 0xc3, 0x28};
  cr_assert_eq(fails_with(latin1, sizeof latin1), 1007);
  const uint8_t one_byte_close[] = {0x88, 0x81, 0, 0, 0, 0, 3};
  cr_assert_eq(fails_with(one_byte_close, sizeof one_byte_close), 1002);
  const uint8_t bad_code[] = {0x88, 0x82, 0, 0, 0, 0, 0x03, 0xed}; /* 1005 may not be sent */
  cr_assert_eq(fails_with(bad_code, sizeof bad_code), 1002);
  const uint8_t new_in_old[] = {0x01, 0x81, 0, 0, 0, 0, 'a', 0x81, 0x81, 0, 0, 0, 0, 'b'};
  cr_assert_eq(fails_with(new_in_old, sizeof new_in_old), 1002);
  /* fragments adding up to more than 8 KB */
  static uint8_t frags[2 * (8 + 5000)];
  for (int k = 0; k < 2; k++) {
    uint8_t *f = frags + k * (8 + 5000);
    f[0] = k ? 0x80 : 0x01, f[1] = 0xfe, f[2] = 5000 >> 8, f[3] = 5000 & 255;
    memset(f + 4, 0, 4);
    memset(f + 8, 'a', 5000);
  }
  cr_assert_eq(fails_with(frags, sizeof frags), 1009);
}

Test(ws, a_close_is_read_with_its_code_and_reason) {
  const uint8_t close[] = {0x88, 0x84, 0, 0, 0, 0, 0x03, 0xe8, 'o', 'k'};
  srv_ws_init(&R);
  srv_ws_event ev;
  char text[10];
  feed(close, sizeof close, 1, &ev, text);
  cr_assert_eq(ev.kind, SRV_WS_CLOSE);
  cr_assert_eq(ev.code, 1000);
  cr_assert_eq(ev.len, 2);
  uint8_t out[127];
  size_t n = srv_ws_close_frame(out, 1008, "too many messages");
  cr_assert_eq(n, 4 + 17);
  cr_assert_eq(out[0], 0x88);
  cr_assert_eq(out[2] << 8 | out[3], 1008);
}

Test(ws, utf8_by_rfc_3629) {
  cr_assert(arb_utf8_valid("", 0));
  cr_assert(arb_utf8_valid("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80", 15));
  cr_assert_not(arb_utf8_valid("\xc0\xaf", 2), "overlong");
  cr_assert_not(arb_utf8_valid("\xed\xa0\x80", 3), "a surrogate");
  cr_assert_not(arb_utf8_valid("\xf4\x90\x80\x80", 4), "past U+10FFFF");
  cr_assert_not(arb_utf8_valid("\xe2\x82", 2), "cut short");
  cr_assert_not(arb_utf8_valid("\x80", 1), "a lone continuation");
  cr_assert_not(arb_utf8_valid("\xff", 1));
}
