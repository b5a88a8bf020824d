# The two commands a newcomer needs: `make run` and `make test`. Both install what is missing first.
BUILD ?= build
JOBS ?= 2

.PHONY: setup build run test bench clean

setup:
	@bash scripts/setup.sh --no-build

build: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j$(JOBS) -- --no-print-directory

# The main job: the whole suite (tasks/) written by the configured LLM (kgen.toml's default model) or, without one,
# by the tile-language expert library (kernels/), evaluated with one trial per case: the metrics table, then
# build/bench-out/report.html, results.json and results.db (a second run re-evaluates only what changed).
run: build
	@$(BUILD)/kgen bench --suite tasks --generator auto --trials 1 --jobs $(JOBS) --out $(BUILD)/bench-out

test: build
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

bench: build
	@bash bench/run.sh

clean:
	rm -rf $(BUILD)
