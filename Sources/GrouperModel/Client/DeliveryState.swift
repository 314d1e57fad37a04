import SimKernel

/// What handling one message asks the device to do.
public enum DeliveryAction: Equatable, Sendable {
    /// Apply this normal message to the store.
    case apply(GrouperMessage)
    /// Send a resend request for `range` to `sender`; with `ResendRanges.holes` and more than
    /// one hole in it, for the `holes` only (sorted, disjoint, inside `range`).
    case askResend(sender: String, range: ClosedRange<Int>, holes: [ClosedRange<Int>]? = nil)
    /// Re-upload my normal messages in `range` (or only those in `holes`) to `requester`.
    case answerResend(requester: String, range: ClosedRange<Int>, holes: [ClosedRange<Int>]? = nil)
    /// Dropped: already handled.
    case duplicate(GrouperMessage)
    /// A control message that needs nothing (e.g. a confirm with nothing missing).
    case none
}

/// Algorithm 1 (thesis §4.6.2) with the decisions of docs/protocol.md, as a pure value.
///
/// Per sender: the highest *contiguous* normal sequence received (`contiguous`) and the
/// sequences received above it (`above`). Duplicates: normal by (sender, sequence), control by
/// message id. A gap found from message m asks [contiguous+1, m.sequence−1]; a confirm with
/// maximum M asks [contiguous+1, M]; each ask is trimmed to what is really missing — one
/// range first missing…last missing (`ResendRanges.span`, held messages between holes
/// included) or the holes themselves (`.holes`) — and not repeated before `resendRetry` passed
/// when its first and last missing sequences lie inside the span last asked of that sender
/// (what is missing only shrinks, so its holes then lie inside the holes asked then).
public struct DeliveryState: Sendable {
    // Per sender one record in an array (`by`), not string-keyed maps. Senders have a local
    // number (order of first sight, `senders`). A sender seen with its run-wide slot
    // (`senderSlot`, `HeldIndex`; a slot always names the same sender) keeps its record at
    // index `slot`, so the in-order path hashes no node id and reads nothing before the record;
    // a sender only named so far keeps it at a free index (`recordOfNumber`), moved aside
    // when that index becomes some sender's slot.
    private var senders = StringNumbering()
    private var senderNames: [String] { senders.strings }
    /// What one sender's message needs, in one record: a device handles a round's messages
    /// long after its state left the cache, and each array reached per message is a miss (one
    /// array of records instead of one per field, and no slot → number table before it).
    private struct Sender: Sendable {
        var contiguous = 0
        /// Sequences received above the contiguous prefix, as runs (nil: none).
        var above: SequenceRuns?
        var lastAsk: (range: ClosedRange<Int>, at: SimTime)?
        /// −1: a free index; ≥ 0: the record of local number `owner`, kept at its slot;
        /// ≤ −2: the record of local number −2 − `owner`, a sender not seen with its slot yet.
        var owner: Int32 = -1
        var local: Int { owner >= 0 ? Int(owner) : -2 - Int(owner) }
    }
    private var by: [Sender] = []
    /// Local number → index of its record in `by`.
    private var recordOfNumber: [Int] = []
    var seenControl: Set<String> = []
    /// Control message ids handled, as `MessageRegistry` id numbers, when the caller gives
    /// them (one bit per id of the run instead of a set entry with its string per device).
    var seenControlNumbers = IDBitset()

    /// `PlantedBug.gapOffByOne`: a message one past the next expected counts as in order.
    var plantedGapOffByOne = false

    public init() {}

    /// Highest contiguous normal sequence received per sender seen (0: none yet).
    public var contiguous: [String: Int] {
        Dictionary(uniqueKeysWithValues: senderNames.indices.map { (senderNames[$0], by[recordOfNumber[$0]].contiguous) })
    }

    /// Sequences received above the contiguous prefix, per sender that has any.
    var above: [String: Set<Int>] {
        get {
            var out: [String: Set<Int>] = [:]
            for n in senderNames.indices { if let a = by[recordOfNumber[n]].above { out[senderNames[n]] = a.set } }
            return out
        }
        set {
            for n in senderNames.indices { by[recordOfNumber[n]].above = newValue[senderNames[n]].map(SequenceRuns.init) }
            for (sender, set) in newValue.sorted(by: { $0.key < $1.key }) { by[recordIndex(sender)].above = SequenceRuns(set) }
        }
    }

