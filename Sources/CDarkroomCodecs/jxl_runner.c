/*
 * libjxl's parallel runner, on darkroom's thread budget. libjxl hands each parallel stage
 * (groups of 256×256 pixels, rows of a transform) to the runner it was given; this one runs a
 * stage on the calling thread plus as many helpers as the compute slots grant at that moment
 * (dr_threads_take, up to one per core beside the caller), and gives the slots back when the
 * stage ends. libjxl's own thread pool would start a thread per core on top of the renders
 * already running.
 *
 * The helpers are kept between stages, parked on their own condition variable, as libjxl's
 * pool keeps its workers: on a loaded machine a new thread waits behind the runnable ones before
 * its first turn, while a woken one runs at once, and its caches are warm. A stage wakes as
 * many parked helpers as it was granted slots (the most recently parked first, its cache the
 * warmest) and starts threads only for the rest; so no more helpers exist than slots were ever
 * granted at once. A helper parked for PARK_SECONDS ends, so an idle daemon holds none.
 *
 * Each thread takes a run of tasks at a time, a quarter of its share of what is left (OpenMP's
 * "guided" schedule, as libjxl's pool): neighbouring groups and rows stay on one thread.
 *
 * The runner also carries a decode's deadline: once it has passed, no further task starts and
 * the stage fails, which libjxl turns into an ordinary error (jxl_runner_expired tells).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "jxl_runner.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Helpers beyond this are not worth waking for a stage. */
#define MAX_HELPERS 15
/* A parked helper ends after this long without a stage. */
#define PARK_SECONDS 10

static int core_count(void) {
    cpu_set_t set;
    long cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : (int)cores;
}

typedef struct {
    dr_jxl_runner *runner;
    void *opaque;
    JxlParallelRunFunction func;
    atomic_uint next; /* the first task not yet taken */
    uint32_t end;
    uint32_t threads; /* the caller and its helpers */
    int active;       /* helpers still working on it; under pool_lock */
    pthread_cond_t done; /* signalled when active drops to 0 */
} stage;

typedef struct helper {
    pthread_cond_t wake;
    stage *stage; /* the stage it was handed, NULL while parked; under pool_lock */
    size_t thread;
    struct helper *next_parked;
} helper;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static helper *parked; /* last parked first */

/* A child process has none of its parent's helpers: it starts its own. */
static void before_fork(void) { pthread_mutex_lock(&pool_lock); }
static void after_fork_in_parent(void) { pthread_mutex_unlock(&pool_lock); }
static void after_fork_in_child(void) {
    parked = NULL;
    pthread_mutex_unlock(&pool_lock);
}
static pthread_once_t fork_watch = PTHREAD_ONCE_INIT;
static void watch_forks(void) { pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child); }

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
        uint32_t taken = atomic_load_explicit(&s->next, memory_order_relaxed);
        if (taken >= s->end) return;
        uint32_t run = (s->end - taken) / (4 * s->threads);
        if (run < 1) run = 1;
        uint32_t first = atomic_fetch_add_explicit(&s->next, run, memory_order_relaxed);
        if (first >= s->end) return;
        uint32_t last = first + run < s->end ? first + run : s->end;
        for (uint32_t task = first; task < last; task++) {
            if (task > first && expired(s->runner)) return;
            s->func(s->opaque, task, thread);
        }
    }
}

/* Unlinks a helper that is parked (its stage NULL) from the parked list; pool_lock held. */
static void unpark(helper *h) {
    for (helper **link = &parked; *link != NULL; link = &(*link)->next_parked) {
        if (*link == h) {
            *link = h->next_parked;
            return;
        }
    }
}

static void *helper_main(void *argument) {
    helper *h = argument;
    pthread_mutex_lock(&pool_lock);
    for (;;) {
        if (h->stage == NULL) {
            struct timespec until;
            clock_gettime(CLOCK_MONOTONIC, &until);
            until.tv_sec += PARK_SECONDS;
            int waited = 0;
            while (h->stage == NULL && waited != ETIMEDOUT) waited = pthread_cond_timedwait(&h->wake, &pool_lock, &until);
            if (h->stage == NULL) break;
        }
        stage *s = h->stage;
        pthread_mutex_unlock(&pool_lock);
        work(s, h->thread);
        pthread_mutex_lock(&pool_lock);
        h->stage = NULL;
        if (--s->active == 0) pthread_cond_signal(&s->done);
        h->next_parked = parked;
        parked = h;
    }
    unpark(h);
    pthread_mutex_unlock(&pool_lock);
    pthread_cond_destroy(&h->wake);
    free(h);
    return NULL;
}

/* A new helper thread working on `s` as thread number `thread`; 0 if none could be started. */
static int start_helper(stage *s, size_t thread) {
    helper *h = calloc(1, sizeof *h);
    if (h == NULL) return 0;
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&h->wake, &attributes);
    pthread_condattr_destroy(&attributes);
    h->stage = s;
    h->thread = thread;
    pthread_attr_t detached;
    pthread_attr_init(&detached);
    pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
    pthread_t id;
    int started = pthread_create(&id, &detached, helper_main, h) == 0;
    pthread_attr_destroy(&detached);
    if (!started) {
        pthread_cond_destroy(&h->wake);
        free(h);
    }
    return started;
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
    stage s = {.runner = runner, .opaque = jpegxl_opaque, .func = func, .end = end_range, .threads = (uint32_t)granted + 1};
    atomic_init(&s.next, start_range);
    pthread_cond_init(&s.done, NULL);
    int woken = 0;
    if (granted > 0) pthread_once(&fork_watch, watch_forks);
    pthread_mutex_lock(&pool_lock);
    while (woken < granted && parked != NULL) {
        helper *h = parked;
        parked = h->next_parked;
        h->stage = &s;
        h->thread = (size_t)++woken;
        pthread_cond_signal(&h->wake);
    }
    s.active = woken;
    pthread_mutex_unlock(&pool_lock);
    /* The helpers started here are counted before they start, so none can finish the stage
     * (active 0) while another is still to come. */
    int to_start = granted - woken;
    if (to_start > 0) {
        pthread_mutex_lock(&pool_lock);
        s.active += to_start;
        pthread_mutex_unlock(&pool_lock);
        for (int i = 0; i < to_start; i++) {
            if (start_helper(&s, (size_t)(woken + i + 1))) continue;
            pthread_mutex_lock(&pool_lock);
            s.active -= to_start - i;
            pthread_mutex_unlock(&pool_lock);
            break;
        }
    }
    work(&s, 0);
    pthread_mutex_lock(&pool_lock);
    while (s.active > 0) pthread_cond_wait(&s.done, &pool_lock);
    pthread_mutex_unlock(&pool_lock);
    pthread_cond_destroy(&s.done);
    dr_threads_give(granted);
    return expired(runner) ? JXL_PARALLEL_RET_RUNNER_ERROR : 0;
}
