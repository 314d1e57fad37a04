import Testing
@testable import GrouperModel
import SimKernel

@Test func isoTimeMatchesFigure45() {
    // Fig 4.5: send_time 1506575063 and update_at 2017-09-28T14:04:23+09:00.
    #expect(ExampleRecords.isoTime(1_506_575_063) == "2017-09-28T14:04:23+09:00")
    #expect(ExampleRecords.isoTime(0, offsetHours: 0) == "1970-01-01T00:00:00+00:00")
    #expect(ExampleRecords.isoTime(951_782_400, offsetHours: 0) == "2000-02-29T00:00:00+00:00")
}

@Test func accountBookRecordAndItsUpdateMessageSizes() throws {
    var ids = MessageIDGenerator(seed: 2017)
    let node = ids.next(), object = ids.next(), messageID = ids.next()
    let record = ExampleRecords.accountBookRecordJSON(id: object, creator: node, updater: node,
                                                      createdAt: 1_506_575_063, updatedAt: 1_506_575_063)
    #expect(record.utf8.count == 323)
    let message = ExampleRecords.updateMessage(record: record, objectID: object, sequence: 3, sender: node,
                                               messageID: messageID, sendTime: 1_506_575_063)
    let bytes = message.encoded()
    // Fixed part of a Fig 4.5-style message (344 B) + record (323 B) + one backslash per quote (34).
    #expect(bytes.count == 701)
    #expect(try GrouperMessage.decode(bytes) == message)
    #expect(message.encodedWithWork().workBytes == bytes.count)
}

/// Fig 4.5's own message, rebuilt field by field, has the size of the pretty-printed original
/// in the c-SSS fixture (629 bytes): only the key order differs.
@Test func figure45MessageHasTheThesisSize() throws {
    let original = try #require(try CSSSVector.load().first { $0.secret_length == 629 })
    let text = String(decoding: original.secret, as: UTF8.self)
    let decoded = try GrouperMessage.decode(original.secret)
    #expect(decoded.sequence == 3)
    #expect(decoded.sendTime == 1_506_575_063)
    #expect(decoded.objectClass == "Test")
    #expect(decoded.encoded().count == text.utf8.count)
}
