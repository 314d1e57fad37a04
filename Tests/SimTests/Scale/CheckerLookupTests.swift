import Testing
import SimKernel
@testable import GrouperModel

/// The end-of-run delivery checker asks a device's `DeliveryState` by local sender number
/// (`senderNumbers`, `hasNormal(number:_:)`); the plain question is `hasNormal(sender, seq)`.
/// Both must answer alike for every sender (seen or not) and sequence, on random histories
/// with gaps, duplicates and out-of-order arrivals.
@Suite struct CheckerLookupTests {
    @Test func numberLookupsAnswerLikeNameLookups() {
        var rng = Xoshiro256StarStar(seed: 32)
        let names = (1...7).map { "device-\($0)" } + ["never-seen"]
        var compared = 0, received = 0
        for _ in 0..<200 {
            var st = DeliveryState()
            for _ in 0..<rng.nextInt(below: 120) {
                // Mostly near the contiguous mark (in order, small gaps), sometimes far above it.
                let s = names[rng.nextInt(below: names.count - 1)]
                let base = st.highestContiguous(from: s)
                let seq = rng.nextInt(below: 5) == 0 ? base + 1 + rng.nextInt(below: 30) : max(1, base - 1 + rng.nextInt(below: 4))
                st.record(s, seq)
            }
            let shuffled = names.shuffled(using: &rng)   // the checker's order is not the state's
            let numbers = st.senderNumbers(shuffled)
            #expect(numbers.count == shuffled.count)
            for (k, name) in shuffled.enumerated() {
                for seq in 0...(st.highestContiguous(from: name) + 32) {
                    let plain = st.hasNormal(name, seq), fast = st.hasNormal(number: numbers[k], seq)
                    if plain != fast { Issue.record("\(name) #\(seq): plain \(plain), by number \(fast)"); return }
                    compared += 1
                    if plain { received += 1 }
                }
            }
        }
        // Both answers occur often: the comparison is not vacuous.
        #expect(received > 2_000 && compared - received > 2_000, "\(received) of \(compared) received")
    }
}
