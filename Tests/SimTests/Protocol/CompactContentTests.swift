import Testing
import SimKernel
@testable import GrouperModel

/// Update contents kept as their filler size (`MarshalledContent`) in the message registry
/// and the checkers' writes read back exactly as stored, and any other content (garbled,
/// another format) is kept verbatim: the compact form changes no value anyone reads.
@Suite struct CompactContentTests {
    static func canonical(_ rng: inout Xoshiro256StarStar) -> (content: String, objectID: String, updater: String, time: Int64) {
        let objectID = "o\(rng.int(in: 0...99))", updater = "node-\(rng.int(in: 0...9))-\(rng.int(in: 0...99_999))"
        let time = Int64(rng.int(in: -5...200_000))
        return (NewestVersionWinsStore().marshall(objectID: objectID, size: rng.int(in: -2...700), updater: updater, time: time),
                objectID, updater, time)
    }

    /// One byte changed, removed or added somewhere, or the content of other fields.
    static func garbled(_ s: String, _ rng: inout Xoshiro256StarStar) -> String {
        var b = Array(s.utf8)
        let i = rng.int(in: 0...(b.count - 1))
        switch rng.int(in: 0...2) {
        case 0: b[i] = b[i] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        case 1: b.remove(at: i)
        default: b.insert(UInt8(ascii: "x"), at: i)
        }
        return String(decoding: b, as: UTF8.self)
    }

    @Test func marshalledContentReadsBackAndMatchesLikeStringEquality() {
        var rng = Xoshiro256StarStar(seed: 41)
        for _ in 0..<2_000 {
            let (c, o, u, t) = Self.canonical(&rng)
            let form = MarshalledContent(c, objectID: o, updater: u, time: t)
            guard case .filler = form else { Issue.record("canonical content kept verbatim: \(c)"); continue }
            #expect(form.content(objectID: o, updater: u, time: t) == c)
            let other = rng.chance(0.5) ? Self.garbled(c, &rng) : Self.canonical(&rng).content
            #expect(form.matches(other, objectID: o, updater: u, time: t) == (other == c))
            #expect(form.matches(c, objectID: o, updater: u, time: t))
            // Garbled content, or a canonical one under other fields, stays verbatim or reads back the same.
            let g = MarshalledContent(other, objectID: o, updater: u, time: t)
            #expect(g.content(objectID: o, updater: u, time: t) == other)
            #expect(MarshalledContent(c, objectID: o, updater: u, time: t + 1) == .verbatim(c))
        }
    }

