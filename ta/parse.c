/* parse.c - the parser of UPPAAL's declarations language (the subset of
 * docs/timed.md), its expressions and types (parse_decl.c has the
 * declarations, statements, the system text and the labels). It makes
 * the parse tree of ta_int.h (ta_pdecl) over ta_expr nodes whose names are
 * unresolved (TA_R_NONE), except the names it binds itself: select
 * variables (TA_R_SELECT), function locals (TA_R_FLOCAL) and quantified
 * variables (TA_R_QVAR). Types and scopes are the builder's (build.c);
 * what the subset leaves out is refused with an `unsupported:` line
 * naming the construct. */
#include "ta_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deepest nesting of expressions: deeper text is refused rather than
 * overflowing the stack. */
#define MAX_DEPTH 200


int ta_p_next(ta_parser *p) { return ta_lex_next(&p->lex, &p->tok); }

int ta_p_err(ta_parser *p, int code, const char *fmt, const char *arg)
{
    return ta_lex_error(&p->lex, code, p->tok.line, p->tok.col, fmt, arg);
}

int ta_p_is(const ta_parser *p, const char *s)
{
    return (p->tok.kind == TK_PUNCT || p->tok.kind == TK_ID) &&
           !strcmp(p->tok.text, s);
}

int ta_p_expect(ta_parser *p, const char *s)
{
    if (!ta_p_is(p, s)) {
        char m[64];
        snprintf(m, sizeof(m), "expected '%s'", s);
        return ta_lex_error(&p->lex, MF_EPARSE, p->tok.line, p->tok.col,
                            "%s, found '%s'", m, p->tok.text);
    }
    return ta_p_next(p);
}

ta_parser *ta_parser_new(mf_arena *a, const ta_text *t, const char *file,
                         ta_is_type_fn is_type, void *ctx)
{
    ta_parser *p = mf_xcalloc(1, sizeof(*p));
    p->a = a;
    p->is_type = is_type;
    p->ctx = ctx;
    ta_lex_init(&p->lex, a, t, file);
    return p;
}

void ta_parser_free(ta_parser *p)
{
    if (!p)
        return;
    MF_VEC_FREE(p->scope);
    MF_VEC_FREE(p->qname);
    MF_VEC_FREE(p->qid);
    MF_VEC_FREE(p->tnames);
    free(p);
}

void ta_parser_bind_selects(ta_parser *p, const char *const *names, int n)
{
    p->sel = names;
    p->nsel = n;
}

/* ---- expressions ------------------------------------------------------------ */


int ta_p_list_sep(ta_parser *p, const char *close)
{
    if (ta_p_is(p, ","))
        return ta_p_next(p);
    if (ta_p_is(p, close))
        return 0;
    char m[48];
    snprintf(m, sizeof(m), "expected ',' or '%s'", close);
    return ta_lex_error(&p->lex, MF_EPARSE, p->tok.line, p->tok.col,
                        "%s, found '%s'", m, p->tok.text);
}

/* Keywords that are never a name. */
int ta_p_keyword(const char *s)
{
    static const char *const kw[] = {
        "const", "int", "bool", "clock", "chan", "urgent", "broadcast",
        "typedef", "struct", "void", "return", "if", "else", "while", "do",
        "for", "forall", "exists", "sum", "true", "false", "and", "or",
        "not", "imply", "meta", "scalar", "double", "hybrid", "select",
        "system", "priority", "default", "process", "state", "commit",
        "init", "trans", "guard", "sync", "assign", "progress", "string",
        NULL};
    for (int i = 0; kw[i]; i++)
        if (!strcmp(s, kw[i]))
            return 1;
    return 0;
}

/* A name bound by the parser, else an unresolved reference. */
static ta_expr *name_ref(ta_parser *p, const char *name, int line, int col)
{
    ta_expr *e = ta_expr_new(p->a, TA_E_REF, line, col);
    e->name = name;
    for (int i = p->qname.n - 1; i >= 0; i--)
        if (!strcmp(p->qname.v[i], name)) {
            e->ref_kind = TA_R_QVAR;
            e->ref = p->qid.v[i];
            return e;
        }
    if (p->fn)
        for (int i = p->scope.n - 1; i >= 0; i--)
            if (!strcmp(p->fn->locals[p->scope.v[i]].name, name)) {
                e->ref_kind = TA_R_FLOCAL;
                e->ref = p->scope.v[i];
                return e;
            }
    for (int i = 0; i < p->nsel; i++)
        if (!strcmp(p->sel[i], name)) {
            e->ref_kind = TA_R_SELECT;
            e->ref = i;
            return e;
        }
    return e;
}

