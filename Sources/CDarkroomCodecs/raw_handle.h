/* libraw handles whose raw samples can be released once developed (raw_handle.cpp). */
#ifndef DR_RAW_HANDLE_H
#define DR_RAW_HANDLE_H

#include <libraw/libraw.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A handle as libraw_init makes one; closed with libraw_close. NULL when out of memory. */
libraw_data_t *dr_raw_handle_new(unsigned flags);

/* Frees the unpacked sensor data after libraw_dcraw_process (nothing later reads it). */
void dr_raw_handle_release_raw_samples(libraw_data_t *lr);

#ifdef __cplusplus
}
#endif

#endif
