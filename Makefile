# The two commands a newcomer needs: `make run` and `make test`. Both install what is missing first.
BUILD ?= build
JOBS ?= 2

.PHONY: setup build run test bench clean

setup:
	@bash scripts/setup.sh --no-build

build: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

# The benchmark on the bundled suite (tasks/) with the bundled candidates (candidates/): build/bench-out/results.json,
# report.html and results.db (a second run re-evaluates only what changed).
run: build
	@$(BUILD)/kgen bench --suite tasks --candidates candidates --jobs $(JOBS) --out $(BUILD)/bench-out

test: build
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

bench: build
	@bash bench/run.sh

clean:
	rm -rf $(BUILD)
