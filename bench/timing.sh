# Shared by the bench scripts (sourced, not run).
seconds() {  # runs "$@" with its output discarded, prints its wall time in seconds
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN {printf "%.3f", ns / 1e9}'
}
