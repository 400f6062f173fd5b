#!/usr/bin/env bash
# Mutation sweep: plants each bug listed in scripts/mutants.txt, one at a time, in a scratch copy
# of the tree (never in the checkout), builds, runs the test targets that mutant names, and
# records whether a test failed (killed), none did (survived) or the mutant did not compile
# (build-broken). Prints a table and the kill rate. Too slow for CI: run it by hand.
#
#   scripts/mutation-sweep.sh                  every mutant
#   scripts/mutation-sweep.sh core-hue-turn …  only these ids
#   scripts/mutation-sweep.sh --list           the ids, files and test targets, nothing run
#   scripts/mutation-sweep.sh --baseline …     first run each target unmutated (must pass)
#   scripts/mutation-sweep.sh --at REV …       sweep the tree of commit REV (e.g. the kill rate
#                                              before tests were added), with today's mutant list
#
# Environment: MUTATION_SCRATCH (default /tmp/darkroom-mutation) holds the copy and its build
# folder, reused between runs so that each mutant rebuilds only what it touched;
# MUTANT_TIMEOUT (seconds, default 900) counts a mutant whose tests hang as killed (timeout);
# MUTATION_RESULTS (default $MUTATION_SCRATCH/results.tsv) is where the table is written.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mutants="$root/scripts/mutants.txt"
scratch=${MUTATION_SCRATCH:-/tmp/darkroom-mutation}
src="$scratch/src"
timeout_s=${MUTANT_TIMEOUT:-900}
results=${MUTATION_RESULTS:-$scratch/results.tsv}

baseline=0 list=0 at=""
ids=()
while (($# > 0)); do
    arg=$1; shift
    case "$arg" in
        --at) at=${1:?--at needs a commit}; shift ;;
        --baseline) baseline=1 ;;
        --list) list=1 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) ids+=("$arg") ;;
    esac
done

# Parse the data file into parallel arrays: blocks of `key: value` lines, blank-line separated.
m_id=() m_file=() m_tests=() m_what=() m_find=() m_replace=()
flush() {
    if [[ -n "${cur_id:-}" ]]; then
        m_id+=("$cur_id"); m_file+=("$cur_file"); m_tests+=("$cur_tests")
        m_what+=("$cur_what"); m_find+=("$cur_find"); m_replace+=("$cur_replace")
    fi
    cur_id="" cur_file="" cur_tests="" cur_what="" cur_find="" cur_replace=""
}
flush
while IFS= read -r line || [[ -n "$line" ]]; do
    case "$line" in
        '#'*) ;;
        '') flush ;;
        'id: '*) cur_id=${line#id: } ;;
        'file: '*) cur_file=${line#file: } ;;
        'tests: '*) cur_tests=${line#tests: } ;;
        'what: '*) cur_what=${line#what: } ;;
        'find: '*) cur_find=${line#find: } ;;
        'replace: '*) cur_replace=${line#replace: } ;;
        'replace:') cur_replace="" ;;
        *) echo "mutants.txt: cannot read line: $line" >&2; exit 2 ;;
    esac
done < "$mutants"
flush