    /// The last range asked of each sender, with when.
    var lastAsk: [String: (range: ClosedRange<Int>, at: SimTime)] {
        var out: [String: (range: ClosedRange<Int>, at: SimTime)] = [:]
        for n in senderNames.indices { if let a = by[recordOfNumber[n]].lastAsk { out[senderNames[n]] = a } }
        return out
    }

    /// Highest contiguous normal sequence received from `sender` (0 if none).
    public func highestContiguous(from sender: String) -> Int {
        senders.number(ifKnown: sender).map { by[recordOfNumber[Int($0)]].contiguous } ?? 0
    }

    /// Whether the normal message (`sender`, `sequence`) was received (in the contiguous prefix or above it).
    @inline(__always) public func hasReceived(from sender: String, sequence: Int) -> Bool {
        guard let n = senders.number(ifKnown: sender).map(Int.init) else { return false }
        let r = recordOfNumber[n]
        return sequence <= by[r].contiguous || by[r].above?.contains(sequence) == true
    }

    /// `recordIndex(m.sender, slot: slot)`, reading `m.sender` only when the slot does not
    /// already hold its sender's record (a string read costs a retain and a release).
    private mutating func recordIndex(of m: GrouperMessage, slot: Int?) -> Int {
        if let slot, slot < by.count, by[slot].owner >= 0 { return slot }   // a slot's owner never changes
        return recordIndex(m.sender, slot: slot)
    }

    /// The index in `by` of `sender`'s record (its `slot` when given), made on first sight.
    /// Valid until the next call: a record kept at a free index moves when that index becomes
    /// a sender's slot.
    private mutating func recordIndex(_ sender: String, slot: Int? = nil) -> Int {
        if let slot, slot < by.count, by[slot].owner >= 0 { return slot }   // a slot's owner never changes
        let n = Int(senders.number(of: sender))
        guard let slot else {
            if n == recordOfNumber.count {   // first sight
                recordOfNumber.append(by.count)
                by.append(Sender(owner: -2 - Int32(n)))
            }
            return recordOfNumber[n]
        }
        var r = Sender(owner: Int32(n))
        if n == recordOfNumber.count {   // first sight
            recordOfNumber.append(slot)
        } else {
            // Its slot given for the first time: the record moves there, leaving a free index.
            precondition(by[recordOfNumber[n]].owner <= -2, "a sender has one slot")
            r = Sender()
            swap(&r, &by[recordOfNumber[n]])
            r.owner = Int32(n)
            recordOfNumber[n] = slot
        }
        if slot >= by.count { by.append(contentsOf: repeatElement(Sender(), count: slot + 1 - by.count)) }
        if by[slot].owner <= -2 {   // a sender not seen with its slot has its record there: to the end
            recordOfNumber[by[slot].local] = by.count
            by.append(Sender())
            by.swapAt(slot, by.count - 1)
        }
        by[slot] = r
        return slot
    }

    /// Handles one rebuilt message. `ownSequence` is this device's own highest sequence (used
    /// only by the as-built confirm bug). O(gap length) for the missing-range scan.
    /// `idNumber`, when given, is the message id's dense number in the run (`MessageRegistry`):
    /// control duplicates are then found by number, with the same outcome as by id.
    public mutating func handle(_ m: GrouperMessage, now: SimTime, variant: ProtocolVariant,
                                asBuilt: AsBuiltSwitches, resendRetry: SimDuration, ownSequence: Int,
                                idNumber: Int32? = nil, senderSlot: Int? = nil, ranges: ResendRanges = .span)
        -> [DeliveryAction] {
        decide(m, now: now, variant: variant, asBuilt: asBuilt, resendRetry: resendRetry, ownSequence: ownSequence,
               idNumber: idNumber, senderSlot: senderSlot, ranges: ranges).actions(of: m)
    }

