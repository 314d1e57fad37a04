/// JSON form: an object with exactly one key naming the kind, whose value is an
/// object of named parameters. Unknown kinds and unknown or missing parameters are
/// decoding errors that list what is allowed; decoded values are validated.
///
///     {"constant": {"value": 3}}
///     {"uniform": {"min": 0, "max": 1}}
///     {"exponential": {"mean": 2.5}}
///     {"normal": {"mean": 0, "stdDev": 1}}
///     {"lognormal": {"mu": 0, "sigma": 1}}   or   {"lognormal": {"mean": 10, "stdDev": 2}}
///     {"discrete": {"values": [1, 2, 3], "weights": [0.2, 0.3, 0.5]}}   (weights optional: equal)
///     {"truncated": {"base": {"normal": {"mean": 1, "stdDev": 1}}, "min": 0, "max": 5}}
///
/// Encoding writes the same form (lognormal always as mu/sigma).
extension Distribution: Codable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Kind → allowed parameter names (required ones first in the description).
    static let parameterNames: [(kind: String, allowed: [String], help: String)] = [
        ("constant", ["value"], "{\"value\": number}"),
        ("uniform", ["min", "max"], "{\"min\": number, \"max\": number}"),
        ("exponential", ["mean"], "{\"mean\": number > 0}"),
        ("normal", ["mean", "stdDev"], "{\"mean\": number, \"stdDev\": number ≥ 0}"),
        ("lognormal", ["mu", "sigma", "mean", "stdDev"],
         "{\"mu\": number, \"sigma\": number ≥ 0} or {\"mean\": number > 0, \"stdDev\": number ≥ 0}"),
        ("discrete", ["values", "weights"], "{\"values\": [number], \"weights\": [number ≥ 0] (optional)}"),
        ("truncated", ["base", "min", "max"], "{\"base\": distribution, \"min\": number, \"max\": number} (min or max may be omitted)"),
    ]

    static var kindList: String { parameterNames.map(\.kind).joined(separator: ", ") }

    public init(from decoder: any Decoder) throws {
        let outer: KeyedDecodingContainer<Key>
        do { outer = try decoder.container(keyedBy: Key.self) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "a distribution must be an object with one key naming its kind (one of: \(Self.kindList)), e.g. {\"exponential\": {\"mean\": 2.5}}"))
        }
        let keys = outer.allKeys.map(\.stringValue).sorted()
        guard keys.count == 1, let kind = keys.first, let spec = Self.parameterNames.first(where: { $0.kind == kind }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "a distribution needs exactly one kind key, one of: \(Self.kindList); got \(keys.isEmpty ? "none" : keys.joined(separator: ", "))"))
        }
        let params = try Self.parameters(of: outer, kind: kind, help: spec.help)
        let extra = params.allKeys.map(\.stringValue).filter { !spec.allowed.contains($0) }.sorted()
        if let bad = extra.first {
            throw DecodingError.dataCorrupted(.init(codingPath: params.codingPath, debugDescription:
                "\(kind): unknown parameter '\(bad)'; allowed: \(spec.allowed.joined(separator: ", "))"))
        }
        self = try Self.decode(kind: kind, params, help: spec.help)
        let problems = validate()
        guard problems.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problems.joined(separator: "; ")))
        }
    }

    static func parameters(of outer: KeyedDecodingContainer<Key>, kind: String, help: String) throws -> KeyedDecodingContainer<Key> {
        do { return try outer.nestedContainer(keyedBy: Key.self, forKey: Key(kind)) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: outer.codingPath + [Key(kind)], debugDescription:
                "\(kind): parameters must be an object \(help)"))
        }
    }

    static func decode(kind: String, _ p: KeyedDecodingContainer<Key>, help: String) throws -> Distribution {
        func require(_ name: String) throws -> Key {
            guard p.contains(Key(name)) else {
                throw DecodingError.keyNotFound(Key(name), .init(codingPath: p.codingPath, debugDescription:
                    "\(kind): missing parameter '\(name)'; expected \(help)"))
            }
            return Key(name)
        }
        func number(_ name: String) throws -> Double { try p.decode(Double.self, forKey: try require(name)) }
        func optionalNumber(_ name: String) throws -> Double? { try p.decodeIfPresent(Double.self, forKey: Key(name)) }
        switch kind {
        case "constant": return .constant(try number("value"))
        case "uniform": return .uniform(min: try number("min"), max: try number("max"))
        case "exponential": return .exponential(mean: try number("mean"))
        case "normal": return .normal(mean: try number("mean"), stdDev: try number("stdDev"))
        case "lognormal": return try decodeLognormal(p, number: number)
        case "discrete":
            let values = try p.decode([Double].self, forKey: try require("values"))
            let weights = try p.decodeIfPresent([Double].self, forKey: Key("weights"))
            return .discrete(values: values, weights: weights ?? Array(repeating: 1, count: values.count))
        default: // "truncated"
            return .truncated(try p.decode(Distribution.self, forKey: try require("base")),
                              min: try optionalNumber("min"), max: try optionalNumber("max"))
        }
    }

    static func decodeLognormal(_ p: KeyedDecodingContainer<Key>, number: (String) throws -> Double) throws -> Distribution {
        let byMoments = p.contains(Key("mean")) || p.contains(Key("stdDev"))
        let byParameters = p.contains(Key("mu")) || p.contains(Key("sigma"))
        if byMoments && byParameters {
            throw DecodingError.dataCorrupted(.init(codingPath: p.codingPath, debugDescription:
                "lognormal: give either mu/sigma or mean/stdDev, not both"))
        }
        guard byMoments else { return .lognormal(mu: try number("mu"), sigma: try number("sigma")) }
        let mean = try number("mean"), sd = try number("stdDev")
        guard mean.isFinite && mean > 0 && sd.isFinite && sd >= 0 else {
            throw DecodingError.dataCorrupted(.init(codingPath: p.codingPath, debugDescription:
                "lognormal: mean must be a finite number > 0 and stdDev a finite number ≥ 0, got mean \(mean), stdDev \(sd)"))
        }
        return .lognormal(mean: mean, stdDev: sd)
    }

    public func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: Key.self)
        var p = outer.nestedContainer(keyedBy: Key.self, forKey: Key(kindName))
        switch self {
        case .constant(let v): try p.encode(v, forKey: Key("value"))
        case let .uniform(lo, hi): try p.encode(lo, forKey: Key("min")); try p.encode(hi, forKey: Key("max"))
        case .exponential(let m): try p.encode(m, forKey: Key("mean"))
        case let .normal(m, sd): try p.encode(m, forKey: Key("mean")); try p.encode(sd, forKey: Key("stdDev"))
        case let .lognormal(mu, s): try p.encode(mu, forKey: Key("mu")); try p.encode(s, forKey: Key("sigma"))
        case let .discrete(v, w): try p.encode(v, forKey: Key("values")); try p.encode(w, forKey: Key("weights"))
        case let .truncated(base, lo, hi):
            try p.encode(base, forKey: Key("base"))
            try p.encodeIfPresent(lo, forKey: Key("min"))
            try p.encodeIfPresent(hi, forKey: Key("max"))
        }
    }
}
