/* wire_int.h - what the codec's files share inside proto/ (wire.c: the
 * envelope, the decoder's checks, the encoders; wire_result.c: verdicts
 * and tests as Result messages; wire_matrix.c: the kill matrix's
 * messages). Not for use outside proto/. */
#ifndef MF_WIRE_INT_H
#define MF_WIRE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* A content check's report: a message, and the check returns 1. */
typedef struct {
    char msg[200];
} mf_wire_vcheck;

/* The decoder's checks of a Test and of one MutantResult: 0, or 1 with
 * c->msg (wire.c). */
int mf_wire_bad_test(mf_wire_vcheck *c, const Mutfarm__V1__Test *t);
int mf_wire_bad_mutant_result(mf_wire_vcheck *c,
                              const Mutfarm__V1__MutantResult *r);

/* Wrap a body of kind k (a pointer to its message) and encode (wire.c). */
int mf_wire_encode_body(uint8_t **out, size_t *len, mf_wire_kind k,
                        const void *body);

/* protobuf-c wants char *; it only reads while packing (wire.c). */
char *mf_wire_rd(const char *s);

/* A test as a Test message, its text rendered with model m (NULL: none),
 * freed by mf_wire_test_free_built (wire_result.c). */
Mutfarm__V1__Test *mf_wire_test_to_pb(const mf_test *t, const mf_model *m);
void mf_wire_test_free_built(Mutfarm__V1__Test *pt);
Mutfarm__V1__Notion mf_wire_notion_to_pb(mf_notion n);
/* A copy of s cut to the decoder's string limit (wire_result.c). */
char *mf_wire_bounded_dup(const char *s);

#endif
