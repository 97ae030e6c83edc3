/* text-builder in C: a document of many small pieces appended to a growable buffer.
 * usage: text_builder LINES ROUNDS (the Cairn twin is text_builder.cairn; same output). Each
 * round builds a document of LINES lines "<word>=<number>;\n", appending the four pieces of a
 * line one by one, then prints nothing but adds the document's length and a hash of every 16th
 * byte to the checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buffer {
  char *bytes;
  size_t len, cap;
} buffer;

static void append(buffer *b, const char *s, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap * 2 + 16;
    while (cap < b->len + n) cap *= 2;
    b->bytes = realloc(b->bytes, cap);
    if (b->bytes == NULL) abort();
    b->cap = cap;
  }
  memcpy(b->bytes + b->len, s, n);
  b->len += n;
}

static void append_text(buffer *b, const char *s) { append(b, s, strlen(s)); }

static void append_int(buffer *b, long v) {
  char digits[24];
  int n = snprintf(digits, sizeof digits, "%ld", v);
  append(b, digits, (size_t)n);
}

static const char *const words[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"};

int main(int argc, char **argv) {
  long lines = argc > 1 ? atol(argv[1]) : 1000;
  long rounds = argc > 2 ? atol(argv[2]) : 1;
  long total_len = 0, hash = 0;
  for (long r = 0; r < rounds; r++) {
    buffer b = {NULL, 0, 0};
    for (long i = 0; i < lines; i++) {
      append_text(&b, words[(i + r) % 7]);
      append_text(&b, "=");
      append_int(&b, i * r);
      append_text(&b, ";\n");
    }
    total_len += (long)b.len;
    for (size_t i = 0; i < b.len; i += 16)
      hash = (hash * 31 + (unsigned char)b.bytes[i]) % 1000000007;
    free(b.bytes);
  }
  printf("length %ld hash %ld\n", total_len, hash);
  return 0;
}
