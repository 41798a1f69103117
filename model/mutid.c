/* mutid.c - what every language's mutant enumeration shares (lang.h): a
 * mutant's stable id, and its classification as a duplicate (of the
 * original item or of an earlier mutant of the same item) or stillborn.
 * Duplicates are found by a SHA-256 of (item index, canonical print of the
 * new item) kept in an open-addressing set, so memory stays at 24 bytes
 * per mutant. */
#include "lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mf_mutant_id(char id[17], const char *op_name, const char *site,
                  const char *repl)
{
    mf_buf b = {0};
    mf_buf_put(&b, op_name, strlen(op_name) + 1);
    mf_buf_put(&b, site, strlen(site) + 1);
    mf_buf_put(&b, repl, strlen(repl));
    char hex[65];
    mf_sha256_hex(hex, b.data, b.len);
    memcpy(id, hex, 16);
    id[16] = '\0';
    mf_buf_free(&b);
}

/* ---- the duplicate set */

typedef struct {
    uint64_t h0, h1; /* 16 bytes of SHA-256; h0 == h1 == 0 marks a free slot */
    uint64_t id;     /* the first twin's id as a number */
} dup_entry;

typedef struct {
    dup_entry *v;
    size_t n, cap; /* cap is a power of two */
} dup_set;

static uint64_t hex_u64(const char *s)
{
    uint64_t x = 0;
    for (int i = 0; i < 16; i++) {
        char c = s[i];
        x = x << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    return x;
}

static void dup_grow(dup_set *s)
{
    size_t ncap = s->cap ? 2 * s->cap : 1024;
    dup_entry *nv = mf_xcalloc(ncap, sizeof(*nv));
    for (size_t i = 0; i < s->cap; i++) {
        dup_entry *e = &s->v[i];
        if (!e->h0 && !e->h1)
            continue;
        size_t j = (size_t)e->h0 & (ncap - 1);
        while (nv[j].h0 || nv[j].h1)
            j = (j + 1) & (ncap - 1);
        nv[j] = *e;
    }
    free(s->v);
    s->v = nv;
    s->cap = ncap;
}

/* Insert (h0, h1) with id; if present, return its entry and insert nothing. */
static const dup_entry *dup_insert(dup_set *s, uint64_t h0, uint64_t h1,
                                   uint64_t id)
{
    if (!h0 && !h1)
        h1 = 1;
    if (2 * (s->n + 1) > s->cap)
        dup_grow(s);
    size_t j = (size_t)h0 & (s->cap - 1);
    while (s->v[j].h0 || s->v[j].h1) {
        if (s->v[j].h0 == h0 && s->v[j].h1 == h1)
            return &s->v[j];
        j = (j + 1) & (s->cap - 1);
    }
    s->v[j].h0 = h0;
    s->v[j].h1 = h1;
    s->v[j].id = id;
    s->n++;
    return NULL;
}

static void key_hash(const mf_buf *key, uint64_t *h0, uint64_t *h1)
{
    char hex[65];
    mf_sha256_hex(hex, key->data, key->len);
    *h0 = hex_u64(hex);
    *h1 = hex_u64(hex + 16);
}

static void item_key(mf_buf *key, const mf_model *m, int index,
                     const mf_item *it)
{
    mf_buf_reset(key);
    mf_buf_printf(key, "%d\n", index);
    if (it)
        mf_print_item(key, m, it);
    else
        mf_buf_puts(key, "<removed>");
}

struct mf_mutant_dups {
    dup_set set;
    int item;                  /* the item whose original key is below */
    uint64_t orig_h0, orig_h1; /* key of that item unmutated */
    mf_buf key;                /* scratch */
};

mf_mutant_dups *mf_mutant_dups_new(void)
{
    mf_mutant_dups *d = mf_xcalloc(1, sizeof *d);
    d->item = -1;
    return d;
}

void mf_mutant_dups_free(mf_mutant_dups *d)
{
    if (!d)
        return;
    free(d->set.v);
    mf_buf_free(&d->key);
    free(d);
}

void mf_mutant_classify(mf_mutant_dups *d, const mf_model *m, mf_mutant *mu,
                        int check, char dup_buf[17], mf_buf *why)
{
    if (mu->item != d->item) {
        item_key(&d->key, m, mu->item, &m->items[mu->item]);
        key_hash(&d->key, &d->orig_h0, &d->orig_h1);
        d->item = mu->item;
    }
    const mf_item *it = mu->new_item;
    uint64_t h0, h1;
    item_key(&d->key, m, mu->item, it);
    key_hash(&d->key, &h0, &h1);
    mu->status = MF_MUT_OK;
    mu->dup_of = NULL;
    mu->why = NULL;
    if (it && h0 == d->orig_h0 && h1 == d->orig_h1) {
        mu->status = MF_MUT_DUPLICATE;
        mu->dup_of = "original";
        return;
    }
    const dup_entry *e = dup_insert(&d->set, h0, h1, hex_u64(mu->id));
    if (e) {
        mu->status = MF_MUT_DUPLICATE;
        snprintf(dup_buf, 17, "%016llx", (unsigned long long)e->id);
        mu->dup_of = dup_buf;
    } else if (check && it && mf_model_check_item(m, it) != 0) {
        mu->status = MF_MUT_STILLBORN;
        mf_buf_reset(why);
        mf_buf_puts(why, mf_err_msg());
        mu->why = why->data;
    }
}
