/* mm.c - mutation machines over KISS2 tables (mm.h): built from a
 * specification and extra rows or the FSM operators, their mutants counted
 * exactly, one mutant decided against the specification by the product of
 * the two tables, and a mutant printed as KISS2.
 *
 * Cubes: a group's input cube is a string of 0 1 -; an input of a test is
 * a string of 0 1. Nothing here calls a solver (engine/fsm_mm.c does). */
#include "mm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Limits that keep a machine's products and searches small enough. */
#define MAX_GROUPS 1000000

static int cubes_meet(const char *a, const char *b)
{
    for (; *a; a++, b++)
        if ((*a == '0' && *b == '1') || (*a == '1' && *b == '0'))
            return 0;
    return 1;
}

static int cube_has(const char *cube, const char *x)
{
    for (; *cube; cube++, x++)
        if (*cube != '-' && *cube != *x)
            return 0;
    return 1;
}

static mf_mm *mm_new(const mf_kiss2 *k)
{
    mf_arena *a = mf_arena_new();
    mf_mm *mm = mf_arena_alloc(a, sizeof *mm);
    mm->arena = a;
    mm->file = mf_arena_strdup(a, k->file);
    mm->ni = k->ni;
    mm->no = k->no;
    mm->nspec = mm->nstates = k->nstates;
    mm->states = mf_arena_alloc(a, (size_t)k->nstates * sizeof *mm->states);
    for (int i = 0; i < k->nstates; i++)
        mm->states[i] = mf_arena_strdup(a, k->states[i]);
    mm->reset = k->reset;
    return mm;
}

void mf_mm_free(mf_mm *mm)
{
    if (mm)
        mf_arena_free(mm->arena);
}

/* Groups grow through a vector kept beside the machine while building. */
typedef MF_VEC(mf_mm_group) group_vec;

static int find_group(const group_vec *g, int from, const char *in)
{
    for (int i = 0; i < g->n; i++)
        if (g->v[i].from == from && strcmp(g->v[i].in, in) == 0)
            return i;
    return -1;
}

/* The line of an alternative of group i, for messages. */
static int group_line(const group_vec *g, int i)
{
    return g->v[i].nalts ? g->v[i].alts[0].line : 0;
}

/* A group (from, in) found or made; -2 (message set) when its cube meets
 * another of the state's. */
static int group_for(mf_mm *mm, group_vec *g, int from, const char *in,
                     int line)
{
    int i = find_group(g, from, in);
    if (i >= 0)
        return i;
    for (int j = 0; j < g->n; j++)
        if (g->v[j].from == from && cubes_meet(g->v[j].in, in)) {
            mf_err_set(MF_EPARSE, "%s:%d: error: a mutation machine needs "
                       "the input cubes of one state disjoint or equal: "
                       "this row's meets the row of line %d",
                       mm->file, line, group_line(g, j));
            return -2;
        }
    if (g->n >= MAX_GROUPS) {
        mf_err_set(MF_ELIMIT, "%s:%d: error: more than %d groups", mm->file,
                   line, MAX_GROUPS);
        return -2;
    }
    mf_mm_group ng = {.from = from, .spec = -1};
    ng.in = mf_arena_strdup(mm->arena, in);
    MF_VEC_PUSH(*g, ng);
    return g->n - 1;
}

/* Add alternative (to, out) to group gi unless it is there; its index. */
static int add_alt(mf_mm *mm, mf_mm_group *gr, int to, const char *out,
                   int line)
{
    for (int a = 0; a < gr->nalts; a++)
        if (gr->alts[a].to == to && strcmp(gr->alts[a].out, out) == 0)
            return a;
    mf_mm_alt *na = mf_arena_alloc(mm->arena,
                                   (size_t)(gr->nalts + 1) * sizeof *na);
    if (gr->nalts)
        memcpy(na, gr->alts, (size_t)gr->nalts * sizeof *na);
    na[gr->nalts].to = to;
    na[gr->nalts].out = mf_arena_strdup(mm->arena, out);
    na[gr->nalts].line = line;
    gr->alts = na;
    return gr->nalts++;
}

