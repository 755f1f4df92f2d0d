import Foundation
import Testing

/// `herald deliveries list|export` on a workspace the sandbox sent to: the real binary, real sends, real files.
@Suite struct CLIDeliveriesTests {
    /// Two contacts whose names a spreadsheet or a CSV reader would trip on, a number that said STOP (the platform
    /// refuses it, with a reason), and two bare numbers; sent in one bulk and waited for.
    struct Sent {
        let cli: PlatformCLI
        let bulk: String
        /// Each number's final status, as `herald status` says.
        let statuses: [String: String]
    }

    static let formula = #"=HYPERLINK("http://evil.example","x")"#
    static let comma = #"Horvat, Ana "Ani""#

    func sendSome() throws -> Sent {
        let cli = try PlatformCLI()
        // FN with an escaped comma: one name that holds a comma and quotes.
        let vcf = """
            BEGIN:VCARD\r\nVERSION:3.0\r\nN:;=HYPERLINK("http://evil.example"\\,"x");;;\r\nFN:=HYPERLINK("http://evil.example"\\,"x")\r\nTEL;TYPE=CELL:\(mobile(81))\r\nEND:VCARD\r
            BEGIN:VCARD\r\nVERSION:3.0\r\nN:Horvat;Ana;;;\r\nFN:Horvat\\, Ana "Ani"\r\nTEL;TYPE=CELL:\(mobile(82))\r\nEND:VCARD\r\n
            """
        let file = cli.home.appendingPathComponent("people.vcf")
        try vcf.write(to: file, atomically: true, encoding: .utf8)
        try cli.ok(["contacts", "import", file.path, "--region", "HR"])
        try cli.ok(["sandbox", "reply", "--from", mobile(83), "--text", "STOP"])
        let sent = try cli.ok(["send", "--to", mobile(81), mobile(82), mobile(83), mobile(84), mobile(85), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let status = try cli.ok(["status", bulk, "--wait", "--json"], timeout: 60).object()
        var statuses: [String: String] = [:]
        for info in status["deliveryInfo"] as? [[String: Any]] ?? [] {
            if let address = info["address"] as? String, let s = info["deliveryStatus"] as? String { statuses[address] = s }
        }
        #expect(statuses.count == 5, "\(status)")
        return Sent(cli: cli, bulk: bulk, statuses: statuses)
    }

    @Test func listAQueryGroupItByReasonAndExportItRowByRow() throws {
        let s = try sendSome()
        let cli = s.cli

        // The opted-out number is refused by the platform with a reason; a query finds it by that reason.
        let refused = try cli.ok(["deliveries", "list", "--query", "reason:opted", "--json"]).object()
        #expect(refused["count"] as? Int == 1)
        let one = try #require((refused["recipients"] as? [[String: Any]])?.first)
        #expect(one["number"] as? String == mobile(83) && one["status"] as? String == "Rejected" && one["state"] as? String == "failed")
        #expect(one["country"] as? String == "HR" && one["sentBy"] as? String == "Ana")
        #expect((refused["bulks"] as? [[String: Any]])?.first?["bulkId"] as? String == s.bulk)

        // status:failed answers what `herald status` says failed, no more, no less.
        let failedStatuses: Set = ["DeliveryImpossible", "Rejected", "SendFailed"]
        let failed = Set(s.statuses.filter { failedStatuses.contains($0.value) }.map(\.key))
        let listed = try cli.ok(["deliveries", "list", "--query", "status:failed", "--json"]).object()
        #expect(Set((listed["recipients"] as? [[String: Any]] ?? []).compactMap { $0["number"] as? String }) == failed)
        // And a not: everything else.
        let others = try cli.ok(["deliveries", "list", "--query", "-status:failed", "--json"]).object()
        #expect(others["count"] as? Int == 5 - failed.count)
        // A plain word finds a name; the table shows it made safe and the summary line.
        let human = try cli.ok(["deliveries", "list", "--query", "ani"])
        #expect(human.stdout.contains("Horvat, Ana \"Ani\"") && human.stdout.contains("1 of 1 recipient shown, in 1 bulk"), "\(human)")

        // The breakdown by reason: the refused number's reason is one group; the groups add up to what matched.
        let groups = try cli.ok(["deliveries", "list", "--query", "status:failed", "--group-by", "reason", "--json"]).object()
        #expect(groups["dimension"] as? String == "reason" && groups["total"] as? Int == failed.count)
        let rows = groups["groups"] as? [[String: Any]] ?? []
        #expect(rows.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == failed.count)
        let optedOut = try #require(rows.first { ($0["value"] as? String)?.hasPrefix("opted out") == true })
        #expect(optedOut["count"] as? Int == 1 && optedOut["final"] as? Int == 1)
        let table = try cli.ok(["deliveries", "list", "--group-by", "country"])
        #expect(table.stdout.contains("COUNTRY") && table.stdout.contains("HR") && table.stdout.contains("100%"), "\(table)")

        // The export: a header and one row per recipient, oldest first, each cell as the ledger has it, made safe.
        let path = cli.home.appendingPathComponent("out/report.csv")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        let exported = try cli.ok(["deliveries", "export", "--format", "csv", "-o", path.path])
        #expect(exported.stderr.contains("exported 5 recipients"), "\(exported)")
        let csv = try String(contentsOf: path, encoding: .utf8)
        let records = try parseCSV(csv)
        #expect(records.first == ["bulk", "time", "sent_by", "number", "name", "country", "state", "status", "reason", "price",
                                  "currency", "attempts", "clicks", "text"])
        #expect(records.count == 6)
        #expect(csv.hasSuffix("\r\n") && !csv.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "CRLF line ends only")
        let byNumber = Dictionary(records.dropFirst().map { ($0[3], $0) }, uniquingKeysWith: { a, _ in a })
        for number in [81, 82, 83, 84, 85].map(mobile) {
            let row = try #require(byNumber["'" + number], "the number is guarded as text: \(records)")
            #expect(row.count == 14)
            #expect(row[0] == s.bulk && row[2] == "Ana" && row[5] == "HR")
            #expect(row[7] == s.statuses[number], "\(number): \(row[7]) in the export, \(s.statuses[number] ?? "?") in status")
            #expect(row[11] == "1")
            #expect(row[1].hasSuffix("Z") && row[1].count == 20)
        }
        #expect(byNumber["'" + mobile(81)]?[4] == "'" + Self.formula, "a formula name starts with a quote")
        #expect(byNumber["'" + mobile(82)]?[4] == Self.comma, "a comma and quotes survive the CSV quoting")
        #expect(byNumber["'" + mobile(83)]?[8].hasPrefix("opted out") == true)
        #expect(csv.contains(#""Horvat, Ana ""Ani""""#), "RFC 4180: the cell quoted, its quotes doubled")
        let mode = try FileManager.default.attributesOfItem(atPath: path.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path.deletingLastPathComponent().path) == ["report.csv"],
                "no temporary file is left beside it")

