/// Deterministic example objects like the thesis's benchmark records (no wall clock).
public enum ExampleRecords {
    /// A marshalled Account Book income/expenditure record: compact JSON, sorted keys,
    /// fields of thesis Fig 4.5's object (content, creator, create_at, id, updater, update_at)
    /// plus the bookkeeping fields (classification, money, remark). With the defaults and
    /// 36-character UUID-style ids the result is 323 bytes, the thesis's object size.
    /// Times are seconds since 1970-01-01 UTC, written in JST (+09:00) like Fig 4.5.
    public static func accountBookRecordJSON(id: String, creator: String, updater: String,
                                             createdAt: Int64, updatedAt: Int64, moneyYen: Int = -1_280,
                                             classification: String = "Transport",
                                             content: String = "Taxi to the client office",
                                             remark: String = "Receipt") -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        let fields: [(String, String?)] = [
            ("classification", classification), ("content", content), ("create_at", isoTime(createdAt)),
            ("creator", creator), ("id", id), ("money", nil), ("remark", remark),
            ("update_at", isoTime(updatedAt)), ("updater", updater),
        ]
        for (i, (key, value)) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            if let value { JSONText.appendString(value, to: &out) } else { out.append(contentsOf: String(moneyYen).utf8) }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// An update message carrying `record` for object `objectID`, as the thesis's Test app sent it.
    public static func updateMessage(record: String, objectClass: String = "Test", objectID: String, sequence: Int,
                                     sender: String, messageID: String, sendTime: Int64,
                                     email: String = "test@test", name: String = "test") -> GrouperMessage {
        GrouperMessage(type: .update, content: record, sequence: sequence, objectClass: objectClass,
                       objectID: objectID, receiver: GrouperMessage.multicast, sender: sender, email: email,
                       name: name, sendTime: sendTime, messageID: messageID)
    }

    /// `YYYY-MM-DDThh:mm:ss+09:00` for `seconds` since the Unix epoch (proleptic Gregorian,
    /// days-from-civil inverse of H. Hinnant), shifted by `offsetHours`.
    public static func isoTime(_ seconds: Int64, offsetHours: Int = 9) -> String {
        let local = seconds + Int64(offsetHours) * 3600
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = Int(local - days * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let sign = offsetHours >= 0 ? "+" : "-"
        return "\(year)-\(two(Int(month)))-\(two(Int(day)))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):"
            + "\(two(secondOfDay % 60))\(sign)\(two(abs(offsetHours))):00"
    }
}
