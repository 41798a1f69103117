#!/usr/bin/env bash
# dominators.sh - dominator mutants (docs/minimisation.md, "Dominator
# mutants") on car_alarm, with the real binary and a real store:
# - before the kill matrix is full the report says so and counts nothing;
# - `mutfarm dominators` (which fills the matrix first) against a brute
#   force over the kill matrix in SQL, independent of the C code: each
#   mutant is a dominator exactly when no mutant's kill set is a proper
#   subset of its own; its classes are exactly the mutants with equal kill
#   sets; the minimal set's size is the number of distinct kill sets among
#   the dominators; the per-operator counts are the brute force's;
# - the text report carries the same summary;
# - bad input: one line, exit 1.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mf-dominators.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/car.db

bad() { echo "FAIL: $*"; fail=1; }

"$MF_BIN" run tests/models/car_alarm.smv --bound 10 --workers 1 --db "$db" \
    > "$tmp/run.out" 2>&1 || { echo "FAIL: run: $(tail -3 "$tmp/run.out")"; exit 1; }

"$MF_BIN" report --db "$db" > "$tmp/r0.txt" 2>&1 || bad "report exits $?"
grep -q "the kill matrix is not full: run 'mutfarm matrix' for dominators" \
    "$tmp/r0.txt" || bad "report before the matrix: no 'not full' line"

"$MF_BIN" dominators --db "$db" > "$tmp/dom.txt" 2> "$tmp/dom.err" ||
    { echo "FAIL: dominators exits $?: $(cat "$tmp/dom.err")"; exit 1; }
grep -q "filled the kill matrix of campaign 1 first" "$tmp/dom.err" ||
    bad "dominators did not say it filled the matrix: $(cat "$tmp/dom.err")"

# The listing, one line per mutant: ID D|R CLASS.
awk '/^  [DR][0-9]+  killed by / {
        cls = $1; kind = substr(cls, 1, 1)
        for (i = 2; i <= NF; i++)
            if (length($i) == 16 && $i ~ /^[0-9a-f]+$/) print $i, kind, cls
    }' "$tmp/dom.txt" | sort > "$tmp/c.txt"
[ -s "$tmp/c.txt" ] || { echo "FAIL: no classes listed"; head -40 "$tmp/dom.txt"; exit 1; }

# The brute force: every pair of mutants, subset by NOT EXISTS; ID D|R SIG.
sqlite3 -separator ' ' "$db" "
    WITH tgt AS (SELECT mutant AS m FROM verdicts WHERE campaign_id = 1
                   AND kind IN ('killed', 'survived', 'unknown')),
         cnt AS (SELECT k.mutant AS m, count(*) AS n FROM kills k
                   JOIN tgt ON tgt.m = k.mutant GROUP BY k.mutant)
    SELECT mm.mutant_id,
           CASE WHEN EXISTS (
               SELECT 1 FROM cnt a WHERE a.n < b.n AND NOT EXISTS (
                   SELECT 1 FROM kills x WHERE x.mutant = a.m AND NOT EXISTS (
                       SELECT 1 FROM kills y
                        WHERE y.mutant = b.m AND y.test_id = x.test_id)))
           THEN 'R' ELSE 'D' END,
           (SELECT group_concat(t, ',') FROM (SELECT test_id AS t FROM kills z
                                    WHERE z.mutant = b.m ORDER BY test_id)),
           mm.operator
      FROM cnt b JOIN mutants mm ON mm.id = b.m" | sort > "$tmp/bf.txt"

n_c=$(wc -l < "$tmp/c.txt")
n_bf=$(wc -l < "$tmp/bf.txt")
[ "$n_c" = "$n_bf" ] || bad "$n_c mutants listed, $n_bf killed by the matrix"
cmp -s <(cut -d' ' -f1,2 "$tmp/c.txt") <(cut -d' ' -f1,2 "$tmp/bf.txt") ||
    { bad "dominator or not differs from the brute force:"; \
      diff <(cut -d' ' -f1,2 "$tmp/c.txt") <(cut -d' ' -f1,2 "$tmp/bf.txt") | head; }
