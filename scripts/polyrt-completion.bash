# Bash completion for the polyrt command (installed as
# share/bash-completion/completions/polyrt; or `source` this file).
_polyrt() {
  local cur prev command
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  command=${COMP_WORDS[1]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    # The command names from the command itself (its one command table).
    COMPREPLY=($(compgen -W "$(polyrt help --commands 2>/dev/null) --version --help" -- "$cur"))
    return
  fi
  case "$prev" in
    --format) COMPREPLY=($(compgen -W "csv tsv jsonl text npy parquet arrow arrows" -- "$cur")); return ;;
    --engine)
      if [ "$command" = run ] || [ "$command" = plan ]; then
        COMPREPLY=($(compgen -W "batch interpreter closures native" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "interpreter closures native" -- "$cur"))
      fi
      return ;;
    --provenance) COMPREPLY=($(compgen -W "auto raw pull pushpull" -- "$cur")); return ;;
    --device)
      if [ "$command" = plan ]; then
        COMPREPLY=($(compgen -W "cpu gpu" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "auto cpu gpu all 0 1 2 3" -- "$cur"))
      fi
      return ;;
    --target) COMPREPLY=($(compgen -W "cpu nvptx" -- "$cur")); return ;;
    --sm) COMPREPLY=($(compgen -W "60 61 62 70 72 75 80 86 87 89 90" -- "$cur")); return ;;
    --compress) COMPREPLY=($(compgen -W "none gzip zstd" -- "$cur")); return ;;
    --dump-after) COMPREPLY=($(compgen -W "producers tiles emitted_rows modules table_values" -- "$cur")); return ;;
    --out) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --plugin) COMPREPLY=($(compgen -f -X '!*.so' -- "$cur") $(compgen -d -- "$cur")); return ;;
    --cycles|--outputs|--set|--threads|--cuda-driver|--parts|--part|--rate|--seconds|--rows|--width|--partition|--seed|--allow-env|--param) return ;;
    --lib|--data-root|--html) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  # What every command that compiles a program takes.
  local compiling="--lib --plugin --partition --param --seed --strict --untrusted --data-root --allow-env --help"
  local options
  case "$command" in
    check) options="--json --set --dump-after $compiling" ;;
    eval) options="--set --engine --provenance $compiling" ;;
    preview) options="--rows --cycles --outputs --set --width --engine $compiling" ;;
    run) options="--cycles --rows --compress --outputs --no-nulls --format --out --set --threads --engine --provenance --device --verbose -v --parts --part --rate -q $compiling" ;;
    stats) options="--cycles --outputs --json --log --html --set --threads --device -q $compiling" ;;
    bench) options="--seconds --outputs --set --threads --json $compiling" ;;
    plan) options="--engine --provenance --emit-llvm --before-o2 --emit-asm --device --target --sm --cuda-driver --emit-ptx $compiling" ;;
    *) options="--help" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  elif [[ "$command" =~ ^(check|eval|preview|run|stats|plan|bench)$ ]]; then
    # Program files, and directories to look into.
    COMPREPLY=($(compgen -f -X '!*.polydat' -- "$cur") $(compgen -d -- "$cur"))
  fi
}
complete -o filenames -F _polyrt polyrt
