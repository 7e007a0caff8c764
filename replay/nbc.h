/* nbc.h - non-blocking collectives (tir extension: "ibcast", "iallreduce", ...), in the
 * shapes SimGrid 3.32 gives them (src/smpi/colls/smpi_nbc_impl.cpp): every message of the
 * call is posted at once, and the call's request completes when all have. */
#ifndef TIR_NBC_H
#define TIR_NBC_H

#include "coll.h"

/* Appends a's messages to p (isends and irecvs only, no wait). */
void nbc_generate(const coll_args *a, coll_prog *p);

#endif
