import SimKernel
import GrouperModel

/// Renders equation rows as Markdown, CSV and JSON Lines (sorted keys, fixed digits).
public enum EquationReport {
    static func num(_ v: Double) -> String { NumberFormat.fixed(v, digits: 4) }
    static func jsonNum(_ v: Double) -> String { v.isFinite ? NumberFormat.fixed(v, digits: 4) : "null" }

    public static func parameterPairs(_ p: EquationParameters) -> [(String, String)] {
        [("C", "\(p.confirms)"), ("D", "\(p.devices)"), ("F", NumberFormat.shortest(p.offline)),
         ("L", p.offlineTime.description), ("T", p.ttl.description), ("U_i", "\(p.updatesPerDevice)"),
         ("replications", "\(p.replications)"), ("seed", "\(p.seed)"), ("variant", p.variant.rawValue)]
    }

    /// One line: what a device's uploads in the window were made of.
    public static func mixLine(_ m: UploadMix) -> String {
        "Measured uploads per device (mean ± 95% CI): normal first uploads \(num(m.normal.mean)) ± \(num(m.normal.ci95HalfWidth)), "
            + "confirms \(num(m.confirms.mean)) ± \(num(m.confirms.ci95HalfWidth)), resend requests \(num(m.resendRequests.mean)) ± \(num(m.resendRequests.ci95HalfWidth)), "
            + "re-uploads \(num(m.reUploads.mean)) ± \(num(m.reUploads.ci95HalfWidth)).\n"
    }

    public static func markdown(_ rows: [EquationRow], _ p: EquationParameters) -> String {
        var s = "Parameters: " + parameterPairs(p).map { "\($0.0)=\($0.1)" }.joined(separator: ", ") + "\n\n"
        s += "| equation | quantity | closed form | closed-form value | simulated mean | 95% CI ± | difference |\n"
        s += "|---|---|---|---|---|---|---|\n"
        for r in rows {
            s += "| \(r.equation) | \(r.quantity) | \(r.formula) | \(num(r.closedForm)) | \(num(r.simulated.mean)) | \(num(r.simulated.ci95HalfWidth)) | \(num(r.difference)) |\n"
        }
        return s + "\nDownloads include the device's own uploads (thesis 6.3); uploads count every message stored on ≥ s servers (normal, confirm, resend request, re-upload).\n"
    }

    public static func csv(_ rows: [EquationRow], _ p: EquationParameters) -> String {
        let keys = parameterPairs(p)
        var s = "equation,closed_form,simulated_mean,ci95,difference," + keys.map(\.0).joined(separator: ",") + "\n"
        for r in rows {
            s += "\(r.equation),\(num(r.closedForm)),\(num(r.simulated.mean)),\(num(r.simulated.ci95HalfWidth)),\(num(r.difference)),"
                + keys.map(\.1).joined(separator: ",") + "\n"
        }
        return s
    }

    /// One object per line; keys sorted.
    public static func jsonLines(_ rows: [EquationRow], _ p: EquationParameters) -> String {
        let params = parameterPairs(p).map { k, v -> (String, String) in
            ["C", "D", "F", "U_i", "replications", "seed"].contains(k) ? (k, v) : (k, "\"\(v)\"")
        }
        var s = ""
        for r in rows {
            var fields = params + [("ci95", jsonNum(r.simulated.ci95HalfWidth)), ("closed_form", jsonNum(r.closedForm)),
                                   ("difference", jsonNum(r.difference)), ("equation", "\"\(r.equation)\""),
                                   ("formula", "\"\(r.formula)\""), ("simulated_mean", jsonNum(r.simulated.mean))]
            fields.sort { $0.0 < $1.0 }
            s += "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
        }
        return s
    }
}