    /// `fillerSize` as a plain walk: each piece compared byte by byte, the time as `String(time)`.
    static func plainFillerSize(_ content: String, objectID: String, updater: String, time: Int64) -> Int32? {
        var b = Array(content.utf8)[...]
        func take(_ s: String) -> Bool {
            let p = Array(s.utf8)
            guard b.starts(with: p) else { return false }
            b = b.dropFirst(p.count)
            return true
        }
        guard take(#"{"id":""#), take(objectID), take(#"","payload":""#) else { return nil }
        let n = b.prefix { $0 == UInt8(ascii: "x") }.count
        b = b.dropFirst(n)
        guard take(#"","update_at":"#), take(String(time)), take(#","updater":""#), take(updater), take(#""}"#), b.isEmpty
        else { return nil }
        return Int32(n)
    }

    /// The word-at-a-time walk (`fillerSize`) against the plain one: canonical contents,
    /// garbled ones, and other fields (times with more or fewer digits, another sign, the
    /// content's last digits with a minus sign, ids and updaters that are prefixes or
    /// extensions of the real ones).
    @Test func fillerSizeEqualsThePlainWalk() {
        var rng = Xoshiro256StarStar(seed: 44)
        for _ in 0..<3_000 {
            let (c, o, u, t) = Self.canonical(&rng)
            let content = rng.chance(0.5) ? c : Self.garbled(c, &rng)
            let times = [t, t + 1, t - 1, t * 10, t / 10, -t, t % 1000, -(t % 1000), Int64.min, Int64.max]
            let time = times[rng.int(in: 0...(times.count - 1))]
            let objectID = [o, o + "0", String(o.dropLast()), ""][rng.int(in: 0...3)]
            let updater = [u, u + "x", String(u.dropLast())][rng.int(in: 0...2)]
            #expect(MarshalledContent.fillerSize(of: content, objectID: objectID, updater: updater, time: time)
                == Self.plainFillerSize(content, objectID: objectID, updater: updater, time: time), "\(content)")
        }
    }

    /// The registry against a plain list of distinct messages: same handles for equal messages,
    /// a new one for each different message (garbled contents under a known id included), and
    /// every handle reads back the message stored under it.
    @Test func registryReadsBackWhatAPlainListStores() {
        var rng = Xoshiro256StarStar(seed: 42)
        let registry = MessageRegistry()
        var plain: [GrouperMessage] = []
        var made: [GrouperMessage] = []
        for i in 0..<3_000 {
            var m: GrouperMessage
            if !made.isEmpty && rng.chance(0.4) {
                m = made[rng.int(in: 0...(made.count - 1))]
                if rng.chance(0.2) { m.content = Self.garbled(m.content, &rng) }
                if rng.chance(0.05) { m.name = "renamed" }
                if rng.chance(0.2) { m.email = "e\(rng.int(in: 0...40))" }   // more extras than `MessageRecords` keeps at hand
                if rng.chance(0.05) { m.receiver = "r\(rng.int(in: 0...3))" }
            } else {
                let (c, o, u, t) = Self.canonical(&rng)
                let type: MessageType = [.update, .update, .update, .delete, .confirm][rng.int(in: 0...4)]
                m = GrouperMessage(type: type, content: type == .update ? c : "\(i)", sequence: i + 1, objectClass: "Record",
                                   objectID: o, receiver: "*", sender: u, email: "", name: "D", sendTime: t,
                                   messageID: "m\(rng.int(in: 0...2_000))")
                made.append(m)
            }
            let h = registry.intern(m)
            let p = plain.firstIndex(of: m) ?? { plain.append(m); return plain.count - 1 }()
            #expect(Int(h) == p && registry[h] == m, "message \(i)")
        }
        #expect(registry.messageCount == plain.count)
        #expect(plain.indices.allSatisfy { registry[Int32($0)] == plain[$0] })
    }

    @Test func writesKeepTheirContent() {
        var rng = Xoshiro256StarStar(seed: 43)
        for _ in 0..<500 {
            let (c, o, u, t) = Self.canonical(&rng)
            let content: String? = [c, Self.garbled(c, &rng), nil][rng.int(in: 0...2)]
            let w = ObjectWrite(device: 1, messageID: "m", objectID: o, version: ObjectVersion(time: t, sender: u, sequence: 3),
                                content: content, time: .zero)
            #expect(w.content == content)
            #expect(w.hasContent(content) && w.hasContent(c) == (content == c) && w.hasContent(nil) == (content == nil))
        }
    }

    /// `marshall` builds its content as bytes in one buffer; the string is the interpolated
    /// one character for character: ids with quotes, non-ASCII and emoji, sizes below zero,
    /// zero and large, negative times and Int64's extremes.
    @Test func marshallWritesTheInterpolatedContent() {
        var rng = Xoshiro256StarStar(seed: 32)
        let pieces = ["o", "7", "\"", "\\", "é", "😀", "node-1", " ", ""]
        func text() -> String { (0..<rng.int(in: 0...5)).map { _ in pieces[rng.nextInt(below: pieces.count)] }.joined() }
        let times: [Int64] = [0, -1, 1, Int64.max, Int64.min, 1_506_575_063]
        for round in 0..<2_000 {
            let objectID = text(), updater = text(), size = rng.int(in: -3...900)
            let time = round < times.count ? times[round] : Int64(rng.int(in: -100_000...100_000_000))
            let filler = String(repeating: "x", count: max(0, size))
            let plain = "{\"id\":\"\(objectID)\",\"payload\":\"\(filler)\",\"update_at\":\(time),\"updater\":\"\(updater)\"}"
            let built = NewestVersionWinsStore().marshall(objectID: objectID, size: size, updater: updater, time: time)
            #expect(built == plain && Array(built.utf8) == Array(plain.utf8), "round \(round)")
        }
    }
}

