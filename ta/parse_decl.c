/* parse_decl.c - the declarations language's declarations and
 * statements (parse.c has its expressions and types): variables,
 * constants, typedefs, channels, functions with their bodies, template
 * parameters, the system text (instantiations and the system line) and an
 * edge's labels (select, sync, updates). Function locals are bound here
 * (TA_R_FLOCAL); the rest is the builder's. */
#include "ta_parse.h"

#include <stdlib.h>
#include <string.h>

/* Deepest nesting of statements (parse.c has the expressions'). */
#define MAX_DEPTH 200

/* name [dims] */
static int declarator(ta_parser *p, ta_pdecl *d)
{
    if (p->tok.kind != TK_ID || ta_p_keyword(p->tok.text))
        return ta_p_err(p, MF_EPARSE, "expected a name, found '%s'", p->tok.text);
    d->name = p->tok.text;
    d->line = p->tok.line;
    d->col = p->tok.col;
    int rc = ta_p_next(p);
    while (!rc && ta_p_is(p, "[")) {
        if (d->ndims == TA_MAX_DIMS)
            return ta_p_err(p, MF_EUNSUPPORTED, "%s", "more than 3 array dimensions");
        if ((rc = ta_p_next(p)))
            return rc;
        if (ta_p_starts_type(p))
            return ta_p_err(p, MF_EUNSUPPORTED, "%s",
                       "an array indexed by a type (write its size)");
        if ((rc = ta_p_expr(p, &d->dims[d->ndims++])) || (rc = ta_p_expect(p, "]")))
            return rc;
    }
    return rc;
}

static int initialiser(ta_parser *p, ta_expr **out)
{
    if (!ta_p_is(p, "{"))
        return ta_p_assign(p, out);
    if (++p->depth > MAX_DEPTH)
        return ta_p_err(p, MF_ELIMIT, "%s", "initialiser nested too deeply");
    ta_expr *l = ta_expr_new(p->a, TA_E_LIST, p->tok.line, p->tok.col);
    int rc = ta_p_next(p);
    while (!rc && !ta_p_is(p, "}")) {
        ta_expr *x = NULL;
        if ((rc = initialiser(p, &x)))
            break;
        ta_expr_add(p->a, l, x);
        rc = ta_p_list_sep(p, "}");
    }
    if (!rc)
        rc = ta_p_next(p);
    p->depth--;
    *out = l;
    return rc;
}

typedef MF_VEC(ta_pdecl) pdecl_vec;

static int block(ta_parser *p, ta_stmt **out);
static int statement(ta_parser *p, ta_stmt **out);

static ta_stmt *stmt_new(ta_parser *p, ta_skind k)
{
    ta_stmt *s = mf_arena_alloc(p->a, sizeof(*s));
    s->kind = k;
    s->line = p->tok.line;
    return s;
}

static void stmt_add(ta_parser *p, ta_stmt *s, ta_stmt *kid)
{
    ta_stmt **k = mf_arena_alloc(p->a, (size_t)(s->nkids + 1) * sizeof(*k));
    if (s->nkids)
        memcpy(k, s->kids, (size_t)s->nkids * sizeof(*k));
    k[s->nkids++] = kid;
    s->kids = k;
}

/* A new local of the current function; returns its index. */
static int add_local(ta_parser *p, const ta_pdecl *d)
{
    ta_pdecl *fn = p->fn;
    ta_pdecl *v = mf_arena_alloc(p->a, (size_t)(fn->nlocals + 1) * sizeof(*v));
    if (fn->nlocals)
        memcpy(v, fn->locals, (size_t)fn->nlocals * sizeof(*v));
    v[fn->nlocals] = *d;
    fn->locals = v;
    return fn->nlocals++;
}

