import Foundation

extension ParallelRunner {
    /// Independent replications on up to `jobs` threads; results in input order. Workers take
    /// the next index when free (so uneven items balance); which thread ran an item does not
    /// matter, as each item is a pure function of its seed.
    public static func map<T: Sendable>(_ seeds: [UInt64], jobs: Int,
                                  _ body: @escaping @Sendable (UInt64) throws -> T) throws -> [T] {
        let slots = ResultSlots<T>(count: seeds.count)
        let workers = max(1, min(jobs, seeds.count))
        let work: @Sendable () -> Void = {
            while let i = slots.claim() { slots.store(Result { try body(seeds[i]) }, at: i) }
        }
        if workers == 1 { work(); return try slots.values() }
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            // Own threads, not concurrentPerform: a nested call (a case's replications inside
            // reproduce's pool) must not be serialised by the dispatch pool's width.
            Thread { work(); group.leave() }.start()
        }
        group.wait()
        return try slots.values()
    }
}

/// Slots filled by worker threads, read after they all finished.
final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private var slots: [Result<T, Error>?]
    private var next = 0
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    /// The next unclaimed index, or nil when all are taken.
    func claim() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
    }
    func store(_ r: Result<T, Error>, at i: Int) { lock.lock(); slots[i] = r; lock.unlock() }
    func values() throws -> [T] { try slots.map { try $0!.get() } }
}
