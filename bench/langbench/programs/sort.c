/* sort in C: quicksort (Hoare's partition around the middle element) of arrays of
 * pseudo-random ints. usage: sort COUNT ROUNDS (the Cairn twin is sort.cairn; same output). Each
 * round fills a fresh array of COUNT ints from a linear congruential generator, sorts it, checks
 * the order and adds every 1000th element to the checksum. */
#include <stdio.h>
#include <stdlib.h>

static void quicksort(long *a, long lo, long hi) {
  long i = lo, j = hi;
  long pivot = a[lo + (hi - lo) / 2];
  while (i <= j) {
    while (a[i] < pivot) i++;
    while (a[j] > pivot) j--;
    if (i <= j) {
      long t = a[i];
      a[i] = a[j];
      a[j] = t;
      i++;
      j--;
    }
  }
  if (lo < j) quicksort(a, lo, j);
  if (i < hi) quicksort(a, i, hi);
}

int main(int argc, char **argv) {
  long count = argc > 1 ? atol(argv[1]) : 1000;
  long rounds = argc > 2 ? atol(argv[2]) : 1;
  long checksum = 0;
  long seed = 42;
  for (long r = 0; r < rounds; r++) {
    long *a = malloc((size_t)count * sizeof *a);
    if (a == NULL) abort();
    for (long i = 0; i < count; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      a[i] = seed % 1000000;
    }
    quicksort(a, 0, count - 1);
    for (long i = 1; i < count; i++)
      if (a[i - 1] > a[i]) {
        printf("not sorted at %ld\n", i);
        return 1;
      }
    for (long i = 0; i < count; i += 1000) checksum += a[i];
    free(a);
  }
  printf("checksum %ld\n", checksum);
  return 0;
}
