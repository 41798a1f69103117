/* mutate.c - the SMV mutation operators' enumeration (lang.h, the
 * `mutants` of mf_lang_smv): walks every item of a flattened model in
 * order, applies each operator of docs/operators.md at every expression
 * node in pre-order (mutate_ops.c), and hands each mutant to a callback
 * (mutate_emit.c). With a pick, a first pass of ids alone finds the items
 * that hold a wanted mutant, and only those are classified.
 *
 * Ids, duplicates and stillborns are the common model's (mf_mutant_id,
 * mf_mutant_classify). Nothing here interprets the model's semantics: type
 * errors of a mutated item are mf_model_check_item()'s call.
 *
 * Site paths: ITEM "/" STEPS, where ITEM is "init(x)", "next(x)", "x :=",
 * "DEFINE d" or "INIT#k"/"TRANS#k"/"INVAR#k" (k-th constraint of that kind,
 * 1-based), and STEPS are the edges from the item's expression down to the
 * node, joined by ".": "bN.g"/"bN.v" (guard/value of case branch N, 1-based),
 * "l"/"r" (binary operands), "0", "1", ... (other kids by index). The root
 * is the empty path ("next(x)/"); an item removal has the bare ITEM as site. */
#include "mutator.h"

#include <stdlib.h>
#include <string.h>

static void item_name(mf_buf *out, const mf_model *m, const mf_item *it,
                      const int counts[3])
{
    mf_buf_reset(out);
    switch (it->kind) {
    case MF_IT_DEFINE:
        mf_buf_printf(out, "DEFINE %s", it->name ? it->name : "?");
        break;
    case MF_IT_INIT:
        mf_buf_puts(out, "init(");
        mf_print_expr(out, m, it->lhs);
        mf_buf_puts(out, ")");
        break;
    case MF_IT_NEXT:
        mf_buf_puts(out, "next(");
        mf_print_expr(out, m, it->lhs);
        mf_buf_puts(out, ")");
        break;
    case MF_IT_ASSIGN:
        mf_print_expr(out, m, it->lhs);
        mf_buf_puts(out, " :=");
        break;
    case MF_IT_INIT_C:
        mf_buf_printf(out, "INIT#%d", counts[0]);
        break;
    case MF_IT_TRANS_C:
        mf_buf_printf(out, "TRANS#%d", counts[1]);
        break;
    case MF_IT_INVAR_C:
        mf_buf_printf(out, "INVAR#%d", counts[2]);
        break;
    }
}

/* One pass over the items of st->m: every item's mutants, or with
 * `only` just those of the items i with only[i]; with st->ids_only, each
 * item whose mutants include a picked id gets hits[i] = 1. */
static void enum_items(enumst *st, const unsigned char *only,
                       unsigned char *hits)
{
    const mf_model *m = st->m;
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < m->nitems && st->rc == 0; i++) {
        const mf_item *it = &m->items[i];
        if (it->kind == MF_IT_INIT_C)
            counts[0]++;
        else if (it->kind == MF_IT_TRANS_C)
            counts[1]++;
        else if (it->kind == MF_IT_INVAR_C)
            counts[2]++;
        if (!it->e || (only && !only[i]))
            continue;
        st->index = i;
        st->item = it;
        st->hit = 0;
        item_name(&st->itemname, m, it, counts);
        mf_buf_reset(&st->path);
        st->frames.n = 0;

        ctx c = {0, 0, 0, NULL};
        switch (it->kind) {
        case MF_IT_INIT:
        case MF_IT_NEXT:
        case MF_IT_ASSIGN:
            if (it->var >= 0 && it->var < m->nvars) {
                c.target = mf_type_scalar(m->vars[it->var].type);
                c.boolval = c.target && c.target->kind == MF_TY_BOOL;
            }
            break;
        case MF_IT_DEFINE:
            c.boolval = mf_smvmut_infer(m, it->e, 0) == T_BOOL;
            break;
        default:
            c.boolval = 1;
            break;
        }
        mf_smvmut_visit(st, it->e, c);
        if (hits)
            hits[i] = (unsigned char)st->hit;
    }
}

int mf_smv_mutants(const mf_model *m, unsigned mask, mf_mutant_pick pick,
                   mf_mutant_fn fn, void *cbctx)
{
    enumst st;
    memset(&st, 0, sizeof(st));
    st.m = m;
    st.mask = mask ? mask : (1u << MF_MOP__COUNT) - 1;
    st.fn = fn;
    st.pick = pick;
    st.cb = cbctx;
    st.dups = mf_mutant_dups_new();
    unsigned char *hits = NULL;
    if (pick) {
        /* Duplicates are twins within one item (the key holds the item's
         * index): a first pass of ids alone finds the items that hold a
         * picked mutant, and only those are classified. */
        hits = mf_xcalloc((size_t)(m->nitems ? m->nitems : 1), 1);
        st.ids_only = 1;
        enum_items(&st, NULL, hits);
        st.ids_only = 0;
    }
    enum_items(&st, hits, NULL);
    free(hits);
    int rc = st.rc;
    mf_mutant_dups_free(st.dups);
    MF_VEC_FREE(st.frames);
    mf_buf_free(&st.itemname);
    mf_buf_free(&st.path);
    mf_buf_free(&st.site);
    mf_buf_free(&st.repl);
    mf_buf_free(&st.desc);
    mf_buf_free(&st.why);
    return rc;
}
