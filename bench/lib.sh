# lib.sh - what the engine benchmarks (bdd.sh, decide.sh) share; sourced,
# with CAP (seconds per run) and MODELS (substrings) from the caller.

# CPU seconds (user + system) of a command and its children.
cpu() { # cpu OUTFILE CMD...
    local f=$1 t
    shift
    t=$( { TIMEFORMAT='%U %S'; time timeout "$CAP" "$@" > "$f" 2>&1; } 2>&1 )
    echo "$t" | tail -1 | awk '{printf "%.2f\n", $1 + $2}'
}

# Whether model file $1 is one of MODELS (all when MODELS is empty).
wanted() {
    [ -z "${MODELS:-}" ] && return 0
    local s
    for s in ${MODELS//,/ }; do case "$1" in *"$s"*) return 0 ;; esac; done
    return 1
}
