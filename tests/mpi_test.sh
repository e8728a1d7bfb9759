#!/usr/bin/env bash
# polyrt run under `mpirun -n 2`: each rank writes its part; the parts
# concatenated are the single run; rank 0's manifest lists them with rows,
# bytes and CRC-32s that Python recomputes; a failing rank leaves no part
# and no manifest, and the smallest failing coordinate is reported once; a
# signal to one rank stops them all.
#   tests/mpi_test.sh POLYRT_BINARY
set -euo pipefail
polyrt=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpi=(mpirun --allow-run-as-root --oversubscribe -n 2)

fail() { echo "mpi_test: $*" >&2; exit 1; }

printf 'input cycle\nid := hash(cycle)\nname := one_of(id, "a", "b,c")\nscore := unit_interval(id)\n' \
  > "$work/events.polydat"
"$polyrt" run "$work/events.polydat" --cycles 3..100003 > "$work/single.csv"
"${mpi[@]}" "$polyrt" run "$work/events.polydat" --cycles 3..100003 --threads 1 --out "$work/parts"
{ cat "$work/parts/events.1.csv"; tail -n +2 "$work/parts/events.2.csv"; } | cmp - "$work/single.csv" \
  || fail "the parts concatenated differ from the single run"
python3 - "$work/parts" <<'PY' || fail "the manifest does not describe the parts"
import json, sys, zlib
d = sys.argv[1]
m = json.load(open(d + "/_manifest.json"))
assert m["first"] == 3 and m["rows"] == 100000 and m["format"] == "csv", m
assert m["outputs"] == ["id", "name", "score"], m
assert [p["part"] for p in m["parts"]] == [1, 2]
assert m["parts"][1]["first"] == 3 + 50000 and sum(p["rows"] for p in m["parts"]) == 100000
for p in m["parts"]:
    data = open(d + "/" + p["path"], "rb").read()
    assert p["bytes"] == len(data), p
    assert p["crc32"] == "%08x" % zlib.crc32(data), p
PY

# npy parts: one directory per rank, the same columns as the single run.
"${mpi[@]}" "$polyrt" run "$work/events.polydat" --cycles 0..1000 --outputs id,score --format npy \
  --out "$work/npy"
test -f "$work/npy/part-1/id.npy" -a -f "$work/npy/part-2/score.npy" -a -f "$work/npy/_manifest.json" \
  || fail "npy parts missing"

# A traversal's parts: the manifest names every column they hold (the
# iterated input and the elements too) and the rows written (a row per
# tuple), and covers each of an npy part's column files.
printf 'input cycle\nfor a in 0..3, f in 0.5, 1.5 { v := a * 2 }\n' > "$work/sweep.polydat"
"${mpi[@]}" "$polyrt" run "$work/sweep.polydat" --cycles 0..5 --format npy --out "$work/sweep"
python3 - "$work/sweep" <<'PY' || fail "the manifest does not describe a traversal's parts"
import json, sys, zlib
d = sys.argv[1]
m = json.load(open(d + "/_manifest.json"))
assert m["outputs"] == ["cycle", "a", "f", "v"], m
assert m["coordinates"] == 5 and m["rows"] == 30, m
assert [p["rows"] for p in m["parts"]] == [12, 18], m
for p in m["parts"]:
    data = b"".join(open(d + "/" + p["path"] + "/" + c + ".npy", "rb").read() for c in m["outputs"])
    assert p["bytes"] == len(data) and p["crc32"] == "%08x" % zlib.crc32(data), p
PY

# Both ranks fail (cycle 30001 in part 1, 70001 in part 2): rank 0 reports
# the smaller, once; nothing remains.
printf 'input cycle\nv := in_range(cycle %% 40000, 0, 30000)\n' > "$work/fail.polydat"
mkdir "$work/failed"
if "${mpi[@]}" "$polyrt" run "$work/fail.polydat" --cycles 0..100000 --out "$work/failed" \
  2> "$work/err.txt"; then
  fail "a failing launch exited 0"
fi
grep -q "coordinates: cycle=30001" "$work/err.txt" || fail "not the smallest coordinate: $(cat "$work/err.txt")"
test "$(grep -c "coordinates:" "$work/err.txt")" -eq 1 || fail "reported more than once"
test -z "$(ls -A "$work/failed")" || fail "parts or a manifest remain: $(ls -A "$work/failed")"

# Only the second rank fails: it stops nobody with earlier rows, rank 0 reports it.
printf 'input cycle\nv := in_range(cycle, 0, 70000)\n' > "$work/late.polydat"
if "${mpi[@]}" "$polyrt" run "$work/late.polydat" --cycles 0..100000 --out "$work/failed" \
  2> "$work/err.txt"; then
  fail "a failing launch exited 0"
fi
grep -q "coordinates: cycle=70001" "$work/err.txt" || fail "$(cat "$work/err.txt")"
test -z "$(ls -A "$work/failed")" || fail "parts remain after a late failure"

# SIGTERM to one rank (the one with later rows): every rank stops at its next
# chunk, not after computing its whole part (minutes here); nothing remains.
mkdir -p "$work/term"
"${mpi[@]}" "$polyrt" run "$work/events.polydat" --cycles 0..40000000000 --threads 1 \
  --out "$work/term" 2> "$work/err.txt" &
launch=$!
rank1=""
for _ in $(seq 100); do
  for pid in $(pgrep -f "events.polydat --cycles 0..40000000000" || true); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then
      rank1=$pid
    fi
  done
  [ -n "$rank1" ] && break
  sleep 0.1
done
[ -n "$rank1" ] || fail "rank 1 did not start"
sleep 1
started=$(date +%s)
kill -TERM "$rank1"
status=0
timeout 60 tail --pid="$launch" -f /dev/null || fail "the launch did not stop within 60 s of SIGTERM"
wait "$launch" || status=$?
test "$status" -ne 0 || fail "an interrupted launch exited 0"
test $(( $(date +%s) - started )) -lt 30 || fail "the other rank computed on after the signal"
grep -q "interrupted by SIGTERM" "$work/err.txt" || fail "no message: $(cat "$work/err.txt")"
test -z "$(ls -A "$work/term")" || fail "parts remain after an interruption: $(ls -A "$work/term")"

# --parts is the launch's business under MPI.
if "${mpi[@]}" "$polyrt" run "$work/events.polydat" --cycles 0..10 --parts 2 --out "$work/x" \
  2> /dev/null; then
  fail "--parts under MPI was accepted"
fi
echo "mpi_test: ok"
