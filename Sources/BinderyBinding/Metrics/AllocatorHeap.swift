import CBinderyShim

/// The C allocator's heap, as glibc counts it: what allocations hold, and what it keeps after
/// they are freed. The one Swift file of this module that talks to C.
///
/// RSS alone cannot tell a leak from retention: a leak grows `inUse`; retention leaves `inUse` at
/// its baseline while freed bytes stay with the allocator (`free`) and in RSS.
enum AllocatorHeap {
    /// Bytes in use and bytes free but retained (mallinfo2, summed over every arena); nil where
    /// the C library does not say (not glibc 2.33 or later).
    static func figures() -> (inUse: Int, free: Int)? {
        var figures = bindery_heap_figures()
        guard bindery_heap_figures(&figures) == 0 else { return nil }
        return (Int(figures.in_use), Int(figures.free))
    }

    /// Returns the free pages of every arena to the kernel (malloc_trim(0)); whether any were.
    /// It walks the free chunks with each arena locked in turn: a few milliseconds for a heap of
    /// a hundred megabytes, so call it after many objects were freed, not per request.
    @discardableResult
    static func trim() -> Bool {
        bindery_heap_trim() == 1
    }
}
