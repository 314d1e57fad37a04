import Testing
@testable import SimKernel

/// The queue moves payloads in and out of its slots (`EventSlab`): a popped or cancelled
/// event's payload must not stay alive in its slot, a copied queue must own copies, and a
/// dropped queue must release what it still holds.
@Suite("Event queue payload slots")
struct EventSlabTests {
    final class Tracked {
        nonisolated(unsafe) static var live = 0
        let value: Int
        init(_ value: Int) { self.value = value; Tracked.live += 1 }
        deinit { Tracked.live -= 1 }
    }

    @Test func payloadsLiveExactlyWhileQueued() {
        Tracked.live = 0
        do {
            var q = EventQueue<Tracked>(reservingCapacity: 2)
            var handles: [EventHandle] = []
            for i in 0..<100 { handles.append(q.push(Tracked(i), at: SimTime(nanoseconds: Int64(i % 7)))) }
            #expect(Tracked.live == 100)
            var popped: [Int] = []
            for _ in 0..<30 { if let e = q.popMin() { popped.append(e.payload.value) } }
            #expect(Tracked.live == 70)   // popped payloads are gone once the caller drops them
            var cancelled = 0
            for h in handles.prefix(60) where q.cancel(h) { cancelled += 1 }
            #expect(Tracked.live == 70)   // cancelled payloads stay until their key is dropped
            var copy = q
            copy.push(Tracked(1000), at: .zero)
            #expect(Tracked.live == 71)   // the copy shares the objects, holding its own references
            var fromCopy: [Int] = []
            while let e = copy.popMin() { fromCopy.append(e.payload.value) }
            #expect(fromCopy.first == 1000 && fromCopy.count == 71 - cancelled)
            #expect(Tracked.live == 70)   // still held by the original
            _ = q.peekTime()
            var rest: [Int] = []
            while let e = q.popMin() { rest.append(e.payload.value) }
            #expect(rest == Array(fromCopy.dropFirst()))
            #expect(Tracked.live == 0)
            for i in 0..<10 { q.push(Tracked(i), at: .zero) }
            #expect(q.checkInvariants() == nil)
        }
        #expect(Tracked.live == 0)   // the dropped queue released its last 10
    }
}
