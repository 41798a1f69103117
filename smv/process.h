/* process.h - NuSMV's `process` instances as a transformation of the flat
 * model (process.c): the scheduler becomes an input, `running` a test of
 * it, and every next() assignment is guarded by its process. Used by
 * flatten.c only; the simulator, the explorer and the Z3 encoding see an
 * ordinary model (docs/semantics.md, Processes). */
#ifndef MF_PROCESS_H
#define MF_PROCESS_H

#include "ast.h"

/* The scheduler input, named as NuSMV names it. */
#define MF_PROC_SELECTOR "_process_selector_"
/* Its value when the main module moves (NuSMV's name for it). */
#define MF_PROC_MAIN "main"

/* The declaration `IVAR _process_selector_ : {main, names[0], ...};`
 * (nodes from a, positioned at line 0: made, not written). */
mf_ast_decl *mf_proc_selector_decl(mf_arena *a, const char *const *names,
                                   int n);

/* `running` of the process whose selector value is `sym`:
 * `_process_selector_ = sym`, the selector being variable `selvar` named
 * `selname`. The `=` node takes the reference's position (line, col), so
 * the mutation operators see the `running` the user wrote; its operands
 * are at line 0. */
mf_expr *mf_proc_running(mf_arena *a, int selvar, const char *selname,
                         const char *sym, int line, int col);

/* Guards the next() assignments among items[0..*n): the assignments of
 * one variable (element) made by processes owner[i] (a selector value;
 * NULL for items that are not next() assignments) become one
 *     next(x) := case _process_selector_ = P1 : e1; ...; TRUE : x; esac;
 * at the place of the first, the others removed (*n shrinks), so that x
 * keeps its value while another process moves (NuSMV's compileFlatten).
 * The made nodes are at line 0. */
void mf_proc_guard(mf_arena *a, mf_item *items, int *n,
                   const char *const *owner, int selvar,
                   const char *selname);

#endif
