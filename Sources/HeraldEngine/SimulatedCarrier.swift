import Foundation
import HeraldCore

/// The simulated SMS carrier. A message's fate and timing derive from the seed and its messageId
/// alone: reproducible, and it survives restarts. The engine stores each report when it is due.
public struct SimulatedCarrier: Carrier, Hashable {
    /// How a message ends.
    public enum Outcome: String, Sendable, Hashable {
        case delivered, impossible, uncertain, stuckAtNetwork
    }

    /// One message's fate: its outcome and when (unscaled seconds after sending) each step happens.
    public struct Plan: Sendable, Hashable {
        public let outcome: Outcome
        /// MessageWaiting → DeliveredToNetwork.
        public let networkAfter: TimeInterval
        /// DeliveredToNetwork → final status (unused when stuck at the network).
        public let finalAfter: TimeInterval
    }

    public let config: EngineConfig

    public init(config: EngineConfig) { self.config = config }

    public func plan(messageId: String) -> Plan {
        let h = StableHash.hash(messageId, seed: config.carrierSeed)
        let u = StableHash.unit(h, 0)
        let outcome: Outcome
        if u < config.impossibleShare {
            outcome = .impossible
        } else if u < config.impossibleShare + config.uncertainShare {
            outcome = .uncertain
        } else if u < config.impossibleShare + config.uncertainShare + config.stuckAtNetworkShare {
            outcome = .stuckAtNetwork
        } else {
            outcome = .delivered
        }
        let network = Self.pick(config.networkDelay, StableHash.unit(h, 1))
        let final = network + Self.pick(config.finalDelay, StableHash.unit(h, 2))
        return Plan(outcome: outcome, networkAfter: network, finalAfter: final)
    }

    /// The status of a message sent at `sentAt`, seen at `now`.
    public func status(messageId: String, sentAt: Date, at now: Date) -> DeliveryStatus {
        let elapsed = now.timeIntervalSince(sentAt) * config.timeScale
        let plan = plan(messageId: messageId)
        if elapsed < plan.networkAfter { return .messageWaiting }
        if plan.outcome == .stuckAtNetwork || elapsed < plan.finalAfter { return .deliveredToNetwork }
        switch plan.outcome {
        case .delivered: return .deliveredToTerminal
        case .impossible: return .deliveryImpossible
        case .uncertain: return .deliveryUncertain
        case .stuckAtNetwork: return .deliveredToNetwork
        }
    }

    /// When the status of a message sent at `sentAt` next changes after `now`; nil when it never will.
    public func nextChange(messageId: String, sentAt: Date, after now: Date) -> Date? {
        let elapsed = now.timeIntervalSince(sentAt) * config.timeScale
        let plan = plan(messageId: messageId)
        if elapsed < plan.networkAfter { return sentAt.addingTimeInterval(plan.networkAfter / config.timeScale) }
        if plan.outcome != .stuckAtNetwork, elapsed < plan.finalAfter {
            return sentAt.addingTimeInterval(plan.finalAfter / config.timeScale)
        }
        return nil
    }

    func report(messageId: String, sentAt: Date, at now: Date) -> CarrierReport {
        CarrierReport(messageId: messageId, status: status(messageId: messageId, sentAt: sentAt, at: now),
                      nextCheckAt: nextChange(messageId: messageId, sentAt: sentAt, after: now))
    }

    /// It answers at once: a claim older than a few seconds belongs to a process that died.
    public var handOverLease: TimeInterval { 3 }

    public func submit(_ messages: [OutboundSMS], at now: Date) async throws -> [CarrierReport] {
        if let path = config.handOverLog { Self.log(messages, to: path) }
        return messages.map { report(messageId: $0.messageId, sentAt: $0.acceptedAt, at: now) }
    }

    /// One write in append mode, so lines of several processes never interleave.
    private static func log(_ messages: [OutboundSMS], to path: String) {
        let pid = getpid()
        let text = messages.map { "\($0.messageId)\t\($0.mayHaveBeenSent ? "resent" : "new")\t\(pid)\n" }.joined()
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    public func reports(_ messages: [InFlightSMS], at now: Date) async throws -> [CarrierReport] {
        messages.map { report(messageId: $0.messageId, sentAt: $0.acceptedAt, at: now) }
    }

    private static func pick(_ range: ClosedRange<Double>, _ u: Double) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * u
    }
}
