// Linux file calls that Swift's Glibc module leaves out (they need _GNU_SOURCE or headers it
// does not include): extended attributes, file leases and rename without replacing.
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <sys/xattr.h>

// glibc 2.28+ exports renameat2; its declaration in <stdio.h> is behind _GNU_SOURCE.
extern int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

enum {
    darkroom_RENAME_NOREPLACE = 1,  // RENAME_NOREPLACE (linux/fs.h)
};

/// Takes a read lease on fd: fails with EAGAIN while anyone has the file open for writing.
static inline int darkroom_take_read_lease(int fd) { return fcntl(fd, 1024 /* F_SETLEASE */, F_RDLCK); }

/// The lease held on fd now: F_RDLCK while intact, F_UNLCK once a writer's open broke it.
static inline int darkroom_lease(int fd) { return fcntl(fd, 1025 /* F_GETLEASE */); }

/// Gives the lease up, so a writer waiting in open() goes on at once.
static inline int darkroom_release_lease(int fd) { return fcntl(fd, 1024 /* F_SETLEASE */, F_UNLCK); }

/// Fixes glibc's mmap threshold at 2 MiB and its trim threshold at 4 MiB. Left dynamic, freeing
/// one large block (a decoded logo) raises the threshold to that block's size, and every later band
/// buffer and encoded file below it comes from the heap, which is not given back, so the peak grows
/// with whatever was freed first. Fixed, each large block is its own mapping, returned when freed,
/// and a large buffer shrinks in place (realloc is mremap). Not lower: libjxl allocates and frees
/// thousands of 1.2-1.6 MiB scratch buffers per encode, each a fresh mapping faulted in again below
/// 2 MiB. The trim threshold (128 KiB once the mmap threshold is set) is raised with it, else each
/// free of such a buffer at a heap's top hands its pages back only to fault them in at the next
/// allocation. 1 on success.
static inline int darkroom_fix_mmap_threshold(void) {
    return mallopt(M_MMAP_THRESHOLD, 2 * 1024 * 1024) && mallopt(M_TRIM_THRESHOLD, 4 * 1024 * 1024);
}

/// Hands every arena's free pages back to the system (glibc's malloc_trim): what the trim
/// threshold lets a heap keep, and free chunks inside it. 1 if any memory was released.
static inline int darkroom_release_free_heap(void) { return malloc_trim(0); }
