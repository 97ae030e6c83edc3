/* walk in C: a singly linked list of items of three kinds, walked again and again; each visit
 * adds the item's weight (which depends on its kind) and bumps its value.
 * usage: walk ITEMS ROUNDS (the Cairn twin is walk.cairn, where the kinds are subclasses with
 * an overridden method; same output). */
#include <stdio.h>
#include <stdlib.h>

enum kind { PLAIN, SCALED, SHIFTED };

typedef struct item {
  enum kind kind;
  long value;
  struct item *next;
  long extra; /* SCALED: the factor; SHIFTED: the offset */
} item;

static long weight(const item *it) {
  switch (it->kind) {
    case SCALED:
      return it->value * it->extra;
    case SHIFTED:
      return it->value + it->extra;
    default:
      return it->value;
  }
}

static long walk(item *head) {
  long sum = 0;
  for (item *it = head; it != NULL; it = it->next) {
    sum += weight(it);
    it->value += 1;
  }
  return sum;
}

int main(int argc, char **argv) {
  long items = argc > 1 ? atol(argv[1]) : 1000;
  long rounds = argc > 2 ? atol(argv[2]) : 1;
  item *head = NULL;
  long seed = 7;
  for (long i = 0; i < items; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    item *it = malloc(sizeof *it);
    if (it == NULL) abort();
    it->kind = (enum kind)(seed % 3);
    it->value = seed % 100;
    it->next = head;
    it->extra = it->kind == SCALED ? seed % 7 + 1 : it->kind == SHIFTED ? seed % 50 : 0;
    head = it;
  }
  long checksum = 0;
  for (long r = 0; r < rounds; r++) checksum += walk(head);
  printf("checksum %ld\n", checksum);
  while (head != NULL) {
    item *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