/* forall (name : type) body, exists ..., sum ... */
static int quantifier(ta_parser *p, int op, ta_expr **out)
{
    ta_expr *e = ta_expr_new(p->a, TA_E_QUANT, p->tok.line, p->tok.col);
    e->op = op;
    int rc = ta_p_next(p);
    if (!rc)
        rc = ta_p_expect(p, "(");
    if (rc)
        return rc;
    if (p->tok.kind != TK_ID || ta_p_keyword(p->tok.text))
        return ta_p_err(p, MF_EPARSE, "expected a name, found '%s'", p->tok.text);
    e->name = p->tok.text;
    ta_ptype t;
    if ((rc = ta_p_next(p)) || (rc = ta_p_expect(p, ":")) || (rc = ta_p_type(p, &t)) ||
        (rc = ta_p_expect(p, ")")))
        return rc;
    if (t.base != PT_INT && t.base != PT_NAMED)
        return ta_lex_error(&p->lex, MF_EUNSUPPORTED, e->line, e->col,
                            "a quantifier over a type that is not an "
                            "integer range");
    /* the range is the builder's: kept as kids[1], kids[2] (bounds) or
     * the typedef's name in `name`... */
    ta_expr *range = ta_expr_new(p->a, TA_E_REF, e->line, e->col);
    range->name = t.base == PT_NAMED ? t.name : NULL;
    if (t.base == PT_INT) {
        if (!t.lo)
            return ta_lex_error(&p->lex, MF_EUNSUPPORTED, e->line, e->col,
                                "a quantifier over plain int");
        ta_expr_add(p->a, range, t.lo);
        ta_expr_add(p->a, range, t.hi);
    }
    e->bvar = p->qnext++;
    if (p->fn && p->qnext > p->fn->nquant)
        p->fn->nquant = p->qnext;
    MF_VEC_PUSH(p->qname, e->name);
    MF_VEC_PUSH(p->qid, e->bvar);
    ta_expr *body = NULL;
    rc = ta_p_expr(p, &body);
    p->qname.n--;
    p->qid.n--;
    if (rc)
        return rc;
    ta_expr_add(p->a, e, body);
    ta_expr_add(p->a, e, range);
    *out = e;
    return 0;
}

static int primary(ta_parser *p, ta_expr **out)
{
    ta_tok t = p->tok;
    int rc;
    if (t.kind == TK_NUM) {
        *out = ta_expr_int(p->a, t.num, t.line, t.col);
        return ta_p_next(p);
    }
    if (t.kind == TK_PUNCT && !strcmp(t.text, "(")) {
        if ((rc = ta_p_next(p)) || (rc = ta_p_expr(p, out)))
            return rc;
        return ta_p_expect(p, ")");
    }
    if (t.kind != TK_ID)
        return ta_p_err(p, MF_EPARSE, "expected an expression, found '%s'", t.text);
    if (!strcmp(t.text, "true") || !strcmp(t.text, "false")) {
        ta_expr *e = ta_expr_new(p->a, TA_E_BOOL, t.line, t.col);
        e->ival = t.text[0] == 't';
        *out = e;
        return ta_p_next(p);
    }
    if (!strcmp(t.text, "forall"))
        return quantifier(p, TA_OP_FORALL, out);
    if (!strcmp(t.text, "exists"))
        return quantifier(p, TA_OP_EXISTS, out);
    if (!strcmp(t.text, "sum"))
        return quantifier(p, TA_OP_SUM, out);
    if (ta_p_keyword(t.text))
        return ta_p_err(p, MF_EPARSE, "expected an expression, found '%s'", t.text);
    *out = name_ref(p, t.text, t.line, t.col);
    return ta_p_next(p);
}

