import Testing
@testable import GrouperModel
import SimKernel

/// Shares are a pure function of (secret, k, n, generator state). These hashes pin the exact
/// output for one seed, so any change to how either scheme consumes randomness (which would
/// change every simulation's fingerprint) fails here first. Update only deliberately.
@Test(arguments: [(SharingSchemeKind.gf256, UInt64(0x0F7D_8F91_F11A_51B6)), (.csss257, UInt64(0x9862_1014_DC02_4C13))])
func sharesForAFixedSeedArePinned(kind: SharingSchemeKind, expected: UInt64) throws {
    var rng = Xoshiro256StarStar(seed: 2026)
    let secret = Array("grouper-sim golden shares: the quick brown fox".utf8)
    var hash = StableHash.fnv1a64(bytes: [])
    for (k, n) in [(1, 1), (2, 3), (3, 30), (20, 30)] {
        let shares = try kind.makeScheme().split(secret, k: k, n: n, rng: &rng).shares
        for s in shares { hash = StableHash.fnv1a64(bytes: s, seed: hash) }
    }
    #expect(hash == expected)
}
