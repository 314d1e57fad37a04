extension SharingSchemeKind {
    /// The scheme implementing this kind.
    public func makeScheme() -> any SecretSharingScheme {
        switch self {
        case .gf256: return GF256Sharing()
        case .csss257: return CSSS257Sharing()
        }
    }
}
