/// The tool's name and version, as result manifests and shard files record them.
public enum Tool {
    public static let name = "grouper-sim"
    public static let version = "0.1.0"
}
