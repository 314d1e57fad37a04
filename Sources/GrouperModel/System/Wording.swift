/// Text a person reads: counts with their noun in the right number.
public enum Wording {
    /// "1 server", "3 servers", "0 servers"; `plural` defaults to the singular plus "s".
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
