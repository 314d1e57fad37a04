import Testing
@testable import GrouperModel
import SimKernel
import SimJSON

func sampleMessage(_ type: MessageType = .update, content: String = "{\"id\":\"X\"}") -> GrouperMessage {
    GrouperMessage(type: type, content: content, sequence: type.isNormal ? 3 : 0, objectClass: "Test",
                   objectID: "A4ABC905-B6CE-4BA1-9224-F5AE7D0F0300", receiver: GrouperMessage.multicast,
                   sender: "07DF1068-815C-4C70-B833-A6012B8BE846", email: "test@test", name: "test",
                   sendTime: 1_506_575_063, messageID: "CEA7050B-CD14-4863-A127-A2C3FF74FBEC")
}

@Test func messagesRoundTripForEveryType() throws {
    for type in MessageType.allCases {
        let m = sampleMessage(type, content: "line\n\t\"quoted\" \\ é 😀 \u{01}")
        #expect(try GrouperMessage.decode(m.encoded()) == m)
    }
}

@Test func messageIDsLookLikeVersion4UUIDs() {
    var gen = MessageIDGenerator(seed: 1)
    let a = gen.next(), b = gen.next()
    #expect(a != b)
    for id in [a, b] {
        let parts = id.split(separator: "-").map(\.count)
        #expect(parts == [8, 4, 4, 4, 12])
        let chars = Array(id)
        #expect(chars[14] == "4")
        #expect("89AB".contains(chars[19]))
        #expect(id == id.uppercased())
    }
    var again = MessageIDGenerator(seed: 1)
    #expect(again.next() == a)
}

/// The member-by-member encoder `encoded()` replaced: a list of (key, value) pairs in
/// `wireKeys` order, each written with the byte-by-byte escaper and `String(v)`.
func encodedMemberByMember(_ m: GrouperMessage) -> [UInt8] {
    let values: [(String, String?, Int64?)] = [
        ("content", m.content, nil), ("email", m.email, nil), ("message_id", m.messageID, nil),
        ("name", m.name, nil), ("object", m.objectClass, nil), ("object_id", m.objectID, nil),
        ("receiver_id", m.receiver, nil), ("send_time", nil, m.sendTime), ("sender_id", m.sender, nil),
        ("sequence", nil, Int64(m.sequence)), ("type", m.type.rawValue, nil),
    ]
    var out = Array("{\n".utf8)
    for (i, (key, string, integer)) in values.enumerated() {
        out += Array("  ".utf8)
        JSONString.appendByteByByte(key, to: &out)
        out += Array(" : ".utf8)
        if let string { JSONString.appendByteByByte(string, to: &out) } else { out += Array(String(integer!).utf8) }
        out += Array((i + 1 < values.count ? ",\n" : "\n").utf8)
    }
    return out + [UInt8(ascii: "}")]
}

/// `encoded()` sizes its output, then writes each member's fixed text as one precomputed run
/// and integers digit by digit (`encodedByAppending` appends the same pieces); its bytes equal the member-by-member encoder's for random messages (strings with
/// escapes, empty strings, integers 0, negative, Int64's extremes and every power of ten).
@Test func encodingMatchesTheMemberByMemberEncoder() {
    #expect(GrouperMessage.memberPrefixes.count == GrouperMessage.wireKeys.count)
    var rng = Xoshiro256StarStar(seed: 32)
    let pieces = ["", "a", "\"", "\\", "\n", "\u{01}", "é", "{\"id\":\"X\",\"v\":1}", "CEA7050B-CD14-4863", "*"]
    func text() -> String { (0..<rng.int(in: 0...6)).map { _ in pieces[rng.nextInt(below: pieces.count)] }.joined() }
    var integers: [Int64] = [0, 1, -1, 9, 10, 99, 100, Int64.max, Int64.min, Int64.min + 1]
    var p: Int64 = 1
    while p <= Int64.max / 10 { integers += [p, p - 1, p * 10 - 1, -p]; p *= 10 }
    for round in 0..<2_000 {
        let type = MessageType.allCases[rng.nextInt(below: 4)]
        let sendTime = round < integers.count ? integers[round] : Int64(bitPattern: rng.next()) >> rng.int(in: 0...63)
        let m = GrouperMessage(type: type, content: text(), sequence: rng.int(in: 0...Int(Int32.max)),
                               objectClass: text(), objectID: text(), receiver: text(), sender: text(),
                               email: text(), name: text(), sendTime: sendTime, messageID: text())
        #expect(m.encoded() == encodedMemberByMember(m), "round \(round)")
        #expect(m.encodedByAppending() == encodedMemberByMember(m), "round \(round)")
    }
    #expect(sampleMessage().encoded() == encodedMemberByMember(sampleMessage()))
}
