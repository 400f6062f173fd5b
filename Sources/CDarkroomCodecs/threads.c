/*
 * The threads a decoder starts beside its caller (libde265's workers) come out of the
 * process's compute slots, which the Swift side registers (ComputeSlots): a decode then never
 * adds cores' worth of threads on top of the renders already running. Without a registered
 * budget (a program using the C layer alone) every request is granted.
 */
#include "internal.h"

#include <stdatomic.h>

static _Atomic(dr_threads_take_fn) take_fn;
static _Atomic(dr_threads_give_fn) give_fn;

void dr_set_thread_budget(dr_threads_take_fn take, dr_threads_give_fn give) {
    atomic_store(&give_fn, give);
    atomic_store(&take_fn, take);
}

int dr_threads_take(int wanted) {
    if (wanted <= 0) return 0;
    dr_threads_take_fn take = atomic_load(&take_fn);
    return take != NULL ? take(wanted) : wanted;
}

void dr_threads_give(int count) {
    dr_threads_give_fn give = atomic_load(&give_fn);
    if (give != NULL && count > 0) give(count);
}