/* Local declarations inside a block: appended to the block. */
static int local_decl(ta_parser *p, ta_stmt *blk)
{
    ta_ptype t;
    int rc = ta_p_type(p, &t);
    if (rc)
        return rc;
    if (t.base == PT_CHAN || t.base == PT_CLOCK || t.base == PT_VOID)
        return ta_p_err(p, MF_EUNSUPPORTED, "%s", "a local channel, clock or void");
    for (;;) {
        ta_pdecl d = {0};
        d.kind = PD_VAR;
        d.type = t;
        if ((rc = declarator(p, &d)))
            return rc;
        if (ta_p_is(p, "=") || ta_p_is(p, ":=")) {
            if ((rc = ta_p_next(p)) || (rc = initialiser(p, &d.init)))
                return rc;
        }
        ta_stmt *s = stmt_new(p, TA_S_LOCAL);
        s->line = d.line;
        s->e = d.init;
        s->local = add_local(p, &d);
        MF_VEC_PUSH(p->scope, s->local);
        stmt_add(p, blk, s);
        if (ta_p_is(p, ";"))
            return ta_p_next(p);
        if ((rc = ta_p_expect(p, ",")))
            return rc;
    }
}

static int block(ta_parser *p, ta_stmt **out)
{
    ta_stmt *b = stmt_new(p, TA_S_BLOCK);
    int rc = ta_p_expect(p, "{");
    int mark = p->scope.n;
    while (!rc && !ta_p_is(p, "}")) {
        if (p->tok.kind == TK_EOF) {
            rc = ta_p_err(p, MF_EPARSE, "%s: missing '}'", "end of text");
            break;
        }
        if (ta_p_starts_type(p)) {
            rc = local_decl(p, b);
        } else {
            ta_stmt *s = NULL;
            if (!(rc = statement(p, &s)))
                stmt_add(p, b, s);
        }
    }
    p->scope.n = mark;
    if (!rc)
        rc = ta_p_next(p);
    *out = b;
    return rc;
}

static int paren_expr(ta_parser *p, ta_expr **e)
{
    int rc = ta_p_expect(p, "(");
    if (!rc)
        rc = ta_p_expr(p, e);
    if (!rc)
        rc = ta_p_expect(p, ")");
    return rc;
}

static int statement(ta_parser *p, ta_stmt **out)
{
    int rc = 0;
    if (++p->depth > MAX_DEPTH)
        return ta_p_err(p, MF_ELIMIT, "%s", "statements nested too deeply");
    ta_stmt *s = NULL, *k = NULL;
    if (ta_p_is(p, "{")) {
        rc = block(p, &s);
    } else if (ta_p_is(p, ";")) {
        s = stmt_new(p, TA_S_BLOCK);
        rc = ta_p_next(p);
    } else if (ta_p_is(p, "if")) {
        s = stmt_new(p, TA_S_IF);
        if (!(rc = ta_p_next(p)) && !(rc = paren_expr(p, &s->e)) &&
            !(rc = statement(p, &k))) {
            stmt_add(p, s, k);
            if (ta_p_is(p, "else") && !(rc = ta_p_next(p)) && !(rc = statement(p, &k)))
                stmt_add(p, s, k);
        }
    } else if (ta_p_is(p, "while")) {
        s = stmt_new(p, TA_S_WHILE);
        if (!(rc = ta_p_next(p)) && !(rc = paren_expr(p, &s->e)) &&
            !(rc = statement(p, &k)))
            stmt_add(p, s, k);
    } else if (ta_p_is(p, "do")) {
        s = stmt_new(p, TA_S_DO);
        if (!(rc = ta_p_next(p)) && !(rc = statement(p, &k))) {
            stmt_add(p, s, k);
            if (!(rc = ta_p_expect(p, "while")) && !(rc = paren_expr(p, &s->e)))
                rc = ta_p_expect(p, ";");
        }
    } else if (ta_p_is(p, "for")) {
        s = stmt_new(p, TA_S_FOR);
        if ((rc = ta_p_next(p)) || (rc = ta_p_expect(p, "(")))
            goto done;
        if (p->tok.kind == TK_ID && !ta_p_starts_type(p)) {
            /* `for (i : type)` is told apart by the ':' after the name */
            ta_lex save = p->lex;
            ta_tok t = p->tok, t2;
            if (!ta_lex_next(&p->lex, &t2) && t2.kind == TK_PUNCT &&
                !strcmp(t2.text, ":")) {
                rc = ta_p_err(p, MF_EUNSUPPORTED, "%s", "a for loop over a type");
                goto done;
            }
            p->lex = save;
            p->tok = t;
        }
        if (ta_p_starts_type(p)) {
            rc = ta_p_err(p, MF_EUNSUPPORTED, "%s",
                     "a declaration in a for loop's head");
            goto done;
        }
        if (!ta_p_is(p, ";") && (rc = ta_p_expr(p, &s->init)))
            goto done;
        if ((rc = ta_p_expect(p, ";")))
            goto done;
        if (!ta_p_is(p, ";") && (rc = ta_p_expr(p, &s->e)))
            goto done;
        if ((rc = ta_p_expect(p, ";")))
            goto done;
        if (!ta_p_is(p, ")") && (rc = ta_p_expr(p, &s->step)))
            goto done;
        if (!(rc = ta_p_expect(p, ")")) && !(rc = statement(p, &k)))
            stmt_add(p, s, k);
    } else if (ta_p_is(p, "return")) {
        s = stmt_new(p, TA_S_RETURN);
        if (!(rc = ta_p_next(p)) && !ta_p_is(p, ";"))
            rc = ta_p_expr(p, &s->e);
        if (!rc)
            rc = ta_p_expect(p, ";");
    } else if (ta_p_is(p, "switch") || ta_p_is(p, "break") || ta_p_is(p, "continue") ||
               ta_p_is(p, "case")) {
        rc = ta_p_err(p, MF_EUNSUPPORTED, "the statement '%s'", p->tok.text);
    } else {
        s = stmt_new(p, TA_S_EXPR);
        if (!(rc = ta_p_expr(p, &s->e)))
            rc = ta_p_expect(p, ";");
    }
done:
    p->depth--;
    *out = s;
    return rc;
}