    /// `handle`'s actions kept inline, without a copy of `m` (`DeliveryActions`), so handling a
    /// message allocates no array and copies nothing.
    @inline(__always)
    mutating func decide(_ m: GrouperMessage, now: SimTime, variant: ProtocolVariant,
                         asBuilt: AsBuiltSwitches, resendRetry: SimDuration, ownSequence: Int,
                         idNumber: Int32? = nil, senderSlot: Int? = nil, ranges: ResendRanges = .span)
        -> DeliveryActions {
        let checkDuplicates = !(variant == .asBuilt && asBuilt.noDuplicateCheck)
        if m.type.isNormal {
            // The sender's number once (from its slot: no hashing), then arrays.
            let s = recordIndex(of: m, slot: senderSlot)
            let last = by[s].contiguous
            let hasAbove = by[s].above != nil   // no copy of the runs held across `record`
            if checkDuplicates && (m.sequence <= last || (hasAbove && by[s].above!.contains(m.sequence))) {
                return DeliveryActions(.duplicate)
            }
            let next = plantedGapOffByOne ? last + 2 : last + 1
            var ask: DeliveryAction?
            if variant.detectsGaps, m.sequence > next {
                ask = self.ask(s, from: last + 1, to: m.sequence - 1, now: now, retry: resendRetry, ranges: ranges)
            }
            if m.sequence <= next && !hasAbove {
                by[s].contiguous = m.sequence   // the next in order, nothing above: `record`'s result
            } else {
                record(s, m.sequence)
            }
            return DeliveryActions(ask, then: .apply)
        }
        if checkDuplicates {
            guard firstSight(of: m, idNumber) else { return DeliveryActions(.duplicate) }
        }
        switch m.type {
        case .confirm:
            guard variant == .thesis || variant == .asBuilt, let maxSeq = Int(m.content) else { return DeliveryActions(.needsNothing) }
            let base = (variant == .asBuilt && asBuilt.confirmComparesOwnSequence)
                ? ownSequence : highestContiguous(from: m.sender)
            guard maxSeq > base, let a = ask(recordIndex(m.sender), from: base + 1, to: maxSeq, now: now, retry: resendRetry, ranges: ranges)
            else { return DeliveryActions(.needsNothing) }
            return DeliveryActions(a)
        case .resend:
            guard variant != .noRecovery, let asked = Self.parseRanges(m.content) else { return DeliveryActions(.needsNothing) }
            let range = asked[0].lowerBound...asked[asked.count - 1].upperBound
            return DeliveryActions(.answerResend(requester: m.sender, range: range, holes: asked.count > 1 ? asked : nil))
        case .update, .delete:
            return DeliveryActions(.needsNothing)
        }
    }

    /// Records control message `m`'s id; false if it was handled before. The id is read only
    /// without its `number`.
    private mutating func firstSight(of m: GrouperMessage, _ number: Int32?) -> Bool {
        guard let number else { return seenControl.insert(m.messageID).inserted }
        if seenControlNumbers.contains(number) { return false }
        seenControlNumbers.insert(number)
        return true
    }

    func hasNormal(_ sender: String, _ seq: Int) -> Bool {
        guard let n = senders.number(ifKnown: sender).map(Int.init) else { return false }
        return hasNormal(number: n, seq)
    }

    /// The local number of each of `names` (−1: never seen), for `hasNormal(number:_:)`: a
    /// caller asking about many (sender, sequence) pairs of a few senders hashes each sender
    /// once instead of once per pair (the end-of-run delivery checker).
    func senderNumbers(_ names: [String]) -> [Int] { names.map { senders.number(ifKnown: $0).map(Int.init) ?? -1 } }

    /// `hasNormal(sender, seq)` for the sender's local number `n` from `senderNumbers` (−1: false).
    /// `CheckerLookupTests` compares the two on random histories.
    func hasNormal(number n: Int, _ seq: Int) -> Bool {
        guard n >= 0 else { return false }
        let r = recordOfNumber[n]
        return seq <= by[r].contiguous || (by[r].above?.contains(seq) ?? false)
    }

    /// Marks (sender, seq) received and advances the contiguous mark.
    public mutating func record(_ sender: String, _ seq: Int) { record(recordIndex(sender), seq) }

    /// `record` for the sender whose record is `by[n]`.
    private mutating func record(_ n: Int, _ seq: Int) {
        var c = by[n].contiguous
        guard seq > c else { return }
        var runs = by[n].above ?? SequenceRuns()
        by[n].above = nil   // `runs` is then the only reference: it grows in place
        runs.insert(seq)
        if let hi = runs.removeConsecutive(from: c + 1) { c = hi }
        by[n].contiguous = c
        by[n].above = runs.isEmpty ? nil : runs
    }

