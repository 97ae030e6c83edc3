// A second process for the lock tests: opens the store in argv[1]. On success prints "ready"
// and holds the store until its standard input closes; on failure prints the status message and
// exits with 3.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "cairn/store.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s STORE_DIR\n", argv[0]);
    return 2;
  }
  cairn::store::StoreOptions o;
  o.create_if_missing = true;
  std::unique_ptr<cairn::store::Store> store;
  cairn::Status s = cairn::store::Store::Open(argv[1], o, &store);
  if (!s.ok()) {
    std::printf("%s\n", s.ToString().c_str());
    return 3;
  }
  std::printf("ready %d\n", static_cast<int>(getpid()));
  std::fflush(stdout);
  char c;
  while (read(0, &c, 1) > 0) {
  }
  return 0;
}
