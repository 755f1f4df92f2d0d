import Foundation

/// When each recipient of a send may get it under quiet hours in their own local time: the zones come from the number
/// (`PhoneTimeZones`), and a number whose prefix leaves several zones possible waits for the hours open in all of
/// them. Worked out once per list of zones, not per number.
public enum QuietPlan {
    /// One recipient's time: nil when it may leave at `from` (not quiet there, or its zone is unknown).
    public struct Time: Sendable, Hashable {
        public var leavesAt: Date
        /// The recipient's zone as people read it ("Europe/Zagreb"), and the local time it leaves ("08:00").
        public var zone: String
        public var localTime: String
    }

    /// The time of each number (E.164), in order.
    public static func times(for numbers: [String], quiet: QuietHours, from: Date) -> [Time?] {
        var byZones: [[String]: Time?] = [:]
        return numbers.map { number in
            let zones = PhoneTimeZones.zones(forE164: number)
            let key = zones.map(\.identifier)
            if let known = byZones[key] { return known }
            var time: Time?
            let allowed = quiet.nextAllowed(after: from, in: zones)
            if let zone = zones.first, allowed.timeIntervalSince(from) >= 1 {
                // To the millisecond, as the ledger and the wire keep it.
                let leaves = Date(epochMilliseconds: allowed.epochMilliseconds)
                time = Time(leavesAt: leaves, zone: zones.count == 1 ? zone.identifier : key.joined(separator: ", "),
                            localTime: WallClock.time(leaves, in: zone))
            }
            byZones[key] = time
            return time
        }
    }
}
