import Foundation
import HeraldCore
import HeraldServices

/// The breakdown (`b`): what the query matches (everything when there is none) grouped by failure reason, country
/// or sender ID (`d` switches), largest first, read off the UI thread and again as the ledger moves. `enter` opens a
/// group's recipients (and one of them in detail), `r` resends what of the group can be retried, through the usual
/// confirmation.
extension DeliveriesViewModel {
    /// Opens the breakdown, or closes it.
    public func toggleBreakdown() {
        if breakdown.isOpen {
            breakdown = DeliveryBreakdownState(dimension: breakdown.dimension)
            return
        }
        breakdown.isOpen = true
        breakdown.cursor = 0
        refreshBreakdown()
    }

    /// Groups by the next dimension: reason → country → sender ID.
    public func cycleBreakdownDimension() {
        guard breakdown.isOpen else { return }
        breakdown.dimension = breakdown.dimension.next
        breakdown.breakdown = nil
        breakdown.cursor = 0
        breakdown.openGroup = nil
        breakdown.groupRecipients = []
        refreshBreakdown()
    }

    /// The query the breakdown counts: the one typed (when it can be read), else everything.
    private var breakdownQuery: DeliveryQuery? {
        do { return try search.query(query.isActive ? query.text : "") } catch { return nil }
    }

    /// Reads the groups again (and the open group's recipients).
    public func refreshBreakdown() {
        guard breakdown.isOpen, let parsed = breakdownQuery else { return }
        breakdown.isReading = true
        let search = self.search, dimension = breakdown.dimension
        context.effects.perform({ try await search.breakdown(parsed, by: dimension) }, supersedes: "deliveries.breakdown") { [weak self] result in
            guard let self, self.breakdown.isOpen, self.breakdown.dimension == dimension else { return }
            self.breakdown.isReading = false
            switch result {
            case .success(let answer):
                let key = self.breakdown.currentGroup?.key
                self.breakdown.breakdown = answer
                if let key, let at = answer.groups.firstIndex(where: { $0.key == key }) { self.breakdown.cursor = at }
                self.breakdown.cursor = max(0, min(self.breakdown.cursor, answer.groups.count - 1))
                if let open = self.breakdown.openGroup {
                    self.breakdown.openGroup = answer.groups.first { $0.key == open.key } ?? open
                }
            case .failure(let error):
                self.toasts.post("could not read the breakdown: \(userMessage(for: error))", level: .error)
            }
        }
        if let group = breakdown.openGroup { readGroup(group.key, query: parsed) }
    }

    public func moveBreakdownCursor(by delta: Int) { moveBreakdownCursor(to: (breakdown.openGroup == nil ? breakdown.cursor : breakdown.groupCursor) + delta) }

    public func moveBreakdownCursor(to index: Int) {
        if breakdown.openGroup != nil {
            breakdown.groupCursor = max(0, min(index, breakdown.groupRecipients.count - 1))
            if breakdown.detailId != nil { breakdown.detailId = breakdown.currentRecipient?.id }
        } else {
            breakdown.cursor = max(0, min(index, breakdown.groups.count - 1))
        }
    }

    /// Enter: the group under the cursor opened to its recipients; in a group, the recipient in detail (again: closed).
    public func openBreakdownRow() {
        if breakdown.openGroup != nil {
            breakdown.detailId = breakdown.detailId == nil ? breakdown.currentRecipient?.id : nil
            return
        }
        guard let group = breakdown.currentGroup, let parsed = breakdownQuery else { return }
        breakdown.openGroup = group
        breakdown.groupRecipients = []
        breakdown.groupCursor = 0
        readGroup(group.key, query: parsed)
    }

    private func readGroup(_ key: DeliveryGroupKey, query parsed: DeliveryQuery) {
        let search = self.search
        context.effects.perform({
            try await search.recipients(parsed, group: key, range: 0..<DeliveryBreakdownState.groupPage)
        }, supersedes: "deliveries.breakdown.group") { [weak self] result in
            guard let self, self.breakdown.openGroup?.key == key else { return }
            switch result {
            case .success(let rows):
                let keep = self.breakdown.currentRecipient?.id
                self.breakdown.groupRecipients = rows
                if let keep, let at = rows.firstIndex(where: { $0.id == keep }) { self.breakdown.groupCursor = at }
                self.breakdown.groupCursor = max(0, min(self.breakdown.groupCursor, rows.count - 1))
            case .failure(let error):
                self.toasts.post("could not read the group's recipients: \(userMessage(for: error))", level: .error)
            }
        }
    }

    /// Esc in the breakdown: the detail, then the open group, then the breakdown itself; false when it was not open.
    public func closeBreakdownLevel() -> Bool {
        guard breakdown.isOpen else { return false }
        if breakdown.detailId != nil { breakdown.detailId = nil; return true }
        if breakdown.openGroup != nil {
            breakdown.openGroup = nil
            breakdown.groupRecipients = []
            return true
        }
        toggleBreakdown()
        return true
    }

    /// The recipient of the open group shown in detail, as a row the detail draws.
    public var breakdownDetail: RecipientRow? {
        guard let id = breakdown.detailId, let r = breakdown.groupRecipients.first(where: { $0.id == id }) else { return nil }
        return RecipientRow(r)
    }

    /// `r` in the breakdown: asks to resend what of the group under the cursor (or the one open) can be retried.
    public func requestGroupResend() {
        guard !isResending else { toasts.post("a resend is already running", level: .warning); return }
        guard let group = breakdown.openGroup ?? breakdown.currentGroup, let parsed = breakdownQuery else {
            toasts.post("no group to resend", level: .warning)
            return
        }
        let search = self.search
        let what = "with \(breakdown.dimension.title.lowercased()) “\(TerminalSafeText.sanitize(group.key.label))”"
        context.run({ try await search.retryable(parsed, group: group.key) }, for: self,
                    failure: "could not read the group to resend") { vm, rows in
            vm.confirmResend(of: Array(Set(rows.map(\.bulkId))).sorted(), failed: rows.map(\.number), what: what)
        }
    }

    /// What `y` copies in the breakdown: the recipient's number in an open group, else the group's value.
    public var breakdownCopyTarget: CopyTarget? {
        if breakdown.openGroup != nil {
            return breakdown.currentRecipient.map { CopyTarget(text: $0.number, what: "number") }
        }
        return breakdown.currentGroup?.key.value.map { CopyTarget(text: $0, what: breakdown.dimension.rawValue) }
    }
}