# The classes are the kill sets: as many classes as (class, set) pairs as
# distinct sets.
join "$tmp/c.txt" "$tmp/bf.txt" > "$tmp/j.txt"
classes=$(cut -d' ' -f3 "$tmp/j.txt" | sort -u | wc -l)
pairs=$(awk '{ print $3, $5 }' "$tmp/j.txt" | sort -u | wc -l)
sigs=$(awk '{ print $5 }' "$tmp/j.txt" | sort -u | wc -l)
[ "$classes" = "$pairs" ] && [ "$pairs" = "$sigs" ] ||
    bad "classes $classes, (class, kill set) pairs $pairs, kill sets $sigs"
dsigs=$(awk '$2 == "D" { print $3 }' "$tmp/bf.txt" | sort -u | wc -l)
grep -q "^  minimal dominator set: $dsigs mutants$" "$tmp/dom.txt" ||
    bad "minimal set is not the $dsigs distinct dominator kill sets: $(grep 'minimal' "$tmp/dom.txt")"
[ "$dsigs" -gt 1 ] && [ "$dsigs" -lt "$n_bf" ] ||
    bad "a degenerate case: $dsigs dominators of $n_bf"
# Per operator: killed and dominators.
awk '{ k[$4]++; if ($2 == "D") d[$4]++ }
     END { for (o in k) print o, k[o], d[o] + 0 }' "$tmp/bf.txt" | sort > "$tmp/ops.bf"
sed -n '/^    operator /,/^$/p' "$tmp/dom.txt" | awk 'NR > 1 && NF == 4 { print $1, $2, $3 }' \
    | sort > "$tmp/ops.c"
cmp -s "$tmp/ops.bf" "$tmp/ops.c" ||
    { bad "per-operator counts differ:"; diff "$tmp/ops.bf" "$tmp/ops.c" | head; }
# Each redundant class names a dominator class whose kill set is a proper
# subset of its own.
awk '/^  R[0-9]+  killed by / { for (i = 2; i <= NF; i++) if ($i ~ /^D[0-9]+:$/) { sub(":", "", $i); print $1, $i } }' \
    "$tmp/dom.txt" | sort -u > "$tmp/by.txt"
while read -r r d; do
    rs=$(awk -v c="$r" '$3 == c { print $5; exit }' "$tmp/j.txt")
    ds=$(awk -v c="$d" '$3 == c { print $5; exit }' "$tmp/j.txt")
    if [ "$rs" = "$ds" ] || [ -n "$(comm -23 <(tr , '\n' <<< "$ds" | sort) <(tr , '\n' <<< "$rs" | sort))" ]; then
        bad "$r is not subsumed by $d ($rs vs $ds)"
        break
    fi
done < <(head -40 "$tmp/by.txt")

"$MF_BIN" report --db "$db" > "$tmp/r1.txt" 2>&1 || bad "report exits $?"
grep -q "^  minimal dominator set: $dsigs mutants$" "$tmp/r1.txt" ||
    bad "the report's dominator summary differs"
cmp -s <(sed -n '/^dominator mutants:/,/^$/p' "$tmp/r1.txt" | sed '/^$/d') \
       <(sed -n '/^dominator mutants:/,/^$/p' "$tmp/dom.txt" | sed '/^$/d') ||
    bad "the report's summary is not the command's"

# Bad input: one line, exit 1.
"$MF_BIN" dominators --db "$tmp/none.db" > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$tmp/e")" = 1 ] && [ ! -s "$tmp/o" ] ||
    bad "missing store: exit $rc, $(cat "$tmp/e")"
"$MF_BIN" dominators --db "$db" --campaign 7 > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$tmp/e")" = 1 ] ||
    bad "no such campaign: exit $rc, $(cat "$tmp/e")"
"$MF_BIN" dominators --db "$db" --bogus > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$tmp/e")" = 1 ] ||
    bad "unknown option: exit $rc, $(cat "$tmp/e")"

[ $fail = 0 ] && echo "ok: dominators on car_alarm: $n_bf killed mutants, $dsigs dominators, as the brute force says"
exit $fail
