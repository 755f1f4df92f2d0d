import Foundation

/// What `/metrics` tells, in Prometheus' text format: requests by route and status, request latencies,
/// event-stream subscribers, and the carrier's queue.
final class ServerMetrics: @unchecked Sendable {
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct Latency {
        var counts = Array(repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private let lock = NSLock()
    private var requests: [String: [Int: Int]] = [:]
    private var latencies: [String: Latency] = [:]
    private var subscribers = 0
    private var dropped = 0
    private var carrierLeader = false
    private var pushedChanges = 0

    /// Counts one answered request; `route` is its template ("/1/smsmessaging/outbound/requests/{bulkId}/deliveryInfos").
    func record(route: String, status: Int, seconds: Double) {
        lock.withLock {
            requests[route, default: [:]][status, default: 0] += 1
            var latency = latencies[route] ?? Latency()
            for (i, bound) in Self.buckets.enumerated() where seconds <= bound { latency.counts[i] += 1 }
            latency.sum += seconds
            latency.count += 1
            latencies[route] = latency
        }
    }

    func subscriberJoined() { lock.withLock { subscribers += 1 } }
    func subscriberLeft() { lock.withLock { subscribers -= 1 } }
    /// A subscriber was dropped because it stopped reading.
    func subscriberDropped() { lock.withLock { dropped += 1 } }
    /// Whether this replica runs the carrier work now.
    func setCarrierLeader(_ leads: Bool) { lock.withLock { carrierLeader = leads } }

    /// Counts the statuses a call of the carrier's report webhook changed.
    func recordCarrierReports(_ changed: Int) { lock.withLock { pushedChanges += changed } }

    func render(carrierQueue: Int?) -> String {
        lock.withLock {
            var out = ""
            out += "# HELP herald_requests_total Requests answered, by route and status.\n"
            out += "# TYPE herald_requests_total counter\n"
            for route in requests.keys.sorted() {
                for (status, n) in requests[route]!.sorted(by: { $0.key < $1.key }) {
                    out += "herald_requests_total{route=\"\(Self.escape(route))\",status=\"\(status)\"} \(n)\n"
                }
            }
            out += "# HELP herald_request_duration_seconds Time to answer a request (event streams: to their first byte).\n"
            out += "# TYPE herald_request_duration_seconds histogram\n"
            for route in latencies.keys.sorted() {
                let l = latencies[route]!
                let label = "route=\"\(Self.escape(route))\""
                for (i, bound) in Self.buckets.enumerated() {
                    out += "herald_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(l.counts[i])\n"
                }
                out += "herald_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(l.count)\n"
                out += "herald_request_duration_seconds_sum{\(label)} \(l.sum)\n"
                out += "herald_request_duration_seconds_count{\(label)} \(l.count)\n"
            }
            out += "# HELP herald_sse_subscribers Event-stream subscribers connected now.\n"
            out += "# TYPE herald_sse_subscribers gauge\n"
            out += "herald_sse_subscribers \(subscribers)\n"
            out += "# HELP herald_sse_dropped_total Subscribers dropped because they stopped reading.\n"
            out += "# TYPE herald_sse_dropped_total counter\n"
            out += "herald_sse_dropped_total \(dropped)\n"
            out += "# HELP herald_carrier_leader 1 when this replica runs the carrier work (one replica per database).\n"
            out += "# TYPE herald_carrier_leader gauge\n"
            out += "herald_carrier_leader \(carrierLeader ? 1 : 0)\n"
            out += "# HELP herald_carrier_pushed_changes_total Statuses changed by reports the carrier pushed to this replica.\n"
            out += "# TYPE herald_carrier_pushed_changes_total counter\n"
            out += "herald_carrier_pushed_changes_total \(pushedChanges)\n"
            if let carrierQueue {
                out += "# HELP herald_carrier_queue Messages the carrier has not finished with (outbox or awaiting a report).\n"
                out += "# TYPE herald_carrier_queue gauge\n"
                out += "herald_carrier_queue \(carrierQueue)\n"
            }
            return out
        }
    }

    private static func escape(_ label: String) -> String {
        label.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