        // TSV and JSON of the same query; stdout with -o -.
        let tsv = try cli.ok(["deliveries", "export", "--query", "status:failed", "--format", "tsv", "-o", "-"])
        let lines = tsv.stdout.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == failed.count + 1 && lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 14 })
        let json = try cli.ok(["deliveries", "export", "--query", "ani", "--format", "json", "-o", "-"]).array()
        let object = try #require(json.first as? [String: Any])
        #expect(json.count == 1 && object["name"] as? String == Self.comma && object["number"] as? String == mobile(82))
    }

    @Test func aQueryThatCannotBeReadSaysWhatToWriteAndAFailedExportLeavesNothing() throws {
        let cli = try PlatformCLI()
        let bad = try cli.run(["deliveries", "list", "--query", "status:fialed"])
        #expect(bad.status == 1 && !bad.crashed)
        #expect(bad.stderr.contains("--query: status:fialed is not a state: use status:failed"), "\(bad)")
        let date = try cli.run(["deliveries", "export", "--query", "after:yesterday", "-o", "-"])
        #expect(date.status == 1 && date.stderr.contains("after:30m"), "\(date)")
        #expect(date.stdout.isEmpty)
        let group = try cli.run(["deliveries", "list", "--group-by", "colour"])
        #expect(group.status == 1 && group.stderr.contains("use reason, country or sender"), "\(group)")
        let noFolder = try cli.run(["deliveries", "export", "-o", cli.home.appendingPathComponent("missing/x.csv").path])
        #expect(noFolder.status == 1 && noFolder.stderr.contains("cannot export to"), "\(noFolder)")
        let network = try cli.ok(["deliveries", "list", "--query", "network:A1", "--json"])
        #expect(network.stderr.contains("network: matches nothing"), "\(network)")
        #expect(try network.object()["count"] as? Int == 0)
    }

    /// RFC 4180 records (quoted fields with doubled quotes, CRLF between records).
    func parseCSV(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars = chars.dropFirst() } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                record.append(field)
                field = ""
            } else if c == "\r\n" || c == "\n" {
                record.append(field)
                records.append(record)
                record = []
                field = ""
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }
}
