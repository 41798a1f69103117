/* smv.c - a KISS2 machine translated into the common model: SMV text that
 * the SMV loader reads into the flat model every engine, the simulator, the
 * explorer and the BDD engine work on (docs/fsm.md, Semantics).
 *
 * The translation (machine with rows 0..n-1, ni inputs, no outputs):
 *
 *   IVAR in0 .. : boolean            the input bits, read by the step
 *   VAR  state : 0..N-1              hidden (state i: the i-th named)
 *        out0 .. : boolean           observed; FALSE in the initial state
 *   DEFINE r<i> := row i's guard (present state and input cube)
 *          t<i> := row i's next state
 *          y<i>_<j> := output bit j of row i ({FALSE, TRUE} for '-')
 *   next(state) := case state = A : case r<i> : t<i>; ... esac; ... esac
 *   next(out<j>) := case state = A : case r<i> : y<i>_<j>; ... esac; ...
 *                   (the rows of A and of *, in file order)
 *   TRANS state = A -> (r<i> | ...)     per state: the rows of A and of *
 *
 * So the output of a step is observed in the state it leads to (Mealy: the
 * output of the input that produced it), an input no row covers is refused
 * (the original's refusal: tests never apply it; a mutant's: a kill), a '-'
 * output is a choice of the original (a mutant conforms whatever it shows
 * there), and every fault of one row is the replacement of one DEFINE
 * (mutate.c). The first row that matches gives the transition, as the case
 * reads. Nothing here reads KISS2 text (read.c). The loader builds the
 * same model directly (build.c, lang.c); this text is the translation as
 * SMV, to read and to compare with. */
#include "kiss2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The SMV value of state i: its index. Numbers, not symbolic constants:
 * the simulator compares them without looking names up, which most of a
 * step's time went to (docs/fsm.md); the names are in comments. */
static void put_state(mf_buf *out, const mf_kiss2 *k, int i)
{
    (void)k;
    mf_buf_printf(out, "%d", i);
}

static void put_guard(mf_buf *out, const mf_kiss2 *k, const mf_kiss2_row *r)
{
    int any = 0;
    if (r->from != MF_KISS2_ANY) {
        mf_buf_puts(out, "state = ");
        put_state(out, k, r->from);
        any = 1;
    }
    for (int b = 0; b < k->ni; b++) {
        if (r->in[b] == '-')
            continue;
        mf_buf_printf(out, "%s%sin%d", any ? " & " : "",
                      r->in[b] == '0' ? "!" : "", b);
        any = 1;
    }
    if (!any)
        mf_buf_puts(out, "TRUE");
}

static void put_bit(mf_buf *out, char c)
{
    mf_buf_puts(out, c == '0' ? "FALSE" : c == '1' ? "TRUE" : "{FALSE, TRUE}");
}

/* next(state) (bit -1) or next(out<bit>): a case on the present state
 * whose branches are cases on that state's rows (its own and the `*`
 * ones, in file order), so that a step reads a few guards, not every
 * row's; `dflt` where no row applies (never in an allowed step). */
static void put_next(mf_buf *out, const mf_kiss2 *k, int bit,
                     const char *dflt)
{
    if (bit < 0)
        mf_buf_puts(out, "  next(state) := case\n");
    else
        mf_buf_printf(out, "  next(out%d) := case\n", bit);
    for (int s = 0; s < k->nstates; s++) {
        mf_buf_puts(out, "    state = ");
        put_state(out, k, s);
        mf_buf_puts(out, " : case\n");
        for (int i = 0; i < k->nrows; i++) {
            const mf_kiss2_row *r = &k->rows[i];
            if (r->to == MF_KISS2_ANY ||
                (r->from != s && r->from != MF_KISS2_ANY))
                continue;
            if (bit < 0)
                mf_buf_printf(out, "        r%d : t%d;\n", i, i);
            else
                mf_buf_printf(out, "        r%d : y%d_%d;\n", i, i, bit);
        }
        mf_buf_printf(out, "        TRUE : %s;\n      esac;\n", dflt);
    }
    mf_buf_printf(out, "    TRUE : %s;\n  esac;\n", dflt);
}

void mf_kiss2_smv(mf_buf *out, const mf_kiss2 *k)
{
    mf_buf_printf(out, "-- %s: a KISS2 machine as an SMV model "
                       "(docs/fsm.md)\nMODULE main\n", k->file);
    if (k->ni > 0) {
        mf_buf_puts(out, "IVAR\n");
        for (int b = 0; b < k->ni; b++)
            mf_buf_printf(out, "  in%d : boolean;\n", b);
    }
    mf_buf_printf(out, "VAR\n  state : 0..%d; -- ", k->nstates - 1);
    for (int i = 0; i < k->nstates; i++)
        mf_buf_printf(out, "%s%d %s", i ? ", " : "", i, k->states[i]);
    mf_buf_puts(out, "\n");
    for (int j = 0; j < k->no; j++)
        mf_buf_printf(out, "  out%d : boolean;\n", j);
    mf_buf_puts(out, "DEFINE\n");
    for (int i = 0; i < k->nrows; i++) {
        const mf_kiss2_row *r = &k->rows[i];
        if (r->to == MF_KISS2_ANY)
            continue;
        mf_buf_printf(out, "  -- line %d\n  r%d := ", r->line, i);
        put_guard(out, k, r);
        mf_buf_printf(out, ";\n  t%d := ", i);
        put_state(out, k, r->to);
        mf_buf_puts(out, ";\n");
        for (int j = 0; j < k->no; j++) {
            mf_buf_printf(out, "  y%d_%d := ", i, j);
            put_bit(out, r->out[j]);
            mf_buf_puts(out, ";\n");
        }
    }
    mf_buf_puts(out, "ASSIGN\n  init(state) := ");
    put_state(out, k, k->reset);
    mf_buf_puts(out, ";\n");
    for (int j = 0; j < k->no; j++)
        mf_buf_printf(out, "  init(out%d) := FALSE;\n", j);
    put_next(out, k, -1, "state");
    for (int j = 0; j < k->no; j++)
        put_next(out, k, j, "FALSE");
    for (int s = 0; s < k->nstates; s++) {
        mf_buf_puts(out, "TRANS\n  state = ");
        put_state(out, k, s);
        mf_buf_puts(out, " -> (");
        int any = 0;
        for (int i = 0; i < k->nrows; i++) {
            if ((k->rows[i].from != s && k->rows[i].from != MF_KISS2_ANY) ||
                k->rows[i].to == MF_KISS2_ANY)
                continue;
            mf_buf_printf(out, "%sr%d", any ? " | " : "", i);
            any = 1;
        }
        mf_buf_printf(out, "%s);\n", any ? "" : "FALSE");
    }
}

/* The names out0 .. out<no-1>, kept in k's arena. */
void mf_kiss2_model_opts(mf_model_opts *o, const mf_kiss2 *k,
                         const char ***names)
{
    memset(o, 0, sizeof *o);
    *names = mf_arena_alloc(k->arena, (size_t)(k->no + 1) * sizeof **names);
    for (int j = 0; j < k->no; j++) {
        char nm[32];
        snprintf(nm, sizeof nm, "out%d", j);
        (*names)[j] = mf_arena_strdup(k->arena, nm);
    }
    o->observe = *names;
    o->nobserve = k->no;
}
