# The two commands the README gives: `make demo` and `make test`.
SWIFT ?= swift
CONFIG ?= config.example.yaml

.PHONY: deps build demo test bench clean

deps:
	scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

## Build and run the daemon on the example config: drop photos into inbox/photos, see outbox/.
demo: build
	mkdir -p inbox/photos
	@echo "darkroom is watching ./inbox/photos — drop a PNG or JPEG there; outputs appear in ./outbox, reports in ./reports. Ctrl-C stops."
	.build/release/darkroom run --config $(CONFIG)

## Run the whole test suite.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing

## Compare darkroom with libvips, ImageMagick, GraphicsMagick and Pillow.
bench:
	scripts/install-deps.sh --bench
	$(SWIFT) build -c release
	Benchmarks/run.sh
	Benchmarks/daemon.sh
	Benchmarks/storm.sh

clean:
	rm -rf .build inbox outbox done failed reports
