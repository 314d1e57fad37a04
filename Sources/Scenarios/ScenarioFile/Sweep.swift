import Format
/// One swept field: a JSON path into the scenario and the values it takes.
public struct SweepParameter: Equatable, Sendable {
    public var path: String
    public var values: [JSONValue]
}

/// One axis of the sweep. A single parameter, or several zipped together
/// (equal-length lists, the i-th values go together). Axes combine as a cartesian
/// product, the first axis varying slowest.
public struct SweepAxis: Equatable, Sendable {
    public var parameters: [SweepParameter]
    public var count: Int { parameters.first?.values.count ?? 0 }
}

/// One point of the sweep: its index and the value of every swept path.
public struct SweepPoint: Equatable, Sendable {
    public var index: Int
    public var assignments: [(path: String, value: JSONValue)]
    public static func == (a: SweepPoint, b: SweepPoint) -> Bool {
        a.index == b.index && a.assignments.count == b.assignments.count
            && zip(a.assignments, b.assignments).allSatisfy { $0.path == $1.path && $0.value == $1.value }
    }

    /// `group.k=3, group.n=6` (for messages and legends).
    public var label: String {
        assignments.isEmpty ? "base" : assignments.map { "\($0.path)=\(SweepPoint.text($0.value))" }.joined(separator: ", ")
    }

    /// A swept value as text: strings unquoted, numbers as written.
    package static func text(_ v: JSONValue) -> String {
        if case .string(let s) = v { return s }
        return JSONWriter.compact(v)
    }

    /// Every point of `axes`, in order (first axis slowest). No axes: one point.
    public static func expand(_ axes: [SweepAxis]) -> [SweepPoint] {
        var combos: [[(path: String, value: JSONValue)]] = [[]]
        for axis in axes {
            var next: [[(path: String, value: JSONValue)]] = []
            for prefix in combos {
                for i in 0..<axis.count {
                    next.append(prefix + axis.parameters.map { ($0.path, $0.values[i]) })
                }
            }
            combos = next
        }
        return combos.enumerated().map { SweepPoint(index: $0.offset, assignments: $0.element) }
    }
}

/// A JSON path (`group.k`, `faults[2].window.start`) as components.
enum JSONPathComponent: Equatable { case key(String), index(Int) }

enum JSONPath {
    /// Nil when the text is not a path of keys and `[index]` parts.
    static func parse(_ text: String) -> [JSONPathComponent]? {
        var out: [JSONPathComponent] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let keyEnd = rest.firstIndex(of: "[") ?? rest.endIndex
            let key = rest[..<keyEnd]
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
            out.append(.key(String(key)))
            rest = rest[keyEnd...]
            while rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]), i >= 0
                else { return nil }
                out.append(.index(i))
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty else { return nil }
        }
        return out.isEmpty ? nil : out
    }

    /// `root` with the value at `path` replaced (a missing last key, or missing
    /// intermediate objects, are created). Throws a message when an array index
    /// is out of range or a component crosses a non-container.
    static func setting(_ root: JSONValue, _ path: ArraySlice<JSONPathComponent>, to value: JSONValue) throws(PathError) -> JSONValue {
        guard let first = path.first else { return value }
        let rest = path.dropFirst()
        switch (first, root) {
        case (.key(let k), .object(var members)):
            if let i = members.firstIndex(where: { $0.key == k }) {
                members[i].value = try setting(members[i].value, rest, to: value)
            } else {
                members.append((k, try setting(.object([]), rest, to: value)))
            }
            return .object(members)
        case (.index(let i), .array(var items)):
            guard i < items.count else { throw PathError(message: "index [\(i)] is out of range (the list has \(items.count) items)") }
            items[i] = try setting(items[i], rest, to: value)
            return .array(items)
        case (.key(let k), _):
            throw PathError(message: "'\(k)' is looked up in \(root.kindName), not an object")
        case (.index(let i), _):
            throw PathError(message: "[\(i)] indexes \(root.kindName), not a list")
        }
    }

    struct PathError: Error { var message: String }
}