/* One parameter: type [&] name [dims]. */
static int param(ta_parser *p, ta_pdecl *d)
{
    memset(d, 0, sizeof(*d));
    d->kind = PD_VAR;
    int rc = ta_p_type(p, &d->type);
    if (rc)
        return rc;
    if (ta_p_is(p, "&")) {
        d->type.is_ref = 1;
        if ((rc = ta_p_next(p)))
            return rc;
    }
    return declarator(p, d);
}

static int function(ta_parser *p, ta_pdecl *d)
{
    d->kind = PD_FUNC;
    int rc = ta_p_next(p); /* ( */
    pdecl_vec ps = {0};
    while (!rc && !ta_p_is(p, ")")) {
        ta_pdecl q;
        if ((rc = param(p, &q)))
            break;
        MF_VEC_PUSH(ps, q);
        rc = ta_p_list_sep(p, ")");
    }
    if (!rc)
        rc = ta_p_next(p);
    if (!rc) {
        d->nparams = d->nlocals = ps.n;
        d->locals = mf_arena_alloc(p->a, (size_t)(ps.n + 1) * sizeof(ta_pdecl));
        if (ps.n)
            memcpy(d->locals, ps.v, (size_t)ps.n * sizeof(ta_pdecl));
        p->fn = d;
        p->scope.n = 0;
        for (int i = 0; i < ps.n; i++)
            MF_VEC_PUSH(p->scope, i);
        p->qnext = 0;
        if (!ta_p_is(p, "{"))
            rc = ta_p_err(p, MF_EPARSE, "expected a function body, found '%s'",
                     p->tok.text);
        else
            rc = block(p, &d->body);
        p->fn = NULL;
        p->scope.n = 0;
    }
    MF_VEC_FREE(ps);
    return rc;
}

