import Scenarios
import GrouperModel
import SimKernel

/// `grouper-sim bench codec`: encode and decode rate of Grouper messages (the decoder runs
/// on every simulated receive). Messages: the 701-byte account-book update of
/// docs/messages.md (escape-heavy content) and a small confirm message.
///
/// Wall-clock time is read only here (through `SharingBench.timed`), never inside a run.
enum CodecBench {
    static let help = """
    USAGE: grouper-sim bench codec [--json] [--seconds S]

    Encodes and decodes an account-book update message (701 B) and a confirm message, each for
    at least --seconds (default 0.3). Rates are per wall-clock second and per second of the
    thread's CPU time. --json prints one JSON object per message.

    """

    static func messages() -> [(name: String, message: GrouperMessage)] {
        var ids = MessageIDGenerator(seed: 2017)
        let node = ids.next(), object = ids.next(), messageID = ids.next()
        let record = ExampleRecords.accountBookRecordJSON(id: object, creator: node, updater: node,
                                                          createdAt: 1_506_575_063, updatedAt: 1_506_575_063)
        let update = ExampleRecords.updateMessage(record: record, objectID: object, sequence: 3, sender: node,
                                                  messageID: messageID, sendTime: 1_506_575_063)
        let confirm = GrouperMessage(type: .confirm, content: "41", sequence: 0, objectClass: "", objectID: "",
                                     receiver: node, sender: ids.next(), email: "test@test", name: "test",
                                     sendTime: 1_506_575_064, messageID: ids.next())
        return [("update", update), ("confirm", confirm)]
    }

    /// The options `bench codec` takes (listed by `bench --help`).
    static let options = ["--seconds", "--json"]

    static func run(_ args: [String], _ io: CLIOutput) throws -> ExitCode {
        var list = ArgumentList(args, command: "bench codec")
        if list.flag("--help") || list.flag("-h") { io.out(help); return .ok }
        let json = list.flag("--json")
        let secondsText = try list.option("--seconds")
        try list.finish(known: options + ["--help"])
        var minSeconds = 0.3
        if let t = secondsText {
            guard let v = Double(t), v > 0, v <= 60 else { throw CLIError("bench codec: --seconds must be in (0, 60], got '\(t)'") }
            minSeconds = v
        }
        if !json { io.out("  message  bytes   encodes/s  decodes/s  decode MB/s  encodes/cpu-s  decodes/cpu-s\n") }
        for (name, message) in messages() {
            io.out(try measure(name, message, minSeconds: minSeconds, json: json) + "\n")
        }
        return .ok
    }

    /// One row: times `encoded()` and `decode(_:)` of `message`; throws if decoding fails.
    static func measure(_ name: String, _ message: GrouperMessage, minSeconds: Double, json: Bool) throws -> String {
        let bytes = message.encoded()
        guard (try? GrouperMessage.decode(bytes)) == message else {
            throw CLIError("bench codec: the \(name) message does not decode to itself", exitCode: .checkerFailed)
        }
        var checksum = 0
        let encodes = try SharingBench.timed(minSeconds) { checksum &+= message.encoded().count }
        let decodes = try SharingBench.timed(minSeconds) {
            checksum &+= (try? GrouperMessage.decode(bytes))?.sequence ?? 1
        }
        if checksum == Int.min { print(checksum) }   // keeps the loops observable
        let f = SharingBench.fixed
        let mb = f(decodes.0 * Double(bytes.count) / 1e6)
        if json {
            return "{\"bench\":\"codec\",\"bytes\":\(bytes.count),\"decode_mb_per_second\":\(mb),"
                + "\"decodes_per_cpu_second\":\(f(decodes.1)),\"decodes_per_second\":\(f(decodes.0)),"
                + "\"encodes_per_cpu_second\":\(f(encodes.1)),\"encodes_per_second\":\(f(encodes.0)),"
                + "\"message\":\"\(name)\"}"
        }
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        return pad(name, 9) + pad(String(bytes.count), 7) + pad(f(encodes.0), 12) + pad(f(decodes.0), 11)
            + pad(mb, 13) + pad(f(encodes.1), 15) + pad(f(decodes.1), 15)
    }
}
