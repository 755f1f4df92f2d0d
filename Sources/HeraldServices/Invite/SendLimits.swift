import Foundation
import HeraldCore

/// The rules a send keeps before anything is queued: a sender ID's daily cap, and each recipient's quiet hours.
extension InviteService {
    /// Leaves out of `candidates` what is over today's cap of this sender ID (`[send] max_per_day`), each with the
    /// reason, and tells `result` how many remain.
    func applyDailyCap(to candidates: inout [Candidate], sender: String, result: inout InviteResult) throws {
        guard let cap = settings.maxPerDay, !candidates.isEmpty else { return }
        let today = Calendar.current.startOfDay(for: clock.now())
        let left = max(0, cap - (try ledger.invitationsSent(sender: sender, since: today)))
        if candidates.count > left {
            let reason = "over today's cap of \(cap) invitations from \(sender) ([send] max_per_day); it resets at midnight"
            result.skipped += candidates[left...].map { SkippedRecipient(address: $0.e164, personId: $0.personId, reason: reason) }
            candidates = Array(candidates.prefix(left))
        }
        result.leftToday = left - candidates.count
    }

    /// The candidates by when they may leave under quiet hours in their own local time (`[send] quiet_hours`, or the
    /// send's own): nil first (as soon as the send leaves), then each later time with why each of them waits.
    func quietGroups(_ candidates: [Candidate], options: InviteOptions, from: Date)
        -> [(leavesAt: Date?, members: [Candidate], notes: [String: String])] {
        guard let quiet = options.ignoreQuietHours ? nil : options.quietHours ?? settings.quietHours else {
            return [(nil, candidates, [:])]
        }
        let times = QuietPlan.times(for: candidates.map(\.e164), quiet: quiet, from: from)
        return Dictionary(grouping: zip(candidates, times), by: { $0.1?.leavesAt })
            .sorted { ($0.key ?? .distantPast) < ($1.key ?? .distantPast) }
            .map { leavesAt, pairs in
                let notes = Dictionary(pairs.compactMap { c, t in
                    t.map { (c.correlator, "quiet hours \(quiet): leaves at \($0.localTime) local time (\($0.zone))") }
                }, uniquingKeysWith: { a, _ in a })
                return (leavesAt, pairs.map(\.0), notes)
            }
    }
}
