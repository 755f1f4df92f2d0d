import Foundation
import HeraldCore
import HeraldServices

/// A 10,000-recipient send spread over five time zones with quiet hours "21:00-08:00", at 2026-01-15 07:00 UTC: 08:00 in
/// Zagreb and 16:00 in Tokyo (open), 07:00 in London, 02:00 in New York, 23:00 in Los Angeles (quiet). How long working
/// out each recipient's time takes (`QuietPlan`), and the whole send through the embedded platform (planning, the
/// ledger's claim per time, and the platform's answer), with how many bulks it became.
func quietBench(dir: URL) async throws {
    // 2,000 mobiles each in Zagreb, London, New York, Los Angeles and Tokyo, valid to libphonenumber.
    var numbers: [String] = []
    for i in 0..<2_000 {
        numbers.append("+38591" + String(format: "%07d", 1_000_000 + i))
        numbers.append("+447911" + String(format: "%06d", 100_000 + i))
        numbers.append("+1212555" + String(format: "%04d", i))
        numbers.append("+1310555" + String(format: "%04d", i))
        numbers.append("+8190" + String(format: "%08d", 10_000_000 + i))
    }
    let quiet = try QuietHours(parsing: "21:00-08:00")
    let at = Date(timeIntervalSince1970: 1_768_460_400)   // 2026-01-15 07:00 UTC
    var times: [QuietPlan.Time?] = []
    var samples: [Double] = []
    for _ in 0..<10 { samples.append(seconds { times = QuietPlan.times(for: numbers, quiet: quiet, from: at) } * 1000) }
    let waiting = times.compactMap { $0 }
    let byZone = Dictionary(grouping: waiting, by: \.zone).map { "\($0.value.count) in \($0.key) until \($0.value[0].localTime)" }.sorted()
    print("quiet:    \(numbers.count) recipients over 5 zones, quiet hours 21:00-08:00: each one's time worked out in " + summary(samples))
    print("          \(waiting.count) wait (\(byZone.joined(separator: "; "))), \(times.count - waiting.count) leave at once")

    var config = WorkspaceConfig(region: "HR", sender: "Herald", senderName: "Ana")
    config.quietHours = quiet
    let workspace = try await Workspace.open(dataDirectory: dir.appendingPathComponent("quiet"), config: config,
                                             clock: FixedBenchClock(at))
    defer { workspace.close() }
    var result = InviteResult()
    let whole = try await timed { result = try await workspace.invites.invite(numbers: numbers) }
    print("          the whole send (plan, ledger, embedded platform): \(fmt(whole)) s, \(result.recipients.count) recipients in "
          + "\(result.bulkIds.count) bulks, \(result.recipients.filter { $0.status == .scheduled }.count) held for their morning")
}

/// Seconds an async body takes.
func timed(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// A clock stopped at one instant, so the zones' nights are the same every run.
struct FixedBenchClock: HeraldClock {
    let instant: Date
    init(_ instant: Date) { self.instant = instant }
    func now() -> Date { instant }
}
