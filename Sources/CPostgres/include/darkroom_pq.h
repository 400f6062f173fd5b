#ifndef DARKROOM_PQ_H
#define DARKROOM_PQ_H
/* libpq, opened with dlopen when the cluster first connects: nothing links it, so a daemon
   without `cluster:` (and every `darkroom process`) never maps it and the libraries it pulls in.
   Swift calls libpq through the table dr_pq_load returns: `pq.PQstatus(conn)`.

   To call another libpq function: add `X(PQfunction)` to DR_PQ_FUNCTIONS and call it as
   `pq.PQfunction(…)` in Swift. That is all: the table's field is typed by libpq's own
   declaration, and the function is looked up when libpq loads (a libpq too old to have it is
   refused then, with a message naming it). */
#include <stddef.h>
/* Through its directory, so that no -I/usr/include/postgresql (pkg-config, which would link
   libpq) is needed. */
#include <postgresql/libpq-fe.h>

#define DR_PQ_FUNCTIONS(X)                                                                        \
    X(PQbackendPID) X(PQclear) X(PQcmdTuples) X(PQconnectdbParams) X(PQconsumeInput)              \
    X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQfinish) X(PQfname) X(PQfreemem)               \
    X(PQgetisnull) X(PQgetvalue) X(PQnfields) X(PQnotifies) X(PQntuples) X(PQresultErrorField)    \
    X(PQresultStatus) X(PQsetNoticeProcessor) X(PQsocket) X(PQstatus)

/* One pointer per listed function (never NULL once dr_pq_load returned the table). */
#define DR_PQ_MEMBER(name) __typeof__(name) *_Nonnull name;
typedef struct dr_pq_functions {
    DR_PQ_FUNCTIONS(DR_PQ_MEMBER)
} dr_pq_functions;
#undef DR_PQ_MEMBER

/* Loads libpq.so.5 once per process (thread-safe) and returns its functions; NULL with a
   message naming the library and the Debian package that holds it when it cannot load. */
const dr_pq_functions *_Nullable dr_pq_load(char *_Nonnull msg, size_t msg_size);

#endif