/* One declaration statement; pushes its declarations to v. */
static int decl(ta_parser *p, pdecl_vec *v)
{
    int rc;
    if (ta_p_is(p, "typedef")) {
        ta_pdecl d = {0};
        d.kind = PD_TYPEDEF;
        if ((rc = ta_p_next(p)))
            return rc;
        if (ta_p_is(p, "struct")) {
            /* a struct's typedef is read (models declare ones they never
             * use); a value of the type is refused where it is declared */
            d.type.base = PT_STRUCT;
            if ((rc = ta_p_next(p)) || (rc = ta_p_expect(p, "{")))
                return rc;
            pdecl_vec fields = {0};
            while (!rc && !ta_p_is(p, "}") && p->tok.kind != TK_EOF)
                rc = decl(p, &fields);
            MF_VEC_FREE(fields);
            if (rc || (rc = ta_p_expect(p, "}")))
                return rc;
        } else if ((rc = ta_p_type(p, &d.type))) {
            return rc;
        }
        if ((rc = declarator(p, &d)))
            return rc;
        if (d.ndims)
            return ta_p_err(p, MF_EUNSUPPORTED, "%s", "a typedef of an array");
        MF_VEC_PUSH(p->tnames, d.name);
        MF_VEC_PUSH(*v, d);
        return ta_p_expect(p, ";");
    }
    if (!ta_p_starts_type(p)) {
        if (p->tok.kind == TK_ID && !ta_p_keyword(p->tok.text))
            return ta_p_err(p, MF_EPARSE, "unknown type '%s'", p->tok.text);
        return ta_p_err(p, MF_EPARSE, "expected a declaration, found '%s'",
                   p->tok.text);
    }
    ta_ptype t;
    if ((rc = ta_p_type(p, &t)))
        return rc;
    for (;;) {
        ta_pdecl d = {0};
        d.kind = PD_VAR;
        d.type = t;
        if ((rc = declarator(p, &d)))
            return rc;
        if (ta_p_is(p, "(")) {
            if (d.ndims)
                return ta_p_err(p, MF_EPARSE, "%s", "a function returning an array");
            if ((rc = function(p, &d)))
                return rc;
            MF_VEC_PUSH(*v, d);
            return 0;
        }
        if (t.base == PT_VOID)
            return ta_p_err(p, MF_EPARSE, "a void variable '%s'", d.name);
        if (ta_p_is(p, "=") || ta_p_is(p, ":=")) {
            if ((rc = ta_p_next(p)) || (rc = initialiser(p, &d.init)))
                return rc;
        }
        MF_VEC_PUSH(*v, d);
        if (ta_p_is(p, ";"))
            return ta_p_next(p);
        if ((rc = ta_p_expect(p, ",")))
            return rc;
    }
}

static void take(pdecl_vec *v, mf_arena *a, ta_pdecls *out)
{
    out->n = v->n;
    out->v = mf_arena_alloc(a, (size_t)(v->n + 1) * sizeof(ta_pdecl));
    if (v->n)
        memcpy(out->v, v->v, (size_t)v->n * sizeof(ta_pdecl));
    MF_VEC_FREE(*v);
}

/* The declarations and, in the system text, what else it holds. */
static int decls_until(ta_parser *p, pdecl_vec *v, ta_psystem *sys);

int ta_parse_decls(ta_parser *p, ta_pdecls *out)
{
    pdecl_vec v = {0};
    int rc = ta_p_next(p);
    if (!rc)
        rc = decls_until(p, &v, NULL);
    take(&v, p->a, out);
    return rc;
}

/* ---- the system text --------------------------------------------------------- */

typedef MF_VEC(ta_pinst) pinst_vec;

static int instantiation(ta_parser *p, ta_psystem *sys, pinst_vec *iv)
{
    ta_pinst in = {0};
    in.name = p->tok.text;
    in.line = p->tok.line;
    int rc = ta_p_next(p);
    if (!rc && ta_p_is(p, "("))
        return ta_p_err(p, MF_EUNSUPPORTED, "%s",
                   "an instantiation with parameters of its own");
    if (!rc && !ta_p_is(p, "=") && !ta_p_is(p, ":="))
        return ta_p_err(p, MF_EPARSE, "expected '=' after '%s'", in.name);
    if (!rc)
        rc = ta_p_next(p);
    if (!rc && (p->tok.kind != TK_ID || ta_p_keyword(p->tok.text)))
        return ta_p_err(p, MF_EPARSE, "expected a template, found '%s'",
                   p->tok.text);
    in.tmpl = p->tok.text;
    if (!rc)
        rc = ta_p_next(p);
    if (!rc)
        rc = ta_p_expect(p, "(");
    MF_VEC(ta_expr *) args = {0};
    while (!rc && !ta_p_is(p, ")")) {
        ta_expr *a = NULL;
        if ((rc = ta_p_assign(p, &a)))
            break;
        MF_VEC_PUSH(args, a);
        rc = ta_p_list_sep(p, ")");
    }
    if (!rc && !(rc = ta_p_next(p)))
        rc = ta_p_expect(p, ";");
    in.nargs = args.n;
    in.args = mf_arena_alloc(p->a, (size_t)(args.n + 1) * sizeof(ta_expr *));
    if (args.n)
        memcpy(in.args, args.v, (size_t)args.n * sizeof(ta_expr *));
    MF_VEC_FREE(args);
    (void)sys;
    MF_VEC_PUSH(*iv, in);
    return rc;
}

