import SimKernel
import GrouperModel
import Format

/// Renders equation results as Markdown, CSV and JSON Lines (sorted keys, fixed digits).
public enum EquationReport {
    static func num(_ v: Double) -> String { NumberFormat.fixed(v, digits: 4) }
    static func jsonNum(_ v: Double) -> String { v.isFinite ? NumberFormat.fixed(v, digits: 4) : "null" }
    static func opt(_ v: Double?) -> String { v.map(num) ?? "—" }
    /// Markdown tables: 4 significant digits, integers bare (`NumberFormat.significant`).
    static func sig(_ v: Double) -> String { NumberFormat.significant(v) }

    public static func parameterPairs(_ p: EquationParameters) -> [(String, String)] {
        [("C", "\(p.confirms)"), ("D", "\(p.devices)"), ("F", NumberFormat.shortest(p.offline)),
         ("L", p.offlineTime.description), ("T", p.ttl.description), ("U_i", "\(p.updatesPerDevice)"),
         ("model", p.model.modelName), ("replications", "\(p.replications)"), ("seed", "\(p.seed)"),
         ("variant", p.variant.rawValue)]
    }

    /// Which reading of F the model uses, in one sentence.
    public static func fReading(_ p: EquationParameters) -> String {
        let avg = NumberFormat.fixed(p.model.averageOffline(f: p.offline, lOverT: p.lOverT), digits: 4)
        if p.offline == 0 { return "F = 0: every device online." }
        if p.model.fCountsPeriodsPerTTL {
            return "F = \(NumberFormat.shortest(p.offline)) read as offline periods per TTL, each of length L (the thesis's reading of 6.5): on average F·L/T = \(avg) devices offline"
                + (p.model.scheduledOffline ? ", on a deterministic rotating schedule; writers write and confirm only while online." : ", exponential offline times.")
        }
        return "F = \(NumberFormat.shortest(p.offline)) read as the time-average number of offline devices; offline times exponential with mean L, online times with mean L·(D − F)/F."
    }

    /// How the estimate was made.
    public static func estimateLine(_ r: EquationResult) -> String {
        let cv = r.rows.contains { $0.simulated.controlsUsed > 0 } ? ", regression-adjusted with the offline-period control variates" : ""
        return "Estimate: \(r.replications) replication(s), each a warm-up of \(r.warmUpWindows) TTL window(s) then \(r.windows / max(r.replications, 1)) measured windows; "
            + "\(r.windows) windows in all, 95% CI from batch means of \(r.batchWindows) window(s)\(cv).\n"
    }

    public static func mixLine(_ m: UploadMix) -> String {
        func pm(_ e: SteadyStateEstimate) -> String { NumberFormat.plusMinus(e.mean, e.ci95HalfWidth) }
        return "Measured uploads per device per TTL: normal first uploads \(pm(m.normal)), confirms \(pm(m.confirms)), "
            + "resend requests \(pm(m.resendRequests)), re-uploads \(pm(m.reUploads)).\n"
    }

    public static func markdown(_ r: EquationResult, _ p: EquationParameters) -> String {
        var s = "Parameters: " + parameterPairs(p).map { "\($0.0)=\($0.1)" }.joined(separator: ", ") + "\n\n"
        s += fReading(p) + "\n" + estimateLine(r) + "\n"
        if p.offline > 0 {
            s += "The thesis gives 6.1–6.4 for F = 0 only: with F > 0 their thesis values are not applicable (n/a); "
            s += "the simulated counts of those quantities are still shown.\n\n"
        }
        s += "| equation | quantity | thesis formula (for) | thesis value | refined form | simulated mean | 95% CI ± |\n"
        s += "|---|---|---|---|---|---|---|\n"
        for row in r.rows {
            let thesis = row.thesisApplies ? sig(row.closedForm) : "n/a (for \(row.thesisFor))"
            s += "| \(row.equation) | \(row.quantity) | \(row.formula) (\(row.thesisFor)) | \(thesis) | \(row.refined.map(sig) ?? "—") | \(sig(row.simulated.mean)) | \(sig(row.simulated.ci95HalfWidth)) |\n"
        }
        s += "\nDownloads include the device's own uploads (thesis 6.3). Uploads count every message stored on the servers"
        s += p.model.controlMessagesCounted ? " (normal, confirm, resend request, re-upload).\n" : " except resend requests (normal, confirm, re-upload).\n"
        return s + mixLine(r.mix) + "\n" + partsTable(r, p)
    }

