#!/usr/bin/env bash
# Fuzzes every decoder with libFuzzer through the function a job decodes with (docs/fuzzing.md).
# Builds Sources/darkroom-fuzz with -sanitize=fuzzer,address in .build-fuzz, then runs it once per
# format for FUZZ_SECONDS, its corpus seeded with the test fixtures in a temporary folder (never
# committed). A crash, a hang (> 10 s), a leak or running out of memory fails the run; the input
# that did it is kept in .build-fuzz/artifacts/.
#   FUZZ_SECONDS   seconds per format (default 30)
#   FUZZ_FORMATS   formats to fuzz (default: every format darkroom reads; names as ImageFormat's)
#   FUZZ_RSS_MB    memory ceiling per run (default 2048)
#   FUZZ_CORPUS    keep the corpora in this folder (one subfolder per format) instead of a temporary one
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-30}
# A decoder added to ImageFormat is fuzzed once its name is here; its fixtures seed it unchanged.
FORMATS=${FUZZ_FORMATS:-png jpeg tiff webp heif avif gif jxl raw pdf svg}
RSS_MB=${FUZZ_RSS_MB:-2048}
BUILD=.build-fuzz
FIXTURES=Tests/DarkroomCodecsTests/Fixtures

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# ASan's stack traces and leak checks; a debug build (SwiftPM then makes the harness's main the
# entry) optimised as a release's is (-O, C at -O1): unoptimised, the Swift rows and colour passes
# made a valid 16-megapixel GIF take 8 s of one decode, near the 10 s hang limit.
if ! DARKROOM_FUZZ=1 "$SWIFT" build --build-path "$BUILD" --product darkroom-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -O -Xcc -fsanitize=fuzzer-no-link,address -Xcc -O1 >"$work/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$work/build.log" >&2
    exit 1
fi
tail -n 1 "$work/build.log"
binary="$BUILD/debug/darkroom-fuzz"
mkdir -p "$BUILD/artifacts"
failed=()
for format in $FORMATS; do
    corpus="${FUZZ_CORPUS:-$work}/$format"
    mkdir -p "$corpus"
    # Every fixture: the harness rejects (-1) those of other formats, so only this format's stay.
    find "$FIXTURES" -maxdepth 1 -type f ! -name '*.py' ! -name '*.sh' ! -name '*.md' -exec cp -n {} "$corpus/" \;
    log="$work/$format.log"
    echo "fuzz: $format for ${SECONDS_EACH}s"
    if DARKROOM_FUZZ_FORMAT=$format ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=scripts/fuzz-lsan.supp "$binary" "$corpus" \
        -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb="$RSS_MB" -print_final_stats=1 \
        -artifact_prefix="$BUILD/artifacts/$format-" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz: $format: $runs executions, no failure"
    else
        echo "fuzz: $format FAILED; the input is in $BUILD/artifacts/$format-*:" >&2
        grep -E "ERROR|SUMMARY|Test unit written|#[0-9]+ +in " "$log" | head -30 >&2
        failed+=("$format")
    fi
done
if (( ${#failed[@]} )); then
    echo "fuzz: failures in ${failed[*]}; keep each input as a test in Tests/DarkroomCodecsTests/FuzzRegressionTests.swift" >&2
    exit 1
fi