static int system_line(ta_parser *p, ta_psystem *sys)
{
    MF_VEC(const char *) names = {0};
    MF_VEC(int) lines = {0};
    int rc = ta_p_next(p);
    while (!rc) {
        if (p->tok.kind != TK_ID || ta_p_keyword(p->tok.text)) {
            rc = ta_p_err(p, MF_EPARSE, "expected a process, found '%s'",
                     p->tok.text);
            break;
        }
        MF_VEC_PUSH(names, p->tok.text);
        MF_VEC_PUSH(lines, p->tok.line);
        if ((rc = ta_p_next(p)))
            break;
        if (ta_p_is(p, ";")) {
            rc = ta_p_next(p);
            break;
        }
        if (ta_p_is(p, "<")) {
            rc = ta_p_err(p, MF_EUNSUPPORTED, "%s", "process priorities ('<')");
            break;
        }
        rc = ta_p_expect(p, ",");
    }
    sys->nsys = names.n;
    sys->sys = mf_arena_alloc(p->a, (size_t)(names.n + 1) * sizeof(char *));
    sys->sys_line = mf_arena_alloc(p->a, (size_t)(names.n + 1) * sizeof(int));
    if (names.n) {
        memcpy(sys->sys, names.v, (size_t)names.n * sizeof(char *));
        memcpy(sys->sys_line, lines.v, (size_t)names.n * sizeof(int));
    }
    MF_VEC_FREE(names);
    MF_VEC_FREE(lines);
    if (!rc && p->tok.kind != TK_EOF)
        rc = ta_p_err(p, MF_EUNSUPPORTED, "'%s' after the system line",
                 p->tok.text);
    return rc;
}

static int decls_until(ta_parser *p, pdecl_vec *v, ta_psystem *sys)
{
    pinst_vec iv = {0};
    int rc = 0;
    while (!rc && p->tok.kind != TK_EOF) {
        if (sys && ta_p_is(p, "system")) {
            rc = system_line(p, sys);
            break;
        }
        if (sys && p->tok.kind == TK_ID && !ta_p_starts_type(p) &&
            !ta_p_is(p, "typedef") && !ta_p_keyword(p->tok.text)) {
            rc = instantiation(p, sys, &iv);
            continue;
        }
        if (ta_p_is(p, "progress") || ta_p_is(p, "gantt") || ta_p_is(p, "priority") ||
            ta_p_is(p, "import") || ta_p_is(p, "before_update") ||
            ta_p_is(p, "after_update")) {
            rc = ta_p_err(p, MF_EUNSUPPORTED, "'%s'", p->tok.text);
            break;
        }
        if (ta_p_is(p, "chan")) {
            /* chan priority a < b; */
            ta_lex save = p->lex;
            ta_tok t = p->tok, t2;
            if (!ta_lex_next(&p->lex, &t2) && t2.kind == TK_ID &&
                !strcmp(t2.text, "priority")) {
                rc = ta_p_err(p, MF_EUNSUPPORTED, "%s", "channel priorities");
                break;
            }
            p->lex = save;
            p->tok = t;
        }
        rc = decl(p, v);
    }
    if (sys) {
        sys->ninst = iv.n;
        sys->inst = mf_arena_alloc(p->a, (size_t)(iv.n + 1) * sizeof(ta_pinst));
        if (iv.n)
            memcpy(sys->inst, iv.v, (size_t)iv.n * sizeof(ta_pinst));
        if (!rc && !sys->nsys)
            rc = ta_p_err(p, MF_EPARSE, "%s: no 'system' line", "system text");
    }
    MF_VEC_FREE(iv);
    return rc;
}

int ta_parse_system(ta_parser *p, ta_psystem *out)
{
    pdecl_vec v = {0};
    memset(out, 0, sizeof(*out));
    int rc = ta_p_next(p);
    if (!rc)
        rc = decls_until(p, &v, out);
    take(&v, p->a, &out->decls);
    return rc;
}