int ta_p_postfix(ta_parser *p, ta_expr **out)
{
    int rc = primary(p, out);
    while (!rc) {
        ta_expr *e = *out;
        if (ta_p_is(p, "[")) {
            ta_expr *ix = NULL;
            if ((rc = ta_p_next(p)) || (rc = ta_p_expr(p, &ix)) || (rc = ta_p_expect(p, "]")))
                return rc;
            ta_expr *n = ta_expr_new(p->a, TA_E_INDEX, e->line, e->col);
            ta_expr_add(p->a, n, e);
            ta_expr_add(p->a, n, ix);
            *out = n;
        } else if (ta_p_is(p, "(")) {
            if (e->kind != TA_E_REF || e->ref_kind != TA_R_NONE)
                return ta_p_err(p, MF_EPARSE, "%s: not a function", "call");
            ta_expr *c = ta_expr_new(p->a, TA_E_CALL, e->line, e->col);
            c->name = e->name;
            if ((rc = ta_p_next(p)))
                return rc;
            while (!ta_p_is(p, ")")) {
                ta_expr *arg = NULL;
                if ((rc = ta_p_assign(p, &arg)))
                    return rc;
                ta_expr_add(p->a, c, arg);
                if ((rc = ta_p_list_sep(p, ")")))
                    return rc;
            }
            rc = ta_p_next(p);
            *out = c;
        } else if (ta_p_is(p, "++") || ta_p_is(p, "--")) {
            ta_expr *n = ta_expr_new(p->a, TA_E_INCDEC, e->line, e->col);
            n->op = ta_p_is(p, "++") ? TA_OP_POSTINC : TA_OP_POSTDEC;
            ta_expr_add(p->a, n, e);
            *out = n;
            rc = ta_p_next(p);
        } else if (ta_p_is(p, ".")) {
            return ta_p_err(p, MF_EUNSUPPORTED, "%s (structs are not read)",
                       "a field access '.'");
        } else if (ta_p_is(p, "'")) {
            return ta_p_err(p, MF_EUNSUPPORTED, "%s", "a clock rate (x')");
        } else {
            return 0;
        }
    }
    return rc;
}

static int unary(ta_parser *p, ta_expr **out)
{
    static const struct {
        const char *s;
        int op;
    } un[] = {{"-", TA_OP_NEG}, {"+", TA_OP_PLUS}, {"!", TA_OP_NOT},
              {"~", TA_OP_BNOT}};
    if (++p->depth > MAX_DEPTH)
        return ta_p_err(p, MF_ELIMIT, "%s", "expression nested too deeply");
    int rc = 0;
    ta_tok t = p->tok;
    if (ta_p_is(p, "++") || ta_p_is(p, "--")) {
        ta_expr *x = NULL;
        if ((rc = ta_p_next(p)) || (rc = unary(p, &x)))
            goto done;
        ta_expr *n = ta_expr_new(p->a, TA_E_INCDEC, t.line, t.col);
        n->op = t.text[0] == '+' ? TA_OP_PREINC : TA_OP_PREDEC;
        ta_expr_add(p->a, n, x);
        *out = n;
        goto done;
    }
    for (size_t k = 0; k < sizeof(un) / sizeof(un[0]); k++)
        if (t.kind == TK_PUNCT && !strcmp(t.text, un[k].s)) {
            ta_expr *x = NULL;
            if ((rc = ta_p_next(p)) || (rc = unary(p, &x)))
                goto done;
            ta_expr *n = ta_expr_un(p->a, un[k].op, x);
            n->line = t.line;
            n->col = t.col;
            *out = n;
            goto done;
        }
    rc = ta_p_postfix(p, out);
done:
    p->depth--;
    return rc;
}

/* The binary levels of C, tightest first (UPPAAL puts <? >? between the
 * shifts and the comparisons). */
static const struct {
    const char *s;
    int op, level;
} binops[] = {
    {"*", TA_OP_MUL, 0},   {"/", TA_OP_DIV, 0},  {"%", TA_OP_MOD, 0},
    {"+", TA_OP_ADD, 1},   {"-", TA_OP_SUB, 1},  {"<<", TA_OP_SHL, 2},
    {">>", TA_OP_SHR, 2},  {"<?", TA_OP_MIN, 3}, {">?", TA_OP_MAX, 3},
    {"<", TA_OP_LT, 4},    {"<=", TA_OP_LE, 4},  {">", TA_OP_GT, 4},
    {">=", TA_OP_GE, 4},   {"==", TA_OP_EQ, 5},  {"!=", TA_OP_NE, 5},
    {"&", TA_OP_BAND, 6},  {"^", TA_OP_BXOR, 7}, {"|", TA_OP_BOR, 8},
    {"&&", TA_OP_AND, 9},  {"||", TA_OP_OR, 10},
};
#define NLEVELS 11

