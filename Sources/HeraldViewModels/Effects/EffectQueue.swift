import Foundation

/// A finished effect on its way back to the thread that owns the view-models.
nonisolated public struct EffectCompletion: Sendable {
    let id: Int
    let result: any Sendable
}

/// Runs a view-model's async work (calls into services) off the UI thread and hands the result back
/// to a continuation that runs on the thread owning the view-models (the app loop's thread).
///
/// View-models are main-actor classes (the UI modules are main-actor isolated by default, and the app
/// loop runs on the main actor), so the compiler rejects touching them from `work`, which runs
/// detached. `perform` starts a Task for the work; when it finishes, `deliver` posts an
/// `EffectCompletion` (the app posts it into its mailbox, which wakes the loop); the loop calls
/// `complete(_:)`, which runs the stored continuation on the main actor. Continuations never cross
/// threads: only the id and the Sendable result do.
public final class EffectQueue {
    private var continuations: [Int: (any Sendable) -> Void] = [:]
    private var nextId = 0
    private let deliver: @Sendable (EffectCompletion) -> Void

    /// - Parameter deliver: how a completion reaches the owning thread (e.g. `mailbox.post`).
    public init(deliver: @escaping @Sendable (EffectCompletion) -> Void) {
        self.deliver = deliver
    }

    /// Number of effects started and not yet completed on the owning thread.
    public var inFlight: Int { continuations.count }

    /// A mark of the effects started so far (for `inFlight(startedSince:)`).
    public var mark: Int { nextId }

    /// Whether an effect started after `mark` has not completed yet.
    public func inFlight(startedSince mark: Int) -> Bool { continuations.keys.contains { $0 >= mark } }

    /// Starts `work`; `then` runs later on the owning thread with its result.
    public func perform<T: Sendable>(_ work: @escaping @Sendable () async throws -> T,
                                     then: @escaping (Result<T, any Error>) -> Void) {
        let id = nextId
        nextId += 1
        continuations[id] = { boxed in
            if let result = boxed as? Result<T, any Error> { then(result) }
        }
        let deliver = self.deliver
        Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            deliver(EffectCompletion(id: id, result: result))
        }
    }

    /// Runs the continuation of a finished effect. Call on the owning thread only.
    /// Returns false when the id is unknown (already completed).
    @discardableResult
    public func complete(_ completion: EffectCompletion) -> Bool {
        guard let continuation = continuations.removeValue(forKey: completion.id) else { return false }
        continuation(completion.result)
        return true
    }
}
