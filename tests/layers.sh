#!/usr/bin/env bash
# layers.sh - checks the layering of docs/architecture.md on a build and its
# sources, and fails when it is broken: (a) no cycle between source files,
# read from the build's object files with nm (file A depends on file B when
# A has an undefined symbol that B defines; every strongly connected
# component of more than one file is printed with the symbols that make
# it); (b) includes go down the layers only: model < {smv, kiss2, ta}
# (the languages) < verilog (read through smv's reader) < lang (their
# registry) < engine < proto < {worker, config, coordinator/store} < farm <
# {coordinator, coordinator/report} < cli (folders of one layer include
# nothing of each other), a folder
# including headers of its own folder and of lower layers only (tests/ may
# include anything), so that the folders cannot form a cycle either; every
# offending #include line is printed. It does not build anything: the
# objects are those of the build that holds MF_BIN (skipped, 77, when there
# are none), and it does not look at system headers (<...>).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
MF_BIN=${MF_BIN:-./build/mutfarm}
BUILD=$(dirname "$MF_BIN")
fail=0

# ---- (a) cycles between files, from the objects ----------------------------
objs=$(find "$BUILD/CMakeFiles" -name '*.o' 2>/dev/null | sort)
if [ -z "$objs" ]; then
    echo "layers.sh: SKIP: no object files under $BUILD/CMakeFiles"
    exit 77
fi
# nm -P -A: "OBJECT: SYMBOL TYPE [VALUE SIZE]". An object stands for its
# source, CMakeFiles/TARGET.dir/SOURCE.o, so that one source built into
# two targets is one file.
# shellcheck disable=SC2086
syms=$(nm -P -A -g $objs 2>/dev/null)
printf '%s\n' "$syms" | awk '
function src(o) {
    sub(/:$/, "", o)
    sub(/.*\/CMakeFiles\/[^\/]*\.dir\//, "", o)
    sub(/\.o$/, "", o)
    return o
}
{
    f = src($1); sym = $2; t = $3
    if (!(f in id)) { id[f] = 1; names[++n] = f }
    if (t == "U" || t == "w" || t == "v") {
        if (!((f, sym) in seen)) {
            seen[f, sym] = 1
            ufile[++nu] = f
            usym[nu] = sym
        }
    } else if (!((f, sym) in def)) {
        def[f, sym] = 1
        definers[sym] = definers[sym] " " f
    }
}
END {
    # Sorted names, so that the report reads the same on every run.
    for (i = 2; i <= n; i++) {
        v = names[i]
        for (j = i - 1; j >= 1 && names[j] > v; j--) names[j + 1] = names[j]
        names[j + 1] = v
    }
    for (i = 1; i <= n; i++) id[names[i]] = i
    for (k = 1; k <= nu; k++) {
        if (!(usym[k] in definers)) continue
        a = id[ufile[k]]
        m = split(definers[usym[k]], d, " ")
        for (x = 1; x <= m; x++) {
            b = id[d[x]]
            if (b == a) continue
            reach[a, b] = 1
            why[a, b] = why[a, b] " " usym[k]
        }
    }
    # Transitive closure; i and j share a component when each reaches
    # the other.
    for (k = 1; k <= n; k++)
        for (i = 1; i <= n; i++) {
            if (!((i, k) in reach)) continue
            for (j = 1; j <= n; j++)
                if ((k, j) in reach) reach[i, j] = 1
        }
    bad = 0
    for (i = 1; i <= n; i++) {
        if (i in done) continue
        members = i; size = 1
        for (j = i + 1; j <= n; j++)
            if (((i, j) in reach) && ((j, i) in reach)) {
                members = members " " j; size++; done[j] = 1
            }
        if (size < 2) continue
        m = split(members, c, " ")
        line = ""
        for (x = 1; x <= m; x++) line = line " " names[c[x]]
        print "FAIL: cycle:" line
        for (x = 1; x <= m; x++)
            for (y = 1; y <= m; y++)
                if ((c[x], c[y]) in why)
                    print "    " names[c[x]] " -> " names[c[y]] ":" \
                        why[c[x], c[y]]
        bad = 1
    }
    if (!bad)
        print "ok: no cycle between the " n " files of the build"
    exit bad
}' || fail=1

# ---- (b) includes go down the layers ---------------------------------------
# A header is found where the compiler finds it: next to the including file
# first, else in the one folder that holds a header of that name (sources,
# then headers generated into the build, such as proto/mutfarm.pb-c.h).
srcs=$(find model smv kiss2 ta verilog lang engine worker config proto farm \
    coordinator cli tests \( -name '*.c' -o -name '*.h' \) | sort)
{
    find model smv kiss2 ta verilog lang engine worker config proto farm \
        coordinator cli tests \
        -name '*.h' |
        sed 's/^/H /'
    (cd "$BUILD" && find . -path ./CMakeFiles -prune -o -name '*.h' -print) |
        sed 's|^\./||; s/^/H /'
    # shellcheck disable=SC2086
    { grep -n -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $srcs ||
        true; } | sed 's/^/I /'
} | awk '
function rank(d) {
    if (d == "model") return 0
    # the languages, one folder each, none including another
    if (d == "smv" || d == "kiss2" || d == "ta") return 1
    # Verilog: its yosys translation is SMV, read by smv/
    if (d == "verilog") return 2
    if (d == "lang") return 3
    if (d == "engine") return 4
    if (d == "proto") return 5
    if (d == "worker" || d == "config" || d == "coordinator/store") return 6
    if (d == "farm") return 7
    if (d == "coordinator" || d == "coordinator/report") return 8
    if (d == "cli") return 9
    if (d == "tests" || index(d, "tests/") == 1) return 10
    return -1
}
function dir(p) { if (p !~ /\//) return "."; sub(/\/[^\/]*$/, "", p); return p }
function base(p) { sub(/.*\//, "", p); return p }
$1 == "H" {
    h = $2
    if ((base(h), dir(h)) in at) next
    at[base(h), dir(h)] = 1
    folders[base(h)] = folders[base(h)] " " dir(h)
    next
}
$1 == "I" {
    line = substr($0, 3)
    split(line, parts, ":")
    file = parts[1]; from = dir(file)
    hdr = line; sub(/^[^"]*"/, "", hdr); sub(/".*$/, "", hdr)
    if (hdr ~ /\//) {
        to = dir(from "/" hdr)
        while (to ~ /[^\/]+\/\.\.(\/|$)/) sub(/[^\/]+\/\.\.\/?/, "", to)
        sub(/\/$/, "", to)
    } else if ((hdr, from) in at) {
        to = from
    } else {
        m = split(folders[hdr], cand, " ")
        if (m == 0) {
            print "FAIL: " line "  (no header " hdr \
                " in the sources or the build)"
            bad = 1; next
        }
        if (m > 1) {
            print "FAIL: " line "  (" hdr " is in" folders[hdr] ": which one?)"
            bad = 1; next
        }
        to = cand[1]
    }
    if (from == to || index(from, "tests") == 1) next
    rf = rank(from); rt = rank(to)
    if (rf < 0 || rt < 0) {
        print "FAIL: " line "  (" (rf < 0 ? from : to) \
            " has no layer in tests/layers.sh)"
        bad = 1
    } else if (rt >= rf) {
        print "FAIL: " line "  (" from " includes " to ": not a lower layer)"
        bad = 1
    }
    checked++
}
END {
    if (!bad)
        print "ok: " checked " includes across folders, all down the layers"
    exit bad
}' || fail=1

[ $fail = 0 ] && echo "layers.sh: passed" || echo "layers.sh: FAILED"
exit $fail