static void set_groups(mf_mm *mm, group_vec *g)
{
    mm->ngroups = g->n;
    mm->groups = mf_arena_alloc(mm->arena,
                                (size_t)(g->n ? g->n : 1) * sizeof *mm->groups);
    if (g->n)
        memcpy(mm->groups, g->v, (size_t)g->n * sizeof *g->v);
    MF_VEC_FREE(*g);
    /* The groups by state (a counting sort). */
    mm->gstart = mf_arena_alloc(mm->arena,
                                (size_t)(mm->nstates + 1) * sizeof(int));
    mm->gidx = mf_arena_alloc(mm->arena,
                              (size_t)(mm->ngroups + 1) * sizeof(int));
    for (int i = 0; i < mm->ngroups; i++)
        mm->gstart[mm->groups[i].from + 1]++;
    for (int st = 0; st < mm->nstates; st++)
        mm->gstart[st + 1] += mm->gstart[st];
    int *fill = mf_xcalloc((size_t)mm->nstates + 1, sizeof *fill);
    for (int i = 0; i < mm->ngroups; i++) {
        int st = mm->groups[i].from;
        mm->gidx[mm->gstart[st] + fill[st]++] = i;
    }
    free(fill);
}

static void get_groups(group_vec *g, const mf_mm *mm)
{
    for (int i = 0; i < mm->ngroups; i++)
        MF_VEC_PUSH(*g, mm->groups[i]);
}

/* 1 if cube a lies inside cube b. */
static int cube_inside(const char *a, const char *b)
{
    for (; *a; a++, b++)
        if (*b != '-' && *a != *b)
            return 0;
    return 1;
}

/* The part of `cube` that no group of state s from index `from` on takes,
 * as new groups with alternative (to, out): the cube split on the bits an
 * overlapping group fixes and it leaves free. */
static int add_pieces(mf_mm *mm, group_vec *g, int s, char *cube, int from,
                      int to, const char *out, int line)
{
    for (int j = from; j < g->n; j++) {
        const char *c = g->v[j].in;
        if (g->v[j].from != s || !cubes_meet(cube, c))
            continue;
        if (cube_inside(cube, c))
            return 0; /* an earlier row with the same result takes it */
        int n = (int)strlen(cube), rc = 0;
        char *save = mf_xstrdup(cube);
        for (int b = 0; b < n && rc == 0; b++) {
            if (c[b] == '-' || cube[b] != '-')
                continue;
            cube[b] = c[b] == '0' ? '1' : '0';
            rc = add_pieces(mm, g, s, cube, j + 1, to, out, line);
            cube[b] = c[b];
        }
        memcpy(cube, save, (size_t)n + 1);
        free(save);
        return rc;
    }
    if (g->n >= MAX_GROUPS)
        return mf_err_set(MF_ELIMIT, "%s:%d: error: more than %d groups",
                          mm->file, line, MAX_GROUPS);
    mf_mm_group ng = {.from = s, .spec = 0};
    ng.in = mf_arena_strdup(mm->arena, cube);
    add_alt(mm, &ng, to, out, line);
    MF_VEC_PUSH(*g, ng);
    return 0;
}

int mf_mm_from_spec(mf_mm **out, const mf_kiss2 *k)
{
    *out = NULL;
    mf_mm *mm = mm_new(k);
    group_vec g = {0};
    char *cube = mf_xmalloc((size_t)k->ni + 1);
    int rc = 0;
    for (int i = 0; i < k->nrows && rc == 0; i++) {
        const mf_kiss2_row *r = &k->rows[i];
        if (r->to == MF_KISS2_ANY)
            continue;
        int lo = r->from == MF_KISS2_ANY ? 0 : r->from;
        int hi = r->from == MF_KISS2_ANY ? k->nstates - 1 : r->from;
        /* Rows that overlap have one result (the reader refuses the
         * others): a row's groups are the part of its cube that the rows
         * before it leave. */
        for (int s = lo; s <= hi && rc == 0; s++) {
            memcpy(cube, r->in, (size_t)k->ni + 1);
            rc = add_pieces(mm, &g, s, cube, 0, r->to, r->out, r->line);
        }
    }
    free(cube);
    set_groups(mm, &g);
    if (rc < 0) {
        mf_mm_free(mm);
        return rc;
    }
    *out = mm;
    return 0;
}