/* ---- labels ------------------------------------------------------------------ */

static int at_end(ta_parser *p)
{
    if (p->tok.kind == TK_EOF)
        return 0;
    return ta_p_err(p, MF_EPARSE, "unexpected '%s' after the expression",
               p->tok.text);
}

/* After a label list's item: a ',' skipped, or the end of the text. */
static int label_sep(ta_parser *p)
{
    return ta_p_is(p, ",") ? ta_p_next(p) : at_end(p);
}

int ta_parse_expr_text(ta_parser *p, ta_expr **out)
{
    *out = NULL;
    int rc = ta_p_next(p);
    if (rc || p->tok.kind == TK_EOF)
        return rc;
    if ((rc = ta_p_expr(p, out)))
        return rc;
    return at_end(p);
}

int ta_parse_expr_list(ta_parser *p, ta_expr ***out, int *n)
{
    MF_VEC(ta_expr *) v = {0};
    int rc = ta_p_next(p);
    while (!rc && p->tok.kind != TK_EOF) {
        ta_expr *e = NULL;
        if ((rc = ta_p_expr(p, &e)))
            break;
        MF_VEC_PUSH(v, e);
        rc = label_sep(p);
    }
    *n = v.n;
    *out = mf_arena_alloc(p->a, (size_t)(v.n + 1) * sizeof(ta_expr *));
    if (v.n)
        memcpy(*out, v.v, (size_t)v.n * sizeof(ta_expr *));
    MF_VEC_FREE(v);
    return rc;
}

int ta_parse_select(ta_parser *p, const char ***names, ta_ptype **types,
                    int *n)
{
    MF_VEC(const char *) nv = {0};
    MF_VEC(ta_ptype) tv = {0};
    int rc = ta_p_next(p);
    while (!rc && p->tok.kind != TK_EOF) {
        if (p->tok.kind != TK_ID || ta_p_keyword(p->tok.text)) {
            rc = ta_p_err(p, MF_EPARSE, "expected a name, found '%s'", p->tok.text);
            break;
        }
        MF_VEC_PUSH(nv, p->tok.text);
        ta_ptype t;
        if ((rc = ta_p_next(p)) || (rc = ta_p_expect(p, ":")) || (rc = ta_p_type(p, &t)))
            break;
        MF_VEC_PUSH(tv, t);
        rc = label_sep(p);
    }
    *n = nv.n;
    *names = mf_arena_alloc(p->a, (size_t)(nv.n + 1) * sizeof(char *));
    *types = mf_arena_alloc(p->a, (size_t)(nv.n + 1) * sizeof(ta_ptype));
    if (nv.n)
        memcpy(*names, nv.v, (size_t)nv.n * sizeof(char *));
    if (tv.n)
        memcpy(*types, tv.v, (size_t)tv.n * sizeof(ta_ptype));
    MF_VEC_FREE(nv);
    MF_VEC_FREE(tv);
    return rc;
}

int ta_parse_sync(ta_parser *p, ta_syncdir *dir, ta_expr **e)
{
    *dir = TA_SYNC_NONE;
    *e = NULL;
    int rc = ta_p_next(p);
    if (rc || p->tok.kind == TK_EOF)
        return rc;
    if ((rc = ta_p_postfix(p, e)))
        return rc;
    if (ta_p_is(p, "!"))
        *dir = TA_SYNC_SEND;
    else if (ta_p_is(p, "?"))
        *dir = TA_SYNC_RECV;
    else
        return ta_p_err(p, MF_EPARSE, "expected '!' or '?' after the channel, "
                   "found '%s'", p->tok.text);
    if ((rc = ta_p_next(p)))
        return rc;
    return at_end(p);
}

int ta_parse_params(ta_parser *p, ta_pdecls *out)
{
    pdecl_vec v = {0};
    int rc = ta_p_next(p);
    while (!rc && p->tok.kind != TK_EOF) {
        ta_pdecl d;
        if ((rc = param(p, &d)))
            break;
        MF_VEC_PUSH(v, d);
        rc = label_sep(p);
    }
    take(&v, p->a, out);
    return rc;
}
