/* batch.h - a batch of mutants being decided (worker-internal): the
 * solvers' shared setting, one record per mutant, and the one function
 * that decides a verdict (mf_batch_settle). Every method of the engine
 * works on a batch; this header decides nothing itself.
 *
 * A sub-batch (a joint-search group, a mutant decided alone) is a copy of
 * its batch with its own encoder and `mu` pointing into the parent's
 * records, so that what it learns of a mutant is the parent's too. */
#ifndef MF_BATCH_H
#define MF_BATCH_H

#include <limits.h>
#include <stddef.h>

#include "encode.h"
#include "engine.h"
#include "explore.h"
#include "reach.h"

/* No length known (a kill's, the explorer's). */
#define MF_BATCH_NOLEN (-1)

/* How far the searches of a mutant got besides its verdict. */
typedef enum {
    MF_SEARCHED_NONE,      /* nothing but what its verdict says */
    MF_SEARCHED_POTENTIAL, /* its potential notion is decided (a joint
                              search, the explorer); a kill still has its
                              definite upgrade to try */
    MF_SEARCHED_DEFINITE,  /* the definite upgrade is decided too */
} mf_searched;

/* What the simulator's refusal filter found (refusal.c). */
typedef enum {
    MF_REF_UNTRIED,
    MF_REF_MAY,   /* it may refuse where the original steps */
    MF_REF_NEVER, /* it steps from every reachable state and input where
                     the original does */
} mf_refcap;

/* The explorer's shortest definite kill length (xdlen), or: */
#define MF_XD_UNEXPLORED (-1)
#define MF_XD_LIMIT (-2)              /* past the explorer's limit */
#define MF_XD_NONE INT_MAX            /* none at all */
#define MF_XD_NONE_UPTO (INT_MAX - 1) /* none up to the bound */

/* One mutant of a batch: its verdict and what the searches know of it.
 * The explorer's lengths: xlen, its shortest potential kill (no proof can
 * succeed where one is known, and the searches skip the lengths below
 * it); xref, that kill is a refusal (0: a difference of observables);
 * xdlen, its shortest definite kill or an MF_XD_* value. */
typedef struct {
    const mf_engine_mutant *mut; /* item, repl (the caller's) */
    const mf_model *model;       /* the mutant as a model (the replays) */
    mf_verdict *v;               /* its verdict (the caller's) */
    int todo;                    /* undecided: mf_batch_settle clears it */
    int killed_at;               /* its potential kill's length, or NOLEN */
    mf_searched searched;        /* how far the searches got */
    int xdone;                   /* its explicit-state proof was tried */
    int xlen;                    /* see above; MF_BATCH_NOLEN not known */
    int xref;                    /* see above */
    int xdlen;                   /* see above */
    int lsdone;                  /* lock-step was tried (joint proofs) */
    mf_refcap refcap;            /* the refusal filter's finding */
    const char *stopped;         /* why a search stopped short of the
                                    bound (its verdict's bound then says
                                    how far it got), or NULL */
} mf_batch_mut;



struct mf_steplib;

/* lib: the original's steps learnt by the refinement (steps.h), NULL
 * where the observables do not fix the state. */
typedef struct {
    Z3_context c;
    const mf_model *m;
    mf_enc *E;               /* original (and the batch's variants) */
    mf_enc *EM;              /* mutant copies: E, or the --against model's */
    int meta;                /* mutant copies read variants */
    int qfbv;                /* bit-vector values: the incremental SAT solver */
    mf_explore_ctx *xctx;    /* explicit-state proofs (shared by the batch) */
    int nmut;                /* mutants */
    mf_batch_mut *mu;        /* nmut records */
    const mf_engine_opts *o; /* options */
    int xbig;                /* a product was past the explorer's limit */
    struct mf_steplib *lib;  /* see above */
    mf_reach *rs;            /* the original's reachable states */
    double deadline;         /* of the current mutant's refinement */
} mf_batch;

/* Opens mutant `mut` (model: the mutant as a model) with verdict v:
 * cleared, survived up to o->bound until decided, its determinism noted
 * (orig_det: the original's). */
void mf_batch_mut_open(mf_batch_mut *r, const mf_engine_mutant *mut,
                       const mf_model *model, mf_verdict *v,
                       const mf_engine_opts *o, int orig_det);