selected=()
for i in "${!m_id[@]}"; do
    if ((${#ids[@]} == 0)); then selected+=("$i"); continue; fi
    for want in "${ids[@]}"; do [[ "${m_id[$i]}" == "$want" ]] && selected+=("$i"); done
done
if ((${#selected[@]} == 0)); then echo "no mutant matches: ${ids[*]}" >&2; exit 2; fi

if ((list)); then
    for i in "${selected[@]}"; do printf '%-28s %-60s %s\n' "${m_id[$i]}" "${m_file[$i]}" "${m_tests[$i]}"; done
    exit 0
fi

# The test targets (or Target.Class) of a mutant as a --filter regex.
# XCTest names tests Target.Class/method.
filter_of() { local t; t=$(echo "$1" | sed 's/  */|/g'); echo "^($t)(\\.|/)"; }

# Copy the checkout (tracked and untracked, not ignored files), or commit `--at`, into the
# scratch folder, writing only files that differ so that their timestamps, and the incremental
# build, stay valid.
sync_tree() {
    mkdir -p "$src"
    local listed="$scratch/files.txt" from="$root"
    if [[ -n "$at" ]]; then
        from="$scratch/at"
        rm -rf "$from" && mkdir -p "$from"
        (cd "$root" && git archive "$at") | tar -x -C "$from"
        (cd "$from" && find . -type f | sed 's|^\./||') | sort > "$listed"
    else
        (cd "$root" && git ls-files -co --exclude-standard) | sort > "$listed"
    fi
    while IFS= read -r f; do
        [[ -f "$from/$f" ]] || continue
        if ! cmp -s "$from/$f" "$src/$f"; then
            mkdir -p "$(dirname "$src/$f")"
            cp "$from/$f" "$src/$f"
        fi
    done < "$listed"
    (cd "$src" && find Sources Tests scripts -type f | sort) | comm -23 - "$listed" | while IFS= read -r f; do
        rm -f "$src/$f"
    done
}

build() { (cd "$src" && swift build --build-tests) > "$1" 2>&1; }

# Runs the tests of `filter`; stops at the first failed test. Prints killed, survived or timeout.
run_tests() {
    local filter=$1 log=$2 pid started rc
    (cd "$src" && exec setsid swift test --skip-build --disable-swift-testing --filter "$filter") > "$log" 2>&1 &
    pid=$!
    started=$(date +%s)
    while kill -0 "$pid" 2>/dev/null; do
        if grep -qE "' failed \(|: error: -\[|Fatal error" "$log"; then
            kill -- -"$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
            echo killed; return
        fi
        if (($(date +%s) - started > timeout_s)); then
            kill -- -"$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
            echo timeout; return
        fi
        sleep 1
    done
    rc=0; wait "$pid" || rc=$?
    if ((rc != 0)); then echo killed
    elif grep -qE "Executed 0 tests" "$log"; then echo no-tests
    else echo survived
    fi
}

mkdir -p "$scratch/logs"
echo "syncing ${at:+commit $at of }$root into $src"
sync_tree
echo "building the unmutated tree"
if ! build "$scratch/logs/baseline-build.log"; then
    echo "the unmutated tree does not build: see $scratch/logs/baseline-build.log" >&2; exit 1
fi
if ((baseline)); then
    declare -A seen=()
    for i in "${selected[@]}"; do
        f=$(filter_of "${m_tests[$i]}")
        [[ -n "${seen[$f]:-}" ]] && continue
        seen[$f]=1
        r=$(run_tests "$f" "$scratch/logs/baseline-tests.log")
        echo "baseline $f: $r"
        if [[ "$r" != survived ]]; then echo "unmutated tests fail: see $scratch/logs/baseline-tests.log" >&2; exit 1; fi
    done
fi

: > "$results"
for i in "${selected[@]}"; do
    id=${m_id[$i]} file=${m_file[$i]}
    target="$src/$file"
    log="$scratch/logs/$id"
    count=0
    [[ -f "$target" ]] && count=$(FIND="${m_find[$i]}" python3 -c 'import os,sys; print(open(sys.argv[1], encoding="utf-8").read().count(os.environ["FIND"]))' "$target")
    if [[ "$count" != 1 ]]; then
        result=stale  # the text is gone (or not unique): the data file needs updating
    else
        cp "$target" "$scratch/original"
        FIND="${m_find[$i]}" REPLACE="${m_replace[$i]}" python3 -c '
import os, sys
p = sys.argv[1]
text = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(text.replace(os.environ["FIND"], os.environ["REPLACE"], 1))' "$target"
        if build "$log.build.log"; then
            result=$(run_tests "$(filter_of "${m_tests[$i]}")" "$log.test.log")
        else
            result=build-broken
        fi
        # Restored with a new timestamp, so the next build recompiles it unmutated.
        cat "$scratch/original" > "$target"
    fi
    printf '%s\t%s\t%s\t%s\n' "$id" "$result" "$file" "${m_what[$i]}" | tee -a "$results"
done

echo
printf '%-28s %-13s %s\n' mutant result change
while IFS=$'\t' read -r id result file what; do printf '%-28s %-13s %s (%s)\n' "$id" "$result" "$what" "$file"; done < "$results"
killed=$(awk -F'\t' '$2 == "killed" || $2 == "timeout"' "$results" | wc -l)
survived=$(awk -F'\t' '$2 == "survived"' "$results" | wc -l)
other=$(awk -F'\t' '$2 != "killed" && $2 != "timeout" && $2 != "survived"' "$results" | wc -l)
total=$((killed + survived))
echo
if ((total > 0)); then
    echo "kill rate: $killed of $total ($((100 * killed / total)) %); not counted (build-broken, stale, no-tests): $other"
fi
echo "results: $results; logs: $scratch/logs"
