import Foundation
import HeraldCore

/// The simulated SMS carrier. A message's fate and timing derive from the seed and its messageId
/// alone, so the status at any time is computed, not stored: reproducible, and it survives restarts.
public struct SimulatedCarrier: Sendable, Hashable {
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

    private static func pick(_ range: ClosedRange<Double>, _ u: Double) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * u
    }
}