static int state_of(mf_mm *mm, const char *name, int add)
{
    for (int i = 0; i < mm->nstates; i++)
        if (strcmp(mm->states[i], name) == 0)
            return i;
    if (!add)
        return -1;
    const char **ns = mf_arena_alloc(mm->arena, (size_t)(mm->nstates + 1) *
                                                    sizeof *ns);
    memcpy(ns, mm->states, (size_t)mm->nstates * sizeof *ns);
    ns[mm->nstates] = mf_arena_strdup(mm->arena, name);
    mm->states = ns;
    return mm->nstates++;
}

int mf_mm_add_rows(mf_mm *mm, const mf_kiss2 *x)
{
    if (x->ni != mm->ni || x->no != mm->no)
        return mf_err_set(MF_EPARSE, "%s:1: error: .i %d .o %d, the "
                          "specification has .i %d .o %d", x->file, x->ni,
                          x->no, mm->ni, mm->no);
    group_vec g = {0};
    get_groups(&g, mm);
    int rc = 0;
    for (int i = 0; i < x->nrows && rc == 0; i++) {
        const mf_kiss2_row *r = &x->rows[i];
        if (r->to == MF_KISS2_ANY)
            continue;
        int to = state_of(mm, x->states[r->to], 1);
        int lo = 0, hi = mm->nspec - 1;
        if (r->from != MF_KISS2_ANY)
            lo = hi = state_of(mm, x->states[r->from], 1);
        for (int s = lo; s <= hi && rc == 0; s++) {
            /* An alternative of every group of s inside the row's cube;
             * a cube that cuts a group is refused. */
            int any = 0;
            for (int gi = 0; gi < g.n && rc == 0; gi++) {
                if (g.v[gi].from != s || !cubes_meet(g.v[gi].in, r->in))
                    continue;
                if (!cube_inside(g.v[gi].in, r->in)) {
                    rc = mf_err_set(MF_EPARSE, "%s:%d: error: input cube "
                                    "%s takes part of the group %s of "
                                    "state %s only", x->file, r->line,
                                    r->in, g.v[gi].in, mm->states[s]);
                    break;
                }
                add_alt(mm, &g.v[gi], to, r->out, r->line);
                any = 1;
            }
            if (rc || any)
                continue;
            if (s < mm->nspec) {
                rc = mf_err_set(MF_EPARSE, "%s:%d: error: state %s takes "
                                "no input of cube %s in the specification "
                                "(an extra row is an alternative of its "
                                "rows)", x->file, r->line, mm->states[s],
                                r->in);
                break;
            }
            const char *save = mm->file;
            mm->file = x->file;
            int gi = group_for(mm, &g, s, r->in, r->line);
            mm->file = save;
            if (gi < 0) {
                rc = MF_EPARSE;
                break;
            }
            add_alt(mm, &g.v[gi], to, r->out, r->line);
        }
    }
    set_groups(mm, &g);
    return rc;
}

