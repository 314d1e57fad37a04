import GrouperModel

extension ScenarioReader {
    /// `"recovery": {"receiver_asks", "sender_checks_servers", "multicast_reuploads"}`: the
    /// thesis model's switches (docs/equations.md); each absent key keeps the protocol's value.
    func readRecovery(_ n: Node) -> RecoveryOptions? {
        guard let o = ObjectReader(n, allowed: ["receiver_asks", "sender_checks_servers", "multicast_reuploads"],
                                   what: "an object with receiver_asks, sender_checks_servers, multicast_reuploads (true or false)")
        else { return nil }
        var r = RecoveryOptions()
        let asks = o.optional("receiver_asks").map { $0.bool() } ?? r.receiverAsks
        let checks = o.optional("sender_checks_servers").map { $0.bool() } ?? r.senderChecksServers
        let multicast = o.optional("multicast_reuploads").map { $0.bool() } ?? r.multicastReuploads
        guard let asks, let checks, let multicast else { return nil }
        r.receiverAsks = asks
        r.senderChecksServers = checks
        r.multicastReuploads = multicast
        return r
    }
}
