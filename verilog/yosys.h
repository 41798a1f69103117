/* yosys.h - yosys run as a subprocess (never linked): a script file run in
 * a working directory, its output captured, under a time limit. The rest
 * of verilog/ writes the scripts (translate.c); nothing here knows what a
 * script does. */
#ifndef MF_YOSYS_H
#define MF_YOSYS_H

#include "mf.h"

/* Runs `yosys -q -s SCRIPT` in directory cwd (both paths), stdout and
 * stderr captured into *log (appended), killed after timeout_s seconds.
 * 0 when yosys exits 0. Otherwise MF_ERROR with one line in mf_err_msg():
 * "yosys not found: apt-get install yosys", "yosys: timed out after N s",
 * or "yosys: " and yosys's own ERROR line (the last line of its output
 * when it printed none). */
int mf_yosys_run(mf_buf *log, const char *cwd, const char *script,
                 int timeout_s);

/* The program run: $MF_YOSYS if set (tests point it elsewhere), else
 * "yosys" on PATH. */
const char *mf_yosys_program(void);

#endif