int mf_mm_add_ops(mf_mm *mm, unsigned mask, const char *const *states,
                  int nstates)
{
    char *want = calloc((size_t)mm->nstates, 1);
    for (int i = 0; i < nstates; i++) {
        int s = state_of(mm, states[i], 0);
        if (s < 0) {
            free(want);
            return mf_err_set(MF_ENOTFOUND, "%s: no state %s", mm->file,
                              states[i]);
        }
        want[s] = 1;
    }
    if (mask == 0)
        mask = (1u << MF_KOP__COUNT) - 1;
    char *out = mf_xmalloc((size_t)mm->no + 1);
    for (int gi = 0; gi < mm->ngroups; gi++) {
        mf_mm_group *gr = &mm->groups[gi];
        if (gr->spec < 0 || (states && !want[gr->from]))
            continue;
        mf_mm_alt sp = gr->alts[gr->spec];
        if (mask & (1u << MF_KOP_OUTPUT))
            for (int j = 0; j < mm->no; j++)
                for (char v = '0'; v <= '1'; v++) {
                    if (sp.out[j] == v)
                        continue;
                    memcpy(out, sp.out, (size_t)mm->no + 1);
                    out[j] = v;
                    add_alt(mm, gr, sp.to, out, 0);
                }
        if (mask & (1u << MF_KOP_TRANSFER))
            for (int s = 0; s < mm->nspec; s++)
                if (s != sp.to)
                    add_alt(mm, gr, s, sp.out, 0);
        if (mask & (1u << MF_KOP_MISSING))
            add_alt(mm, gr, -1, sp.out, 0);
    }
    free(out);
    free(want);
    return 0;
}

/* ---- counting: decimal big integers, base 10^9 ------------------------ */

static void count_groups(mf_buf *out, const mf_mm *mm, const char *fixed)
{
    MF_VEC(uint32_t) d = {0}; /* little-endian limbs */
    MF_VEC_PUSH(d, 1u);
    for (int g = 0; g < mm->ngroups; g++) {
        if (fixed && fixed[g])
            continue;
        uint64_t carry = 0;
        for (int i = 0; i < d.n; i++) {
            uint64_t v = (uint64_t)d.v[i] * (uint64_t)mm->groups[g].nalts +
                         carry;
            d.v[i] = (uint32_t)(v % 1000000000u);
            carry = v / 1000000000u;
        }
        while (carry) {
            MF_VEC_PUSH(d, (uint32_t)(carry % 1000000000u));
            carry /= 1000000000u;
        }
    }
    mf_buf_printf(out, "%u", d.v[d.n - 1]);
    for (int i = d.n - 2; i >= 0; i--)
        mf_buf_printf(out, "%09u", d.v[i]);
    MF_VEC_FREE(d);
}

void mf_mm_count(mf_buf *out, const mf_mm *mm)
{
    count_groups(out, mm, NULL);
}

void mf_mm_count_free(mf_buf *out, const mf_mm *mm, const char *fixed)
{
    count_groups(out, mm, fixed);
}

int mf_mm_group_at(const mf_mm *mm, int s, const char *x)
{
    for (int k = mm->gstart[s]; k < mm->gstart[s + 1]; k++)
        if (cube_has(mm->groups[mm->gidx[k]].in, x))
            return mm->gidx[k];
    return -1;
}

/* ---- one mutant against the specification ------------------------------ */

/* 1 if output cube `mut` may show what `spec` does not allow. */
static int deviates(const char *spec, const char *mut)
{
    for (; *spec; spec++, mut++)
        if (*spec != '-' && *mut != *spec)
            return 1;
    return 0;
}

/* An input in `cube` that no cube of state t's groups takes, written to
 * x (NUL-terminated): 1, or 0 when they cover it. Splits the cube on the
 * bits the next group fixes and the cube leaves free. */
