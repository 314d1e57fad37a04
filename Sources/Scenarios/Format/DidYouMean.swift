/// " (did you mean 'x'?)" when a close candidate exists, else "".
public func didYouMean(_ word: String, among candidates: [String]) -> String {
    let limit = max(2, word.count / 3)
    var best: (name: String, distance: Int)? = nil
    for c in candidates.sorted() {
        let d = editDistance(c, word)
        if d <= limit && (best == nil || d < best!.distance) { best = (c, d) }
    }
    return best.map { " (did you mean '\($0.name)'?)" } ?? ""
}

/// Levenshtein distance over Unicode scalars.
public func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var prev = Array(0...y.count), cur = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        cur[0] = i
        for j in 1...y.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[y.count]
}
