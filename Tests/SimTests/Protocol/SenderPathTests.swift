import Testing
import SimKernel
@testable import GrouperModel

/// What a sender knows of its own update is used instead of reading it back, and gives what
/// reading gives: the compact form of a content it has just marshalled
/// (`MarshalledContent.marshalled`), the registry storing a message with it, the encoding
/// written from its filler size (`GrouperMessage.encoded(marshalledFiller:)`, through
/// `MemoisedPipeline.encoded`), and the write record's per-sender lists.
@Suite struct SenderPathTests {
    static let pieces = ["o", "7", "x", "\"", "\\", "\n", "\u{1}", "é", "😀", "node-1", " ", ""]

    /// A string of a few pieces: quotes, backslashes, control characters, non-ASCII, `x`s.
    static func text(_ rng: inout Xoshiro256StarStar) -> String {
        (0..<rng.int(in: 0...5)).map { _ in pieces[rng.nextInt(below: pieces.count)] }.joined()
    }

    static let times: [Int64] = [0, -1, 1, Int64.max, Int64.min, 1_506_575_063]

    /// An update as `senderUpdate` makes it, with its filler size.
    static func update(_ rng: inout Xoshiro256StarStar, round: Int) -> (GrouperMessage, size: Int) {
        let objectID = text(&rng), sender = text(&rng), size = rng.int(in: -3...900)
        let time = round < times.count ? times[round] : Int64(rng.int(in: -100_000...100_000_000))
        let content = NewestVersionWinsStore().marshall(objectID: objectID, size: size, updater: sender, time: time)
        let m = GrouperMessage(type: .update, content: content, sequence: rng.int(in: 1...1_000), objectClass: "Record",
                               objectID: objectID, receiver: rng.chance(0.5) ? "*" : text(&rng), sender: sender,
                               email: text(&rng), name: text(&rng), sendTime: time, messageID: "m\(round)-\(text(&rng))")
        return (m, size)
    }

    @Test func marshalledFormIsWhatReadingFinds() {
        var rng = Xoshiro256StarStar(seed: 21)
        for round in 0..<3_000 {
            let (m, size) = Self.update(&rng, round: round)
            let read = MarshalledContent(m.content, objectID: m.objectID, updater: m.sender, time: m.sendTime)
            #expect(MarshalledContent.marshalled(m.content, size: size) == read, "round \(round): size \(size)")
        }
        #expect(MarshalledContent.marshalled("c", size: Int(Int32.max) + 1) == .verbatim("c"))
        #expect(MarshalledContent.marshalled("c", size: Int(Int32.max)) == .filler(Int32.max))
    }

    /// A registry given the sender's compact form stores what one that reads the content stores.
    @Test func internWithTheSendersCompactContentStoresTheSameMessage() {
        var rng = Xoshiro256StarStar(seed: 22)
        let told = MessageRegistry(), reading = MessageRegistry()
        var made: [GrouperMessage] = []
        for round in 0..<2_000 {
            let m: GrouperMessage, h: Int32
            if !made.isEmpty && rng.chance(0.2) {
                m = made[rng.nextInt(below: made.count)]
                h = told.intern(m)
            } else {
                let (update, size) = Self.update(&rng, round: round)
                m = update
                h = told.intern(m, compactContent: rng.chance(0.8) ? MarshalledContent.marshalled(m.content, size: size) : nil)
                made.append(m)
            }
            #expect(h == reading.intern(m), "round \(round)")
            #expect(told[h] == m && Array(told[h].content.utf8) == Array(m.content.utf8), "round \(round)")
        }
        #expect(told.messageCount == reading.messageCount)
    }

    @Test func marshalledEncodingIsEncoded() throws {
        var rng = Xoshiro256StarStar(seed: 23)
        for round in 0..<3_000 {
            let (m, size) = Self.update(&rng, round: round)
            let bytes = try #require(m.encoded(marshalledFiller: max(0, size)))
            #expect(bytes == m.encoded(), "round \(round): \(m.objectID) \(m.sender) \(size)")
        }
    }

    /// The memoised pipeline encodes a held update from the filler its sender gave, and
    /// anything else by reading it: always `encoded()`.
    @Test func theMemoisedPipelineEncodesAsEncoded() {
        var rng = Xoshiro256StarStar(seed: 24)
        let pipeline = MemoisedPipeline(scheme: GF256Sharing(), registry: MessageRegistry(), heldIndex: HeldIndex())
        var held = HeldMessages()
        var sent: [GrouperMessage] = []
        for round in 0..<3_000 {
            let (m, size) = Self.update(&rng, round: round)
            switch rng.int(in: 0...3) {
            case 0: _ = pipeline.hold(m, compactContent: MarshalledContent.marshalled(m.content, size: size), in: &held)
            case 1: _ = pipeline.hold(m, compactContent: nil, in: &held)
            default: break
            }
            sent.append(m)
            let old = sent[rng.nextInt(below: sent.count)]
            #expect(pipeline.encoded(m, knownNumber: nil) == m.encoded(), "round \(round)")
            #expect(pipeline.encoded(old, knownNumber: nil) == old.encoded(), "round \(round)")
        }
    }