static int uncovered(const mf_mm *mm, int t, char *cube, int from, char *x)
{
    for (int k = mm->gstart[t] + from; k < mm->gstart[t + 1]; k++) {
        const char *c = mm->groups[mm->gidx[k]].in;
        if (!cubes_meet(cube, c))
            continue;
        int n = (int)strlen(cube), ok = 0;
        char *save = mf_xmalloc((size_t)n + 1);
        memcpy(save, cube, (size_t)n + 1);
        for (int b = 0; b < n && !ok; b++) {
            if (c[b] == '-' || cube[b] != '-')
                continue;
            cube[b] = c[b] == '0' ? '1' : '0'; /* the part c misses */
            ok = uncovered(mm, t, cube, k - mm->gstart[t] + 1, x);
            cube[b] = c[b]; /* the part c may take: on to the next bit */
        }
        memcpy(cube, save, (size_t)n + 1);
        free(save);
        return ok; /* what is left lies inside c */
    }
    for (int b = 0; cube[b]; b++)
        x[b] = cube[b] == '-' ? '0' : cube[b];
    x[strlen(cube)] = '\0';
    return 1;
}

/* The product of machine A's specification (its groups' spec
 * alternatives) and B with `choice` (NULL: B's spec alternatives), as
 * mf_mm_distinguish says; visited marks B's groups. */
static int product(const mf_mm *A, const mf_mm *B, const int *choice,
                   char *visited, char **seq, int *len)
{
    int ns = B->nstates, npairs = A->nstates * ns, ni = A->ni;
    int *prev = malloc((size_t)npairs * sizeof *prev);
    char **via = calloc((size_t)npairs, sizeof *via); /* the input into it */
    int *queue = malloc((size_t)npairs * sizeof *queue);
    for (int i = 0; i < npairs; i++)
        prev[i] = -2;
    int head = 0, tail = 0, found = -1;
    char *x = mf_xmalloc((size_t)ni + 1), *cube = mf_xmalloc((size_t)ni + 1);
    char *hit = NULL;
    mf_arena *la = mf_arena_new(); /* the inputs into the pairs */
    int p0 = A->reset * ns + B->reset;
    prev[p0] = -1;
    queue[tail++] = p0;
    /* The whole product, not only up to the first deviation: `visited`
     * must hold every group a passing test could run through, so that the
     * mutants agreeing there pass the same tests. */
    while (head < tail) {
        int p = queue[head++], s = p / ns, t = p % ns;
        for (int ka = A->gstart[s]; ka < A->gstart[s + 1]; ka++) {
            const mf_mm_group *a = &A->groups[A->gidx[ka]];
            if (a->spec < 0)
                continue;
            const mf_mm_alt *sa = &a->alts[a->spec];
            /* Inputs of a that no group of t takes: a refusal. */
            memcpy(cube, a->in, (size_t)ni + 1);
            if (found < 0 && uncovered(B, t, cube, 0, x)) {
                found = p;
                hit = mf_arena_strdup(la, x);
            }
            for (int kb = B->gstart[t]; kb < B->gstart[t + 1]; kb++) {
                int gb = B->gidx[kb];
                const mf_mm_group *b = &B->groups[gb];
                if (!cubes_meet(a->in, b->in))
                    continue;
                if (visited)
                    visited[gb] = 1;
                const mf_mm_alt *mb =
                    &b->alts[choice ? choice[gb] : b->spec];
                for (int i = 0; i < ni; i++)
                    x[i] = a->in[i] != '-' ? a->in[i]
                           : b->in[i] != '-' ? b->in[i] : '0';
                x[ni] = '\0';
                if (mb->to < 0 || deviates(sa->out, mb->out)) {
                    if (found < 0) {
                        found = p;
                        hit = mf_arena_strdup(la, x);
                    }
                    continue;
                }
                int q = sa->to * ns + mb->to;
                if (prev[q] == -2) {
                    prev[q] = p;
                    via[q] = mf_arena_strdup(la, x);
                    queue[tail++] = q;
                }
            }
        }
    }
    if (found >= 0 && seq) {
        int n = 1;
        for (int q = found; prev[q] >= 0; q = prev[q])
            n++;
        char *s = mf_xmalloc((size_t)n * (size_t)(ni + 1));
        memcpy(s + (size_t)(n - 1) * (size_t)(ni + 1), hit, (size_t)ni + 1);
        int i = n - 2;
        for (int q = found; prev[q] >= 0; q = prev[q], i--)
            memcpy(s + (size_t)i * (size_t)(ni + 1), via[q], (size_t)ni + 1);
        *seq = s;
        *len = n;
    }
    free(prev);
    free(via);
    free(queue);
    free(x);
    free(cube);
    mf_arena_free(la);
    return found >= 0;
}

