/* tae_view.h - the timed engine's automaton (tae_aut.h) built from the
 * front-ends' flattened network (ta/ta.h): the one process that is not an
 * environment (the tester plays the environments), its select variables
 * expanded into one edge per value, guards split into their clock
 * conjunction and integer part, channels observed as the network's roles
 * say (inputs, outputs; a sync on an internal channel or none is an
 * internal step). What the engine cannot take yet is refused with an
 * "unsupported:" message rather than approximated. */
#ifndef MF_TAE_VIEW_H
#define MF_TAE_VIEW_H

#include "ta.h"
#include "tae_aut.h"

/* 0 and *out (free with tae_aut_free); MF_EUNSUPPORTED with a message
 * naming the construct otherwise. */
int tae_view(tae_aut **out, const ta_net *n);

#endif
