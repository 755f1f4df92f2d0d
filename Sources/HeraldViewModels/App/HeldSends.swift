import Foundation
import HeraldCore
import HeraldServices

/// Sends of this terminal the platform still holds (the undo window): the countdown the shell shows above the
/// toasts, and taking the newest back. A send scheduled further ahead than the window is not counted down here;
/// Deliveries lists it with its time.
public final class HeldSends {
    /// One held bulk and when it leaves.
    public struct Held: Sendable, Hashable {
        public var bulkId: String
        public var invitations: Int
        public var sendAt: Date
    }

    /// Longest countdown shown: a send held longer is a scheduled one.
    public static let countdownLimit: TimeInterval = 3600
    public private(set) var held: [Held] = []
    /// A take-back under way (the key does nothing twice).
    public private(set) var takingBack = false
    private let clock: any HeraldClock
    private let effects: EffectQueue
    private let cancel: @Sendable (String) async throws -> HeldBulkAnswer
    private let onToast: (ToastLevel, String) -> Void

    public init(clock: any HeraldClock, effects: EffectQueue, cancel: @escaping @Sendable (String) async throws -> HeldBulkAnswer,
                onToast: @escaping (ToastLevel, String) -> Void) {
        self.clock = clock
        self.effects = effects
        self.cancel = cancel
        self.onToast = onToast
    }

    /// Counts down a bulk this terminal just sent, when the platform holds it.
    @discardableResult
    public func fold(_ sent: BulkSent) -> Bool {
        guard let sendAt = sent.sendAt, sent.accepted > 0 else { return false }
        let left = sendAt.timeIntervalSince(clock.now())
        guard left > 0, left <= Self.countdownLimit else { return false }
        held.removeAll { $0.bulkId == sent.bulkId }
        held.append(Held(bulkId: sent.bulkId, invitations: sent.accepted, sendAt: sendAt))
        return true
    }

    /// The countdown line ("3 invitations leave in 8 s — ctrl-x takes them back"), nil when nothing is held.
    public func notice(key: String) -> String? {
        let now = clock.now()
        guard let next = held.filter({ $0.sendAt > now }).max(by: { $0.sendAt < $1.sendAt }) else { return nil }
        let seconds = Int(next.sendAt.timeIntervalSince(now).rounded(.up))
        let count = held.filter { $0.sendAt > now }.reduce(0) { $0 + $1.invitations }
        let them = count == 1 ? "it" : "them"
        if takingBack { return "taking back \(counted(count, "invitation"))…" }
        return "\(counted(count, "invitation")) \(count == 1 ? "leaves" : "leave") in \(seconds) s — \(key) takes \(them) back"
    }

    /// Drops the bulks that left; true when the line changes (every second while one is held).
    public func tick(now: Date) -> Bool {
        let before = held.count
        held.removeAll { $0.sendAt <= now }
        return before > 0
    }

    /// When the countdown next changes: the next whole second while something is held.
    public func nextDeadline() -> Date? {
        let now = clock.now()
        // The countdown shows the last of them to leave; it changes as that one's seconds do.
        guard let last = held.map(\.sendAt).filter({ $0 > now }).max() else { return nil }
        let fraction = last.timeIntervalSince(now).truncatingRemainder(dividingBy: 1)
        return now.addingTimeInterval(fraction > 0.01 ? fraction : 1)
    }

    /// Takes back every held bulk; the answer of each says whether it was in time. False when nothing is held.
    @discardableResult
    public func takeBack() -> Bool {
        let now = clock.now()
        let bulks = held.filter { $0.sendAt > now }.map(\.bulkId)
        guard !bulks.isEmpty, !takingBack else { return !bulks.isEmpty }
        takingBack = true
        let cancel = self.cancel
        effects.perform({ () async -> [Result<HeldBulkAnswer, any Error>] in
            var answers: [Result<HeldBulkAnswer, any Error>] = []
            for bulk in bulks {
                do { answers.append(.success(try await cancel(bulk))) } catch { answers.append(.failure(error)) }
            }
            return answers
        }) { [weak self] result in
            guard let self else { return }
            self.takingBack = false
            self.held.removeAll { bulks.contains($0.bulkId) }
            guard case .success(let answers) = result else { return }
            for answer in answers {
                switch answer {
                case .success(let done): self.onToast(done.left == 0 ? .success : .warning, done.summary)
                case .failure(let error): self.onToast(.error, "could not take it back: " + userMessage(for: error))
                }
            }
        }
        return true
    }
}
