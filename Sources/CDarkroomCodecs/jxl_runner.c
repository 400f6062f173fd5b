/*
 * libjxl's parallel runner, on darkroom's thread budget. libjxl hands each parallel stage
 * (groups of 256×256 pixels, rows of a transform) to the runner it was given; this one runs a
 * stage on the calling thread plus as many helpers as the compute slots grant at that moment
 * (dr_threads_take, up to one per core beside the caller), and gives them back when the stage
 * ends. libjxl's own thread pool would start a thread per core on top of the renders already
 * running. Helpers are started per stage: a stage is tens of milliseconds of work on a
 * photograph, a thread start a few microseconds.
 *
 * The runner also carries a decode's deadline: once it has passed, no further group starts
 * and the stage fails, which libjxl turns into an ordinary error (jxl_runner_expired tells).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "jxl_runner.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* Helpers beyond this are not worth their start on a stage. */
#define MAX_HELPERS 15

static int core_count(void) {
    cpu_set_t set;
    long cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : (int)cores;
}

typedef struct {
    dr_jxl_runner *runner;
    void *opaque;
    JxlParallelRunFunction func;
    atomic_uint next;
    uint32_t end;
} stage;

typedef struct {
    stage *stage;
    size_t thread;
} worker;

static int expired(dr_jxl_runner *runner) {
    if (runner->deadline_ns == 0) return 0;
    if (atomic_load(&runner->expired)) return 1;
    if (dr_monotonic_ns() <= runner->deadline_ns) return 0;
    atomic_store(&runner->expired, 1);
    return 1;
}

static void work(stage *s, size_t thread) {
    for (;;) {
        if (expired(s->runner)) return;
        uint32_t value = atomic_fetch_add(&s->next, 1);
        if (value >= s->end) return;
        s->func(s->opaque, value, thread);
    }
}

static void *helper_main(void *argument) {
    worker *w = argument;
    work(w->stage, w->thread);
    return NULL;
}

JxlParallelRetCode dr_jxl_run(void *runner_opaque, void *jpegxl_opaque, JxlParallelRunInit init,
                              JxlParallelRunFunction func, uint32_t start_range, uint32_t end_range) {
    dr_jxl_runner *runner = runner_opaque;
    if (end_range <= start_range) return 0;
    uint32_t tasks = end_range - start_range;
    int wanted = core_count() - 1;
    if (wanted > MAX_HELPERS) wanted = MAX_HELPERS;
    if ((uint32_t)wanted > tasks - 1) wanted = (int)(tasks - 1);
    int granted = dr_threads_take(wanted);
    JxlParallelRetCode code = init(jpegxl_opaque, (size_t)granted + 1);
    if (code != 0) {
        dr_threads_give(granted);
        return code;
    }
    stage s = {.runner = runner, .opaque = jpegxl_opaque, .func = func, .end = end_range};
    atomic_init(&s.next, start_range);
    pthread_t threads[MAX_HELPERS];
    worker workers[MAX_HELPERS];
    int started = 0;
    for (int i = 0; i < granted; i++) {
        workers[started] = (worker){&s, (size_t)started + 1};
        if (pthread_create(&threads[started], NULL, helper_main, &workers[started]) != 0) break;
        started++;
    }
    work(&s, 0);
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    dr_threads_give(granted);
    return expired(runner) ? JXL_PARALLEL_RET_RUNNER_ERROR : 0;
}