static int binop_at(const ta_parser *p, int level)
{
    if (p->tok.kind != TK_PUNCT)
        return -1;
    for (size_t k = 0; k < sizeof(binops) / sizeof(binops[0]); k++)
        if (binops[k].level == level && !strcmp(p->tok.text, binops[k].s))
            return binops[k].op;
    return -1;
}

static int binary(ta_parser *p, int level, ta_expr **out)
{
    int rc = level == 0 ? unary(p, out) : binary(p, level - 1, out);
    int op;
    while (!rc && (op = binop_at(p, level)) >= 0) {
        ta_expr *r = NULL;
        if ((rc = ta_p_next(p)) ||
            (rc = level == 0 ? unary(p, &r) : binary(p, level - 1, &r)))
            return rc;
        *out = ta_expr_bin(p->a, op, *out, r);
    }
    return rc;
}

static int cond_expr(ta_parser *p, ta_expr **out)
{
    int rc = binary(p, NLEVELS - 1, out);
    if (rc || !ta_p_is(p, "?"))
        return rc;
    ta_expr *a = NULL, *b = NULL;
    if ((rc = ta_p_next(p)) || (rc = ta_p_expr(p, &a)) || (rc = ta_p_expect(p, ":")) ||
        (rc = ta_p_assign(p, &b)))
        return rc;
    ta_expr *e = ta_expr_new(p->a, TA_E_ITE, (*out)->line, (*out)->col);
    ta_expr_add(p->a, e, *out);
    ta_expr_add(p->a, e, a);
    ta_expr_add(p->a, e, b);
    *out = e;
    return 0;
}

int ta_p_assign(ta_parser *p, ta_expr **out)
{
    static const struct {
        const char *s;
        int op;
    } as[] = {{"=", TA_OP_ASSIGN},  {":=", TA_OP_ASSIGN}, {"+=", TA_OP_ADD},
              {"-=", TA_OP_SUB},    {"*=", TA_OP_MUL},    {"/=", TA_OP_DIV},
              {"%=", TA_OP_MOD},    {"&=", TA_OP_BAND},   {"|=", TA_OP_BOR},
              {"^=", TA_OP_BXOR},   {"<<=", TA_OP_SHL},   {">>=", TA_OP_SHR}};
    int rc = cond_expr(p, out);
    if (rc || p->tok.kind != TK_PUNCT)
        return rc;
    for (size_t k = 0; k < sizeof(as) / sizeof(as[0]); k++)
        if (!strcmp(p->tok.text, as[k].s)) {
            ta_expr *r = NULL;
            if ((rc = ta_p_next(p)) || (rc = ta_p_assign(p, &r)))
                return rc;
            ta_expr *e = ta_expr_new(p->a, TA_E_ASSIGN, (*out)->line,
                                     (*out)->col);
            e->op = as[k].op;
            ta_expr_add(p->a, e, *out);
            ta_expr_add(p->a, e, r);
            *out = e;
            return 0;
        }
    return 0;
}

/* The textual operators, below assignment: not, and, or/imply. */
static int text_not(ta_parser *p, ta_expr **out)
{
    if (!ta_p_is(p, "not"))
        return ta_p_assign(p, out);
    ta_tok t = p->tok;
    ta_expr *x = NULL;
    int rc;
    if (++p->depth > MAX_DEPTH)
        return ta_p_err(p, MF_ELIMIT, "%s", "expression nested too deeply");
    if (!(rc = ta_p_next(p)) && !(rc = text_not(p, &x))) {
        *out = ta_expr_un(p->a, TA_OP_NOT, x);
        (*out)->line = t.line;
        (*out)->col = t.col;
    }
    p->depth--;
    return rc;
}

