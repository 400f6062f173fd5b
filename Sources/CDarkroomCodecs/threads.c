/*
 * The threads a decoder starts beside its caller (libde265's workers) come out of the
 * process's compute slots, which the Swift side registers (ComputeSlots): a decode then never
 * adds cores' worth of threads on top of the renders already running. Without a registered
 * budget (a program using the C layer alone) every request is granted.
 */
#include "internal.h"

#include <dlfcn.h>
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

/* OpenMP's team size for the parallel regions started on the calling thread (an ICV of that
 * thread), where libgomp is loaded: libraw and libimagequant are built with OpenMP, darkroom is
 * not, so omp_set_num_threads is looked up rather than linked (the toolchain's linker does not
 * see GCC's libgomp.so). Without it a region would start a thread per core, outside the slots. */
void dr_openmp_threads(int count) {
    static void (*set)(int);
    static int looked;
    if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
        void (*found)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
        __atomic_store_n(&set, found, __ATOMIC_RELAXED);
        __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
    }
    void (*f)(int) = __atomic_load_n(&set, __ATOMIC_RELAXED);
    if (f != NULL) f(count);
}