    /// What NU_i (6.6) and UR_i (6.5) are made of, per device per TTL: the thesis's reading
    /// (every re-upload a first copy of a lost message), the refined forms' parts and the
    /// simulated parts (`ReuploadPart`).
    public static func partsTable(_ r: EquationResult, _ p: EquationParameters) -> String {
        let forms = ThesisEquations.closedForms(p), m = r.mix, f = r.refinedMix
        let ur = forms[4].3
        // A half-width below 1e-9 of the mean is rounding in the regression: 0.
        func pm(_ e: SteadyStateEstimate) -> String {
            "\(sig(e.mean)) | \(sig(e.ci95HalfWidth <= 1e-9 * max(1, abs(e.mean)) ? 0 : e.ci95HalfWidth))"
        }
        func ref(_ v: Double?) -> String { v.map(sig) ?? "—" }
        let ui = Double(p.updatesPerDevice), c = Double(p.confirms)
        let rows: [(String, String, Double?, String)] = [
            ("normal first uploads", sig(ui), f?.normal, pm(m.normal)),
            ("confirms", sig(c), f?.confirms, pm(m.confirms)),
            ("resend requests", "0", f?.resendRequests, pm(m.resendRequests)),
            ("UR_i: first copies of lost messages", sig(ur), f?.firstCopies, pm(m.firstCopies)),
            ("UR_i: copies stored again for the same requester", "0", f?.repeatedCopies, pm(m.repeatedCopies)),
            ("UR_i: copies of messages the requester held", "0", f?.heldCopies, pm(m.heldCopies)),
            ("UR_i re-uploads (6.5)", sig(ur), f?.reUploads, pm(m.reUploads)),
        ]
        var s = "Parts per device per TTL: NU_i = normal first uploads + confirms + resend requests + UR_i, "
            + "UR_i = first copies + repeated copies + held-message copies (the thesis counts every re-upload as a first copy).\n\n"
        s += "| part | thesis | refined form | simulated mean | 95% CI ± |\n|---|---|---|---|---|\n"
        for (name, thesis, refined, sim) in rows { s += "| \(name) | \(thesis) | \(ref(refined)) | \(sim) |\n" }
        return s
    }

    public static func csv(_ r: EquationResult, _ p: EquationParameters) -> String {
        let keys = parameterPairs(p)
        var s = "equation,thesis_for,closed_form,refined_form,simulated_mean,ci95,difference,windows," + keys.map(\.0).joined(separator: ",") + "\n"
        for row in r.rows {
            s += "\(row.equation),\(row.thesisFor),\(row.thesisApplies ? num(row.closedForm) : ""),\(row.refined.map(num) ?? ""),\(num(row.simulated.mean)),"
                + "\(num(row.simulated.ci95HalfWidth)),\(row.thesisApplies ? num(row.difference) : ""),\(r.windows)," + keys.map(\.1).joined(separator: ",") + "\n"
        }
        return s
    }

    /// One object per line; keys sorted.
    public static func jsonLines(_ r: EquationResult, _ p: EquationParameters) -> String {
        let params = parameterPairs(p).map { k, v -> (String, String) in
            ["C", "D", "F", "U_i", "replications", "seed"].contains(k) ? (k, v) : (k, "\"\(v)\"")
        }
        var s = ""
        for row in r.rows {
            var fields = params + [("ci95", jsonNum(row.simulated.ci95HalfWidth)), ("closed_form", row.thesisApplies ? jsonNum(row.closedForm) : "null"),
                                   ("difference", jsonNum(row.difference)), ("equation", "\"\(row.equation)\""),
                                   ("formula", "\"\(row.formula)\""), ("refined_form", row.refined.map(jsonNum) ?? "null"),
                                   ("simulated_mean", jsonNum(row.simulated.mean)), ("thesis_for", "\"\(row.thesisFor)\""),
                                   ("windows", "\(r.windows)")]
            fields.sort { $0.0 < $1.0 }
            s += "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
        }
        return s
    }
}