/* The one place a verdict is decided: mutant j becomes `kind` and leaves
 * the undecided (todo). A kill takes `test` (owned; the old test is
 * freed) with `notion`; the other kinds take fmt (printf) as their text:
 * the method of equivalent and survived, the reason of unknown and error
 * (for a kill fmt is NULL). The transitions allowed (asserted): any from
 * an undecided mutant; a potential kill upgraded to a definite one; any
 * decision but a kill voided to error (an encoder met a construct it
 * cannot encode: what was decided with it does not hold). */
void mf_batch_settle(mf_batch *B, int j, mf_verdict_kind kind, mf_notion notion,
                     mf_test *test, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* A search of mutant j that stops short of the bound: no kill up to
 * `upto` (-1: none searched), for the reason `why` (a static string). The
 * mutant is then unknown, not survived, unless a later method decides it
 * (mf_batch_unfinished). */
void mf_batch_stop_short(mf_batch *B, int j, int upto, const char *why);
/* After every method: each mutant whose search stopped short of the bound
 * and that nothing decided becomes unknown, its reason naming the cause
 * and how far it searched: a survivor is a mutant searched to the bound. */
void mf_batch_unfinished(mf_batch *B);
/* The same for mutant j alone, once its methods are done. */
void mf_batch_unfinished_one(mf_batch *B, int j);

/* Replays t (owned) on mutant j and records the kill with notion; a replay
 * past the simulator's limit leaves j unknown, another failure an error
 * (found by Z3, yet the simulator disagrees). */
void mf_batch_kill(mf_batch *B, int j, mf_test *t, mf_notion notion);

/* Cheap first: a test found for one mutant often kills others, and a
 * replay costs microseconds where a solver call costs milliseconds.
 * Replays t on mutant j; on a difference records the kill (a copy of the
 * test) with the notion the replay confirmed and returns 1. `shortest`:
 * the caller knows no shorter test kills j. */
int mf_batch_replay_kill(mf_batch *B, int j, const mf_test *t, mf_notion notion,
                         int shortest);

/* A potential kill of j upgraded if test t kills it definitely (then a
 * shortest definite kill: none is shorter than the shortest potential
 * one); searched becomes MF_SEARCHED_DEFINITE. Returns 1 if upgraded. */
int mf_batch_upgrade_replay(mf_batch *B, int j, const mf_test *t);

/* 0 if the explorer showed mutant j killable: a proof of equivalence is
 * bound to fail (and lock-step tries cost most where it does). */
int mf_batch_may_be_equivalent(const mf_batch *B, int j);

/* The assumption selecting mutant j into as[0]: returns 1, or 0 without
 * selectors (one mutant). */
int mf_batch_assume(const mf_batch *B, int j, Z3_ast *as);

/* Marks: an int per mutant of the batch, non-zero marked. How many are
 * marked; 1 if one after j is. */
int mf_batch_nmarked(const mf_batch *B, const int *live);
int mf_batch_marked_after(const mf_batch *B, const int *live, int j);
/* An assumption literal "one of the marked mutants" (NULL without
 * selectors: the batch's one mutant), asserted into s. */
Z3_ast mf_batch_pick(mf_batch *B, Z3_solver s, const int *live);
/* The marked mutant a model picked (its selector true), -1 if none. */
int mf_batch_picked(mf_batch *B, Z3_model mdl, const int *live);
/* Mutant q was killed at length d: its test kills the others marked in
 * live it kills at d (a shortest kill: no marked mutant is killed below
 * d); every mutant decided leaves live. */
void mf_batch_spread(mf_batch *B, int *live, int q, int d);

/* The deadline of a joint search for n mutants: the sum of their own
 * budgets (the engine's timeout, or --mutant-timeout if shorter; `frac`
 * of it, as their own searches get), so that it never has less time than
 * their searches one by one would. */
double mf_batch_joint_deadline(const mf_batch *B, int n, double frac);
/* One query of a joint search: "one of the picked mutants, goal g"
 * within the iteration cap and the deadline (else, and on a solver
 * limit, unknown). */
Z3_lbool mf_batch_joint_query(mf_batch *B, Z3_solver syn, Z3_ast pick, Z3_ast g,
                              int *iters, int cap);

/* A solver, an input table and two copies reading it: the original (o;
 * hard_ok: its ok asserted) and the mutant (m; meta: it reads the
 * selectors, asserted here). `tag` prefixes the constants' names. */
typedef struct {
    Z3_solver s;
    mf_inputs *in;
    mf_unroll *o, *m;
} mf_batch_pair;

void mf_batch_pair_open(mf_batch_pair *x, mf_batch *B, mf_enc *E, mf_enc *EM,
                        int meta, int hard_ok, const char *tag);
void mf_batch_pair_close(mf_batch_pair *x, mf_batch *B);

#endif
