import Format
extension ScenarioReader {
    /// Top-level keys a sweep may not change: they name, seed or shape the sweep itself.
    static let unsweepable = ["format", "name", "description", "seed", "replications", "sweep", "metrics", "precision", "plot"]

    /// Structure only; whether each value fits its field is checked per point by the loader.
    func readSweep(_ n: Node?) -> [SweepAxis]? {
        guard let n else { return [] }
        guard case .array(let items) = n.value else {
            n.fail("a list of axes: {\"path\": …, \"values\": […]} or {\"zip\": [{\"path\", \"values\"}, …]}"); return nil
        }
        let before = sink.count
        var axes: [SweepAxis] = []
        var seen: [String] = []
        for (i, item) in items.enumerated() {
            let an = Node(value: item, path: n.index(i), sink: sink)
            guard case .object = item else { an.fail("{\"path\": …, \"values\": […]} or {\"zip\": […]}"); continue }
            if item["zip"] != nil {
                guard let o = ObjectReader(an, allowed: ["zip"]), let z = o.optional("zip") else { continue }
                guard case .array(let ps) = z.value, ps.count >= 2 else { z.fail("a list of at least two {\"path\", \"values\"} objects"); continue }
                let params = ps.enumerated().compactMap { readParameter(Node(value: $0.element, path: z.index($0.offset), sink: sink), seen: &seen) }
                guard params.count == ps.count else { continue }
                if params.contains(where: { $0.values.count != params[0].values.count }) {
                    z.fail("lists of equal length (zipped values go together); lengths are \(params.map { String($0.values.count) }.joined(separator: ", "))")
                    continue
                }
                axes.append(SweepAxis(parameters: params))
            } else if let p = readParameter(an, seen: &seen) {
                axes.append(SweepAxis(parameters: [p]))
            }
        }
        let total = axes.reduce(1) { $0 * $1.count }
        if sink.count == before, total > 100_000 { n.fail("at most 100000 sweep points (this sweep has \(total))") }
        return sink.count == before ? axes : nil
    }

    private func readParameter(_ n: Node, seen: inout [String]) -> SweepParameter? {
        guard let o = ObjectReader(n, allowed: ["path", "values"]) else { return nil }
        let path = o.required("path", "a JSON path such as \"group.k\" or \"faults[0].window.start\"").flatMap { p -> String? in
            guard let s = p.string() else { return nil }
            guard let comps = JSONPath.parse(s) else {
                p.fail("a JSON path such as \"group.k\" or \"faults[0].window.start\""); return nil
            }
            if case .key(let top) = comps[0], Self.unsweepable.contains(top) {
                p.fail("a path outside \(Self.unsweepable.joined(separator: ", ")) (those are not swept)"); return nil
            }
            if seen.contains(s) { p.fail("a path not swept by another axis"); return nil }
            seen.append(s)
            return s
        }
        let values = o.required("values", "a non-empty list of numbers or strings").flatMap { v -> [JSONValue]? in
            guard case .array(let vs) = v.value, !vs.isEmpty else { v.fail("a non-empty list of numbers or strings"); return nil }
            var ok = true
            for (i, x) in vs.enumerated() {
                switch x {
                case .number, .string, .bool: continue
                default: Node(value: x, path: v.index(i), sink: sink).fail("a number, string or boolean"); ok = false
                }
            }
            return ok ? vs : nil
        }
        guard let path, let values else { return nil }
        return SweepParameter(path: path, values: values)
    }
}
