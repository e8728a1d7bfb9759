# Thin wrapper: every target installs what is missing, configures and builds.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)

VENV ?= build-python/venv

SANITIZE_DIR ?= build-sanitize
# -O1 and line tables: what ASan recommends, symbolized reports with line
# numbers, and a build 40 % faster than -O2 -g (CI builds it from nothing).
SANITIZE_FLAGS ?= -O1 -gline-tables-only -DNDEBUG
FUZZ_SECONDS ?= 30
SANITIZE_SEEDS ?= 120
# Tests the sanitizer run leaves out: the rtlib's bitcode and ptxas's verdict
# on the PTX are the release build's business, the differential seeds run
# below (SANITIZE_SEEDS), and the others repeat paths smaller tests take,
# only at a volume (100,000 bindings, millions of rows, 300 seeds, a sweep of
# 108 PTX kernels, the GPU tests again as on a real driver) that ASan
# makes cost minutes; `make test` runs them all.
SANITIZE_SKIP ?= rtlib_bitcode_check|gpu_tests_as_a_real_driver|Ptx.DifferentialProgramsAssembleWithoutSpills|Ptx.WideArithmeticCompilesForEveryInputRange|Seeds/Differential.EnginesAgree/[0-9]+|difftest_stale_step_search|ProgramScale.HundredThousandBindingsCompileAndPull|ProgramScale.EveryOutputOfALongChainCanBePulled|GpuCli.EveryExampleWritesTheCpuBytesUpToTheLastCoordinate|GpuCli.AStickyFaultEndsTheDeviceNotTheJob|Vectors.ChunksTooLargeForMemoryAreRefusedNotInternalErrors|CliHostile.ASampledRangeIsNeverListed

PREFIX ?= /usr/local
DIST_DIR ?= build-dist

.PHONY: setup venv configure build run test python sanitize bench format clean install dist

setup:
	@bash scripts/setup.sh

# The virtual environment's pyarrow: the Arrow module links its C++ libraries.
venv: setup
	@VENV=$(VENV) bash scripts/setup_venv.sh

configure: venv
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DPOLYRT_PYARROW_DIR="$$($(VENV)/bin/python -c 'import pyarrow; print(pyarrow.get_library_dirs()[0])')" \
	  -DPOLYRT_LIZARD="$(CURDIR)/$(VENV)/bin/lizard" \
	  >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/cli/polyrt run examples/users.polydat --cycles 0..20 --format csv

test: build python
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)
	POLYRT_BUILD_DIR=$(CURDIR)/$(BUILD_DIR) $(VENV)/bin/python -m pytest -q python/tests

# The Python package installed into the virtual environment VENV.
python: setup
	@VENV=$(VENV) bash scripts/setup_python.sh

# ASan + UBSan (clang-19): the unit tests but SANITIZE_SKIP, SANITIZE_SEEDS
# differential seeds (in two processes at once: the soak driver runs one
# program at a time), and the front end's fuzzer for FUZZ_SECONDS over a
# corpus of the examples.
sanitize: setup
	@cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(SANITIZE_FLAGS)" \
	  -DCMAKE_CXX_COMPILER=clang++-19 -DPOLYRT_SANITIZE=ON >/dev/null
	@cmake --build $(SANITIZE_DIR) -j $(JOBS) --target polyrt polyrt_tests polyrt_difftest \
	  polyrt_fuzz_front_end
	cd $(SANITIZE_DIR) && ctest --output-on-failure -j $(JOBS) -E '^($(SANITIZE_SKIP))$$'
	POLYRT_LIBCUDA=$(SANITIZE_DIR)/cuda_double/libcuda.so.1 sh -c \
	  'half=$$(($(SANITIZE_SEEDS) / 2)); \
	   $(SANITIZE_DIR)/tests/polyrt_difftest --seeds $$half --seed 1 & first=$$!; \
	   $(SANITIZE_DIR)/tests/polyrt_difftest --seeds $$(($(SANITIZE_SEEDS) - half)) \
	     --seed $$((half + 1)); rest=$$?; wait $$first && exit $$rest'
	@rm -rf $(SANITIZE_DIR)/fuzz-corpus && mkdir -p $(SANITIZE_DIR)/fuzz-corpus
	@cp examples/*.polydat $(SANITIZE_DIR)/fuzz-corpus/
	$(SANITIZE_DIR)/tests/polyrt_fuzz_front_end -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -rss_limit_mb=4096 -print_final_stats=1 $(SANITIZE_DIR)/fuzz-corpus

bench: build
	$(BUILD_DIR)/bench/polyrt_bench

format:
	@git ls-files '*.cpp' '*.hpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) build-python

# The command, headers, libraries, CMake package, polyrt.pc and bash
# completion under PREFIX (default /usr/local).
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# A self-contained polyrt command (LLVM linked statically) in
# polyrt-VERSION-linux-ARCH.tar.gz with its license, README, completion and
# the list of what it still needs from the system.
dist: setup
	@bash scripts/make_dist.sh $(DIST_DIR)
