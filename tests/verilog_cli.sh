#!/usr/bin/env bash
# verilog_cli.sh - Verilog designs through yosys (docs/verilog.md, issue
# 34), skipped (77) without yosys. lights.v (combinational): the ports are
# the inputs and observables by their Verilog names, the clockless design
# has no registers; every mutant carries its Verilog file:line:col; all 30
# sampled mutants are decided, the test's steps name the ports. pwm256.v
# (a clock, an asynchronous active-low reset): the clock is no input,
# --reset rst_n=0 gives every register its reset value; a mutant's id is
# the same when an unrelated line is added above it (its location moves);
# `mutants show` marks the Verilog line. Refusals: two clocks, a module
# yosys cannot read, a missing yosys, each one line.
set -uo pipefail
MF_BIN=${MF_BIN:-./build/mutfarm}
command -v "${MF_YOSYS:-yosys}" > /dev/null || {
    echo "verilog_cli.sh: SKIP: yosys not installed"; exit 77; }
D=tests/models/verilog
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
expect() { # expect WHAT OUTPUT PATTERN
    if ! grep -q -- "$3" <<< "$2"; then
        echo "FAIL: $1: no '$3' in:"
        echo "$2"
        fail=1
    fi
}

# lights.v: ports, locations, every mutant decided.
"$MF_BIN" verilog "$D/lights.v" --mutants 30 -o "$T/lights.vsmv" ||
    { echo "FAIL: verilog lights.v"; exit 1; }
out=$("$MF_BIN" model check "$T/lights.vsmv" 2>&1)
expect "lights inputs" "$out" "inputs: en sel"
expect "lights observables" "$out" "observables: lamp"
out=$("$MF_BIN" mutants list "$T/lights.vsmv" 2>&1)
expect "lights locations" "$out" "lights.v:1[0-9]:[0-9]*: "
expect "lights 30 mutants" "$out" "# 30 mutants to check"
out=$("$MF_BIN" check "$T/lights.vsmv" --all --bound 2 2>&1)
expect "lights all decided" "$out" "# 30 mutants: .* 0 survived, 0 unknown, 0 error"
expect "lights test steps" "$out" "en=1, sel=[0-3]    # expect lamp="

# pwm256.v: clock, reset, stable ids, show.
"$MF_BIN" verilog "$D/pwm256.v" --reset rst_n=0 -o "$T/pwm.vsmv" ||
    { echo "FAIL: verilog pwm256.v"; exit 1; }
out=$(cat "$T/pwm.vsmv")
expect "pwm clock" "$out" "^-- mf:clock clk$"
expect "pwm inputs" "$out" "^-- mf:inputs d_in rst_n$"
expect "pwm reset" "$out" "^-- mf:start after reset rst_n for 1 cycle$"
out=$("$MF_BIN" model check "$T/pwm.vsmv" 2>&1)
expect "pwm loads" "$out" "observables: pwm_out"
line=$(grep -m1 "^-- mf:mutant .* pwm256.v:25:20 .counter + 8'd1" "$T/pwm.vsmv")
id=$(cut -d' ' -f5 <<< "$line")
{ sed -n 1,5p "$D/pwm256.v"; echo "// an unrelated line"; \
  sed -n '6,$p' "$D/pwm256.v"; } > "$T/pwm256.v"
"$MF_BIN" verilog "$T/pwm256.v" --reset rst_n=0 -o "$T/pwm2.vsmv"
out=$(grep "^-- mf:mutant [0-9]* [a-z0-9]* $id " "$T/pwm2.vsmv")
expect "id stable, location moved" "$out" "pwm256.v:26:20 "
out=$("$MF_BIN" mutants show "$T/pwm.vsmv" "$id" 2>&1)
expect "show marks the line" "$out" "^// *\^ mutant $id"

# Refusals: one line each.
cat > "$T/two.v" <<'V'
module two(input a, input b, input d, output reg x, output reg y);
always @(posedge a) x <= d;
always @(posedge b) y <= d;
endmodule
V
out=$("$MF_BIN" verilog "$T/two.v" 2>&1)
expect "two clocks" "$out" "several clocks (a b)"
printf 'module bad(input a output b); endmodule\n' > "$T/bad.v"
out=$("$MF_BIN" check "$T/bad.v" --all 2>&1)
expect "yosys's reason" "$out" "bad.v: error: yosys: .*syntax error"
out=$(MF_YOSYS=/nonexistent/yosys "$MF_BIN" verilog "$D/lights.v" 2>&1)
expect "no yosys" "$out" "not found: apt-get install yosys"
[ "$fail" = 0 ] && echo "verilog_cli.sh: passed"
exit "$fail"