    /// A sender's update, a negative size among them, reaches the write record, the registry
    /// and the member as the store marshalled it.
    @Test func aSendersUpdatesReachTheRecordAndTheMemberAsMarshalled() throws {
        let (h, record) = try ClientCoreTests.group()
        let d = ClientCoreTests.Driver(h, at: SimTime.zero + .seconds(10))
        for (i, size) in [120, -3, 0, 7].enumerated() {
            d.input(0) { h.devices[0].senderUpdate(objectID: "note\(i)", size: size, $0) }
        }
        d.run()
        #expect(record.writes.count == 4)
        for (i, w) in record.writes.enumerated() {
            let content = h.devices[0].store.entry("note\(i)")?.content
            #expect(content != nil && w.content == content && w.hasContent(content))
            #expect(h.devices[1].store.entry("note\(i)")?.content == content)
            #expect(record.writeIndex(of: w.version) == i)
        }
    }

    /// A setter changes its field in its own value only (the box is immutable: it is replaced).
    @Test func settersChangeOneFieldOfOneValue() {
        var rng = Xoshiro256StarStar(seed: 26)
        let (original, _) = Self.update(&rng, round: 0)
        let fields: [(String, (inout GrouperMessage) -> Void, (GrouperMessage) -> Bool)] = [
            ("type", { $0.type = .delete }, { $0.type == .delete }),
            ("content", { $0.content = "c" }, { $0.content == "c" }),
            ("sequence", { $0.sequence = 77 }, { $0.sequence == 77 }),
            ("objectClass", { $0.objectClass = "k" }, { $0.objectClass == "k" }),
            ("objectID", { $0.objectID = "oid" }, { $0.objectID == "oid" }),
            ("receiver", { $0.receiver = "r" }, { $0.receiver == "r" }),
            ("sender", { $0.sender = "s" }, { $0.sender == "s" }),
            ("email", { $0.email = "e" }, { $0.email == "e" }),
            ("name", { $0.name = "n" }, { $0.name == "n" }),
            ("sendTime", { $0.sendTime = -9 }, { $0.sendTime == -9 }),
            ("messageID", { $0.messageID = "id" }, { $0.messageID == "id" }),
        ]
        for (name, set, isSet) in fields {
            let kept = original
            var changed = original
            set(&changed)
            #expect(isSet(changed) && !isSet(kept) && kept == original && changed != original, "\(name)")
            // Every other field as before: setting this one back gives the original.
            var back = changed
            switch name {
            case "type": back.type = original.type
            case "content": back.content = original.content
            case "sequence": back.sequence = original.sequence
            case "objectClass": back.objectClass = original.objectClass
            case "objectID": back.objectID = original.objectID
            case "receiver": back.receiver = original.receiver
            case "sender": back.sender = original.sender
            case "email": back.email = original.email
            case "name": back.name = original.name
            case "sendTime": back.sendTime = original.sendTime
            default: back.messageID = original.messageID
            }
            #expect(back == original && back.encoded() == original.encoded(), "\(name)")
        }
    }

    /// `writeIndex` against a search of every write: devices that write as one sender, one
    /// device under two senders, equal senders in other strings, non-ASCII senders.
    @Test func writeIndexFindsEveryWrite() throws {
        let config = try SystemConfig(devices: 2, servers: 3, k: 2, s: 2, ttl: .hours(1))
        let record = RunRecord(config: config, registry: MessageRegistry())
        var rng = Xoshiro256StarStar(seed: 25)
        let senders = ["node-a", "node-b", "node-é", "e\u{301}", "\u{e9}", "node-c"]
        var sequence = 0
        for step in 0..<600 {
            let device = rng.int(in: 0...4)
            var sender = senders[rng.chance(0.9) ? device : rng.nextInt(below: senders.count)]
            if rng.chance(0.2) { sender = String(decoding: Array(sender.utf8), as: UTF8.self) }   // other storage
            sequence += 1
            let v = ObjectVersion(time: Int64(step / 3), sender: sender, sequence: sequence)
            record.recordWrite(ObjectWrite(device: device, messageID: "m\(step)", objectID: "o", version: v,
                                           content: nil, time: .zero))
            let probe = record.writes[rng.nextInt(below: record.writes.count)].version
            #expect(record.writeIndex(of: probe) == record.writes.firstIndex { $0.version == probe }, "step \(step)")
        }
        #expect(record.writeIndex(of: ObjectVersion(time: 0, sender: "nobody", sequence: 1)) == nil)
    }
}
