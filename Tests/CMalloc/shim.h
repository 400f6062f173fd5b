// glibc's own count of the heap (mallinfo2), for tests that check what a component says it
// holds against what the process really allocated.
#include <malloc.h>
