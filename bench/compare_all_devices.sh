#!/usr/bin/env bash
# --device all against the sum of each device alone, from `polyrt bench` (the
# same run measures the CPU on THREADS threads (1), each GPU, and all of them
# together with the CPU on the same threads), ROUNDS times (5); prints each
# round's "all / sum" and their median.
#
# Without a GPU it runs on the driver's test double (build/cuda_double),
# configured by DOUBLE: two GPUs of speeds 1 and 3 whose chunks mostly wait
# on modeled copies, as a real GPU's kernels leave the host's cores to the
# CPU. The double's kernels still run on this machine's cores (about 0.2 us a
# row of tests/data/gpu_stress.polydat), which all together pays for and the
# devices alone do not: THREADS=1 leaves them a core of their own.
#   bench/compare_all_devices.sh     POLYRT=build/cli/polyrt ROUNDS=5 SECONDS_EACH=2
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
rounds=${ROUNDS:-5}
threads=${THREADS:-1}
each=${SECONDS_EACH:-2}
if [[ -z ${POLYRT_LIBCUDA:-} ]] && ! "$polyrt" devices 2>/dev/null | grep -q '^gpu [0-9]'; then
  export POLYRT_LIBCUDA=$PWD/build/cuda_double/libcuda.so.1
  export POLYRT_CUDA_DOUBLE=${DOUBLE:-'devices=2;speeds=1,3;kernel_us=1000;copy_us_per_mib=30000'}
  echo "no GPU here: the driver's test double ($POLYRT_CUDA_DOUBLE)"
fi

# Prints each device's rows/s to stderr and all / sum to stdout.
summarize='
import json, sys
r = json.loads(sys.argv[1])
for b in r["batch"]:
    print("  %s: %.3g rows/s" % (b["device"], b["rows_per_second"]), file=sys.stderr)
print("%.3f" % r["all_of_sum"])
'
ratios=()
for ((round = 1; round <= rounds; ++round)); do
  out=$("$polyrt" bench tests/data/gpu_stress.polydat --set region=3 \
    --outputs normal,wait,rank,tier,second,wave,angle,grown,decay,root,bucket,score \
    --threads "$threads" --seconds "$each" --json)
  ratio=$(python3 -c "$summarize" "$out")
  echo "round $round: all / sum of each alone = $ratio"
  ratios+=("$ratio")
done
printf '%s\n' "${ratios[@]}" | sort -n |
  awk '{a[NR] = $1} END {printf "median all / sum: %.1f %% (lowest %.1f %%, highest %.1f %%)\n",
       100 * a[int((NR + 1) / 2)], 100 * a[1], 100 * a[NR]}'