int mf_mm_distinguish(const mf_mm *mm, const int *choice, char *visited,
                      char **seq, int *len)
{
    return product(mm, mm, choice, visited, seq, len);
}

int mf_kiss2_decide(const mf_kiss2 *k, const mf_kiss2_mutant *mu, char **seq,
                    int *len)
{
    mf_mm *a = NULL, *b = NULL;
    mf_kiss2 *mk = mf_kiss2_apply(k, mu);
    int rc = mf_mm_from_spec(&a, k);
    if (rc == 0)
        rc = mf_mm_from_spec(&b, mk);
    if (rc == 0)
        rc = product(a, b, NULL, NULL, seq, len);
    mf_mm_free(a);
    mf_mm_free(b);
    mf_kiss2_free(mk);
    return rc;
}

int mf_mm_spec_run(const mf_mm *mm, const char *const *inputs, int len)
{
    int s = mm->reset;
    for (int k = 0; k < len; k++) {
        int g = mf_mm_group_at(mm, s, inputs[k]);
        if (g < 0 || mm->groups[g].spec < 0)
            return mf_err_set(MF_EPARSE, "step %d: input %s is not allowed "
                              "in state %s of the specification", k + 1,
                              inputs[k], mm->states[s]);
        s = mm->groups[g].alts[mm->groups[g].spec].to;
    }
    return 0;
}

void mf_mm_print_mutant(mf_buf *out, const mf_mm *mm, const int *choice)
{
    int rows = 0;
    for (int g = 0; g < mm->ngroups; g++)
        rows += mm->groups[g].alts[choice[g]].to >= 0;
    mf_buf_printf(out, ".i %d\n.o %d\n.p %d\n.s %d\n.r %s\n", mm->ni, mm->no,
                  rows, mm->nstates, mm->states[mm->reset]);
    for (int g = 0; g < mm->ngroups; g++) {
        const mf_mm_group *gr = &mm->groups[g];
        const mf_mm_alt *a = &gr->alts[choice[g]];
        int changed = choice[g] != gr->spec && gr->spec >= 0;
        if (changed) {
            const mf_mm_alt *sp = &gr->alts[gr->spec];
            mf_buf_printf(out, "# mutated (specification line %d: %s -> "
                          "%s %s)\n", sp->line, mm->states[gr->from],
                          mm->states[sp->to], sp->out);
        }
        if (a->to < 0) {
            mf_buf_printf(out, "# %s %s removed\n", gr->in,
                          mm->states[gr->from]);
            continue;
        }
        if (mm->ni > 0)
            mf_buf_printf(out, "%s ", gr->in);
        mf_buf_printf(out, "%s %s", mm->states[gr->from], mm->states[a->to]);
        if (mm->no > 0)
            mf_buf_printf(out, " %s", a->out);
        mf_buf_puts(out, "\n");
    }
    mf_buf_puts(out, ".e\n");
}

void mf_mm_dec_add(mf_buf *acc, const char *x)
{
    size_t na = acc->len, nx = strlen(x), n = (na > nx ? na : nx) + 1;
    char *r = mf_xmalloc(n + 1);
    int carry = 0;
    for (size_t i = 0; i < n; i++) {
        int d = carry;
        if (i < na)
            d += acc->data[na - 1 - i] - '0';
        if (i < nx)
            d += x[nx - 1 - i] - '0';
        r[n - 1 - i] = (char)('0' + d % 10);
        carry = d / 10;
    }
    r[n] = '\0';
    size_t z = 0;
    while (z + 1 < n && r[z] == '0')
        z++;
    mf_buf_reset(acc);
    mf_buf_puts(acc, r + z);
    free(r);
}
