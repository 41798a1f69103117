# corpus_models.sh - sourced by tests/corpus.sh and tests/corpus_check.sh:
# the binary they run and the models they run it on.
#   need_bin SCRIPT     exits 1 unless $MF_BIN is an executable
#   corpus_models ARGS  fills the array `models` with ARGS, else with
#                       $MF_SHARED_MODELS/corpus/*.smv and .../seeds/*.smv;
#                       returns 1 when there are neither

need_bin() {
    if [ ! -x "$MF_BIN" ]; then
        echo "$1: MF_BIN=$MF_BIN is not an executable" >&2
        exit 1
    fi
}

corpus_models() {
    local f
    models=()
    if [ $# -gt 0 ]; then
        models=("$@")
        return 0
    fi
    if [ -z "${MF_SHARED_MODELS:-}" ] || [ ! -d "$MF_SHARED_MODELS/corpus" ]; then
        return 1
    fi
    for f in "$MF_SHARED_MODELS"/corpus/*.smv "$MF_SHARED_MODELS"/seeds/*.smv; do
        [ -f "$f" ] && models+=("$f")
    done
    return 0
}
