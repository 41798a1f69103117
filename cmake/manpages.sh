#!/bin/sh
# manpages.sh - the manual pages, made from the text of `--help` itself so
# that the two cannot drift: mutfarm.1 from `mutfarm --help`, and one page
# mutfarm-COMMAND.1 for each command that `mutfarm --help` lists, from
# `mutfarm COMMAND --help`. Each page's NAME line is the command's one-line
# description from `mutfarm --help`; the body is the help text as written.
# The build runs it after linking (CMakeLists.txt, target mf_manpages).
#   sh cmake/manpages.sh BIN OUTDIR VERSION
set -eu
bin=$1 out=$2 version=$3
mkdir -p "$out"
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)

# The help text as roff, shown as written: backslashes escaped, a line
# that starts with a dot or quote kept from being read as a request,
# minus signs as minus signs.
body() {
    printf '.nf\n'
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
    printf '.fi\n'
}

# page NAME SUMMARY < help text
page() {
    {
        printf '.TH %s 1 "%s" "mutfarm %s" "User Commands"\n' \
            "$(echo "$1" | tr a-z A-Z)" "$date" "$version"
        printf '.SH NAME\n%s \\- %s\n' "$(echo "$1" | sed 's/-/\\-/g')" "$2"
        printf '.SH DESCRIPTION\n'
        body
        printf '.SH SEE ALSO\n'
        if [ "$1" = mutfarm ]; then
            echo "$cmds" | awk 'NF { printf "%s.BR mutfarm\\-%s (1)", sep, $1; sep = ",\n" }
                                END { print "" }'
        else
            printf '.BR mutfarm (1)\n'
        fi
        printf '.SH VERSION\n%s\n' "$("$bin" --version | sed 's/-/\\-/g')"
    } > "$out/$1.1"
}

help=$("$bin" --help)
# Commands: the lines of "commands:" indented by two spaces; the summary
# is the first line indented by six that follows each.
cmds=$(echo "$help" | awk '
    /^commands:/ { on = 1; next }
    on && /^$/ { exit }
    on && /^  [a-z]/ { if (name) print name "\t" sum; name = $1; sum = ""; next }
    on && /^      [^ ]/ && sum == "" { sum = $0; sub(/^ +/, "", sum) }
    END { if (name) print name "\t" sum }')
[ -n "$cmds" ] || { echo "manpages.sh: no commands in '$bin --help'" >&2; exit 1; }
echo "$help" | page mutfarm "mutation testing of models on a farm of Z3 workers"
echo "$cmds" | while IFS="$(printf '\t')" read -r name sum; do
    "$bin" "$name" --help | page "mutfarm-$name" "$sum"
done
