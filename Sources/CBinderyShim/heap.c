#include "CBinderyShim.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// Exists because Swift's Glibc module does not export <malloc.h>: /metrics shows the heap next to
// RSS, so memory the allocator keeps after sessions are freed is told apart from a leak.
int bindery_heap_figures(struct bindery_heap_figures *figures) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    figures->in_use = info.uordblks + info.hblkhd;
    figures->free = info.fordblks;
    return 0;
#else
    figures->in_use = 0;
    figures->free = 0;
    return -1;
#endif
}

// Exists because Swift's Glibc module does not export <malloc.h>.
int bindery_heap_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return -1;
#endif
}
