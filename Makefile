# The README's commands. Each installs what is missing (scripts/setup), configures and builds.
#   make run    the main job: build, then OO7's standard suite on the small database (made in
#               the default store, ./cairn.store, if it is not there), cold and hot: a table,
#               and JSON and a PNG chart in oo7/results/
#   make test   build, run every test with ctest, then the runtime's tests in the GC stress build
#               and under AddressSanitizer and UndefinedBehaviorSanitizer (test-stress, test-asan)
#   make bench  build, run every benchmark in build/bin (each ends with a RESULT line)
JOBS ?= 2
BUILD ?= build
STRESS_BUILD ?= build-stress
ASAN_BUILD ?= build-asan
CMAKE_FLAGS ?=

.PHONY: all setup configure build build-stress run test test-main test-stress test-asan bench format clean

all: build

setup:
	@./scripts/setup

# The main build also knows where the GC stress build's runtime libraries are, for the
# lang_stress.* tests (the language suite linked with the stress runtime).
configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCAIRN_STRESS_RUNTIME_DIR=$(CURDIR)/$(STRESS_BUILD)/lib $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@./$(BUILD)/bin/cairn-oo7 suite

test: build build-stress test-main test-stress test-asan

test-main: build build-stress
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The runtime's tests again, built in Debug (asserts, heap verified after every collection) with
# a collection before every allocation; with them the C programs compiled through the plugin.
# Its runtime libraries also serve the lang_stress tests.
build-stress: setup
	@cmake -S . -B $(STRESS_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCAIRN_GC_STRESS=ON \
	  -DCAIRN_RUNTIME_ONLY=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(STRESS_BUILD) -j $(JOBS)

test-stress: build-stress
	@ctest --test-dir $(STRESS_BUILD) --output-on-failure -j $(JOBS)

# The runtime's tests (a runtime-only build) under AddressSanitizer and UndefinedBehaviorSanitizer;
# any finding fails its test. ASan's fake stack frames are on, as clang has them by default, so
# the collector's scan of them is tested (docs/gc.md, Sanitizers).
test-asan: setup
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAIRN_RUNTIME_ONLY=ON \
	  -DCAIRN_SANITIZE=address,undefined $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	@ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

bench: build
	@./scripts/bench $(BUILD)/bin

# clang-format (.clang-format) over our C and C++ sources; needs Debian's clang-format-19.
format:
	@command -v clang-format-19 >/dev/null || { echo "format: apt-get install clang-format-19"; exit 1; }
	@git ls-files '*.cpp' '*.h' '*.hpp' '*.c' | grep -v -e '^tests/plugin/ir/' -e '^tests/plugin/fingerprint/' | \
	  xargs clang-format-19 -i

clean:
	rm -rf $(BUILD) $(STRESS_BUILD) $(ASAN_BUILD)