static int text_and(ta_parser *p, ta_expr **out)
{
    int rc = text_not(p, out);
    while (!rc && ta_p_is(p, "and")) {
        ta_expr *r = NULL;
        if ((rc = ta_p_next(p)) || (rc = text_not(p, &r)))
            return rc;
        *out = ta_expr_bin(p->a, TA_OP_AND, *out, r);
    }
    return rc;
}

int ta_p_expr(ta_parser *p, ta_expr **out)
{
    if (++p->depth > MAX_DEPTH)
        return ta_p_err(p, MF_ELIMIT, "%s", "expression nested too deeply");
    int rc = text_and(p, out);
    while (!rc && (ta_p_is(p, "or") || ta_p_is(p, "imply"))) {
        int op = ta_p_is(p, "or") ? TA_OP_OR : TA_OP_IMPLY;
        ta_expr *r = NULL;
        if ((rc = ta_p_next(p)) || (rc = text_and(p, &r)))
            break;
        *out = ta_expr_bin(p->a, op, *out, r);
    }
    p->depth--;
    return rc;
}

/* ---- types and declarations ------------------------------------------------- */

int ta_p_is_type_name(ta_parser *p, const char *name)
{
    for (int i = 0; i < p->tnames.n; i++)
        if (!strcmp(p->tnames.v[i], name))
            return 1;
    return p->is_type && p->is_type(p->ctx, name);
}

int ta_p_starts_type(ta_parser *p)
{
    static const char *const tw[] = {"const", "int", "bool", "clock", "chan",
                                     "urgent", "broadcast", "void", "meta",
                                     "struct", "scalar", "double", "hybrid",
                                     "string", NULL};
    if (p->tok.kind != TK_ID)
        return 0;
    for (int i = 0; tw[i]; i++)
        if (!strcmp(p->tok.text, tw[i]))
            return 1;
    return ta_p_is_type_name(p, p->tok.text);
}

int ta_p_type(ta_parser *p, ta_ptype *t)
{
    int rc = 0;
    memset(t, 0, sizeof(*t));
    for (;;) {
        if (ta_p_is(p, "const"))
            t->is_const = 1;
        else if (ta_p_is(p, "urgent"))
            t->urgent = 1;
        else if (ta_p_is(p, "broadcast"))
            t->broadcast = 1;
        else if (ta_p_is(p, "meta") || ta_p_is(p, "hybrid"))
            return ta_p_err(p, MF_EUNSUPPORTED, "the '%s' qualifier", p->tok.text);
        else
            break;
        if ((rc = ta_p_next(p)))
            return rc;
    }
    if (p->tok.kind != TK_ID)
        return ta_p_err(p, MF_EPARSE, "expected a type, found '%s'", p->tok.text);
    const char *w = p->tok.text;
    if (!strcmp(w, "int"))
        t->base = PT_INT;
    else if (!strcmp(w, "bool"))
        t->base = PT_BOOL;
    else if (!strcmp(w, "clock"))
        t->base = PT_CLOCK;
    else if (!strcmp(w, "chan"))
        t->base = PT_CHAN;
    else if (!strcmp(w, "void"))
        t->base = PT_VOID;
    else if (!strcmp(w, "struct") || !strcmp(w, "scalar") ||
             !strcmp(w, "double") || !strcmp(w, "string"))
        return ta_p_err(p, MF_EUNSUPPORTED, "the type '%s'", w);
    else if (ta_p_is_type_name(p, w)) {
        t->base = PT_NAMED;
        t->name = w;
    } else
        return ta_p_err(p, MF_EPARSE, "unknown type '%s'", w);
    if ((rc = ta_p_next(p)))
        return rc;
    if (t->base == PT_INT && ta_p_is(p, "[")) {
        if ((rc = ta_p_next(p)) || (rc = ta_p_expr(p, &t->lo)) || (rc = ta_p_expect(p, ",")) ||
            (rc = ta_p_expr(p, &t->hi)) || (rc = ta_p_expect(p, "]")))
            return rc;
    }
    if ((t->urgent || t->broadcast) && t->base != PT_CHAN && t->base != PT_NAMED)
        return ta_p_err(p, MF_EPARSE, "%s: only channels are urgent or broadcast",
                   w);
    return 0;
}

