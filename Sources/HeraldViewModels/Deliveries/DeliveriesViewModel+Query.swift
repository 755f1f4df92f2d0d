import Foundation
import HeraldCore
import HeraldServices

/// The `/` query of Deliveries (one parser in Core, `DeliveryQuery`): as it is typed, only bulks with a matching
/// recipient show, and in an open bulk only the recipients that match; the answer is read off the UI thread and read
/// again as the ledger moves. A query that cannot be read says why and leaves the last answer shown.
extension DeliveriesViewModel {
    /// Sets the query as typed (each key): read at once; "" shows everything again.
    public func setQuery(_ text: String) {
        query.text = text
        guard query.isActive else {
            query = DeliveryQueryState(text: text)
            refilter()
            refreshBreakdown()
            return
        }
        askQuery()
    }

    /// Leaves the field: the query joins the history (kept across runs).
    public func rememberQuery() {
        guard queryHistory.remember(query.text) else { return }
        let search = self.search, kept = queryHistory.entries
        context.run({ try await search.saveSearchHistory(kept) }, for: self, failure: "could not keep the query history",
                    level: .warning) { _, _ in }
    }

    /// ↑ (-1) and ↓ (+1) in the field: an earlier or later query, run at once; nil when there is none that way.
    public func recallQuery(_ delta: Int) -> String? {
        guard let text = queryHistory.walk(delta, current: query.text) else { return nil }
        setQuery(text)
        return text
    }

    /// A new walk through the history starts from what is typed.
    public func restartHistory() { queryHistory.restart() }

    func loadQueryHistory() {
        let search = self.search
        context.run({ try await search.searchHistory() }, for: self, failure: "could not read the query history",
                    level: .warning) { vm, kept in vm.queryHistory.load(kept) }
    }

    /// The query read now, or nil (and the error shown) when it cannot be.
    private func parsedQuery(_ text: String) -> DeliveryQuery? {
        do {
            let parsed = try search.query(text)
            query.error = nil
            query.notes = parsed.notes
            return parsed
        } catch {
            query.error = error.message
            return nil
        }
    }

    /// Reads which bulks match (and, with a bulk open, which of its recipients).
    func askQuery() {
        guard query.isActive, let parsed = parsedQuery(query.text) else { return }
        query.isReading = true
        let search = self.search, text = query.text
        context.effects.perform({ try await search.matches(parsed) }, supersedes: "deliveries.query") { [weak self] result in
            guard let self, self.query.text == text else { return }
            self.query.isReading = false
            switch result {
            case .success(let matches):
                self.query.matches = matches
                self.refilter()
            case .failure(let error):
                self.query.error = "could not read the ledger: \(userMessage(for: error))"
            }
        }
        askOpenBulkMatches()
        refreshBreakdown()
    }

    /// Reads which recipients of the open bulk match the query.
    func askOpenBulkMatches() {
        guard query.isActive, let bulkId = openBulkId, let bulk = openBulk,
              let parsed = parsedQuery(query.text + " bulk:\(bulkId)") else { return }
        let search = self.search, text = query.text
        context.effects.perform({
            Set(try await search.recipients(parsed, range: 0..<max(1, bulk.recipients)).map(\.id))
        }, supersedes: "deliveries.query.recipients") { [weak self] result in
            guard let self, self.query.text == text, self.openBulkId == bulkId else { return }
            switch result {
            case .success(let ids):
                self.query.recipientIds = ids
                self.refilterRecipients()
            case .failure(let error):
                self.toasts.post("could not read the matching recipients: \(userMessage(for: error))", level: .error)
            }
        }
    }

    /// The ledger changed: what the query and the breakdown show is read again.
    func ledgerMoved() {
        if query.isActive { askQuery() } else { refreshBreakdown() }
    }

    /// Clears the query (Esc); false when there was none.
    public func clearQuery() -> Bool {
        guard query.isActive || query.error != nil else { return false }
        setQuery("")
        return true
    }

    // MARK: export

    /// `:export FILE`: writes what is shown (the query; in an open bulk, its recipients) to FILE, as CSV unless the
    /// name ends in .tsv or .json; the format is safe to open in a spreadsheet.
    public func export(to path: String) {
        let trimmed = path.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { toasts.post(":export needs a file, e.g. :export ~/failed.csv", level: .warning); return }
        var text = query.isActive ? query.text : ""
        if let bulk = openBulkId { text += " bulk:\(bulk)" }
        if filter != .all { text += " status:\(filter.rawValue)" }
        guard let parsed = parsedQuery(text) else {
            toasts.post(":export: \(query.error ?? "the query cannot be read")", level: .error)
            return
        }
        let format = DeliveryExportFormat.forFile(trimmed)
        let search = self.search
        toasts.post("exporting to \(trimmed)…", level: .info)
        context.run({ try await search.export(parsed, format: format, to: trimmed) }, for: self, failure: "export failed") { vm, summary in
            vm.toasts.post("exported \(counted(summary.rows, "recipient")) to \(summary.path ?? trimmed) (\(format.rawValue))",
                           level: .success)
        }
    }
}

extension DeliveryExportFormat {
    /// The format a file's name asks for: .tsv and .json by their extension, anything else CSV.
    public static func forFile(_ path: String) -> DeliveryExportFormat {
        switch (path as NSString).pathExtension.lowercased() {
        case "tsv", "tab": return .tsv
        case "json", "jsonl": return .json
        default: return .csv
        }
    }
}
