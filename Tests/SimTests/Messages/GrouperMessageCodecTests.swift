import Testing
@testable import GrouperModel
import SimKernel

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
