# Shared by the bench scripts (sourced, not run).
seconds() {  # runs "$@" with its output discarded, prints its wall time in seconds
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN {printf "%.3f", ns / 1e9}'
}

summary() {  # label, then the times: fastest and median in M rows/s of $rows rows
  local label=$1
  shift
  printf '%s\n' "$@" | sort -n | awk -v n="$rows" -v label="$label" '{a[NR] = $1}
    END {printf "%s: fastest %.2f M rows/s (%.3f s), median %.2f M rows/s (%.3f s)\n",
         label, n / a[1] / 1e6, a[1], n / a[int((NR + 1) / 2)] / 1e6, a[int((NR + 1) / 2)]}'
}

fastest() {  # the smallest of the times given
  printf '%s\n' "$@" | sort -n | head -1
}

# "LABEL rows/s: fastest R, median R": the rows/s of the first runs over
# the second's (the same rows), from each one's times: A's then B's, given
# as two quoted lists.
speed_ratio() {
  local label=$1 a=($2) b=($3)
  awk -v af="$(fastest "${a[@]}")" -v am="$(median "${a[@]}")" -v bf="$(fastest "${b[@]}")" \
    -v bm="$(median "${b[@]}")" -v label="$label" \
    'BEGIN {printf "%s rows/s: fastest %.2f, median %.2f\n", label, bf / af, bm / am}'
}

median() {  # the middle of the times given (the upper one of an even count)
  printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