    /// The missing part of [lo, hi] as one range (lowest to highest missing) or, with `.holes`,
    /// as the list of its missing ranges; rate-limited on the span.
    private mutating func ask(_ n: Int, from lo: Int, to hi: Int, now: SimTime, retry: SimDuration,
                              ranges: ResendRanges = .span)
        -> DeliveryAction? {
        let got = by[n].above ?? SequenceRuns()
        guard let range = got.missingSpan(lo, hi) else { return nil }
        if let prev = by[n].lastAsk, prev.range.contains(range.lowerBound),
           prev.range.contains(range.upperBound), now - prev.at < retry {
            return nil
        }
        by[n].lastAsk = (range, now)
        let sender = senderNames[by[n].local]
        guard ranges == .holes else { return .askResend(sender: sender, range: range) }
        let holes = got.holes(in: range)
        return .askResend(sender: sender, range: range, holes: holes.count > 1 ? holes : nil)
    }

    /// "a-b" → a...b (a ≤ b, both ≥ 1); anything else is nil.
    public static func parseRange(_ s: String) -> ClosedRange<Int>? {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 1, a <= b else { return nil }
        return a...b
    }

    public static func formatRange(_ r: ClosedRange<Int>) -> String { "\(r.lowerBound)-\(r.upperBound)" }

    /// "a-b" or "a-b,c-d,…" (ascending, disjoint) → the ranges; anything else is nil.
    public static func parseRanges(_ s: String) -> [ClosedRange<Int>]? {
        var out: [ClosedRange<Int>] = []
        for part in s.split(separator: ",", omittingEmptySubsequences: false) {
            guard let r = parseRange(String(part)), out.last.map({ $0.upperBound < r.lowerBound }) ?? true else { return nil }
            out.append(r)
        }
        return out.isEmpty ? nil : out
    }

    /// A request's content: the span "a-b", or the holes "a-b,c-d,…" when there are several.
    public static func formatRanges(_ range: ClosedRange<Int>, holes: [ClosedRange<Int>]?) -> String {
        (holes ?? [range]).map(formatRange).joined(separator: ",")
    }
}

/// `DeliveryState.decide`'s actions for one message, inline: a request first (an ask or an
/// answer to a resend: `request`), then what becomes of the message itself (`verdict`). The
/// message is not held here: applying or dropping it as a duplicate names it only, so the
/// caller, which has the message, needs no copy of it in an action and no destroy of one.
struct DeliveryActions {
    /// What becomes of the message decided on.
    enum Verdict: Equatable {
        /// No action of its own.
        case absent
        /// `DeliveryAction.none`.
        case needsNothing
        /// `DeliveryAction.apply` of the message.
        case apply
        /// `DeliveryAction.duplicate` of the message.
        case duplicate
    }

    /// An `askResend` or `answerResend`, performed before the verdict.
    private(set) var request: DeliveryAction?
    private(set) var verdict: Verdict

    /// Whether the message was dropped as already handled (then that is the only action).
    var isDuplicate: Bool { verdict == .duplicate }

    init(_ verdict: Verdict) { self.verdict = verdict }

    /// `request` alone.
    init(_ request: DeliveryAction) {
        precondition(request.isRequest, "a request is an ask or an answer")
        self.request = request
        verdict = .absent
    }

    /// `request` (if any), then `verdict`.
    init(_ request: DeliveryAction?, then verdict: Verdict) {
        precondition(request?.isRequest ?? true, "a request is an ask or an answer")
        self.request = request
        self.verdict = verdict
    }

    /// The actions in order, `m` being the message decided on.
    func actions(of m: GrouperMessage) -> [DeliveryAction] {
        var out: [DeliveryAction] = []
        if let request { out.append(request) }
        switch verdict {
        case .absent: break
        case .needsNothing: out.append(.none)
        case .apply: out.append(.apply(m))
        case .duplicate: out.append(.duplicate(m))
        }
        return out
    }
}

extension DeliveryAction {
    /// Whether this is an `askResend` or an `answerResend`.
    var isRequest: Bool {
        switch self {
        case .askResend, .answerResend: return true
        case .apply, .duplicate, .none: return false
        }
    }
}
