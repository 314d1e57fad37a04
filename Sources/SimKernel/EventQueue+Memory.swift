#if canImport(Glibc)
import Glibc
#endif

/// Where an `EventQueue` keeps its keys and slots.
///
/// A queue larger than the L2 cache (`hugeFrom`, 512 KiB) gets memory aligned to and
/// rounded up to 2 MiB, and on Linux asks for transparent huge pages (`MADV_HUGEPAGE`)
/// before the memory is first touched. Small 4 KiB pages land at random physical
/// addresses, so from run to run the heap's hot levels crowd some L2 sets and leave
/// others empty (page colouring), and every random access of a large heap also costs a
/// TLB miss with a page walk (two-dimensional in a virtual machine): identical runs then
/// differ by up to 2×. A 2 MiB page is physically contiguous, so it fills the cache sets
/// evenly in every run, and one TLB entry covers it. Smaller queues keep cache-line
/// alignment only. The memory holds the same keys either way: placement changes speed,
/// never the order of events.
///
/// Audit notes: `allocate` returns at least `byteCount` bytes aligned to `alignment` and
/// to 64; release them with `deallocate()` (free), as for any `UnsafeMutableRawPointer`.
@usableFromInline enum QueueMemory {
    /// Allocations from this size on are huge-page backed (the L2 cache is 512 KiB here).
    static var hugeFrom: Int { 512 << 10 }
    static var hugePage: Int { 2 << 20 }

    /// Whether an allocation of `byteCount` bytes gets 2 MiB alignment and huge pages.
    static func isHuge(byteCount: Int) -> Bool { byteCount >= hugeFrom }

    static func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        guard isHuge(byteCount: byteCount) else {
            return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: Swift.max(alignment, 64))
        }
        let rounded = (byteCount + hugePage - 1) / hugePage * hugePage
        let p = UnsafeMutableRawPointer.allocate(byteCount: rounded, alignment: Swift.max(alignment, hugePage))
        #if os(Linux)
        _ = madvise(p, rounded, MADV_HUGEPAGE)   // advice only: without THP the memory is simply 4 KiB pages
        #endif
        return p
    }
}
