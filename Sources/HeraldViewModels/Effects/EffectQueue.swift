import Foundation

/// A finished effect on its way back to the thread that owns the view-models: its id and the typed continuation
/// already paired with its result. Only Sendable things cross: the result, and the main-actor box holding the
/// continuation.
nonisolated public struct EffectCompletion: Sendable {
    let id: Int
    let resume: @MainActor @Sendable () -> Void
}

/// The continuation of one effect, typed by its result (a main-actor class: the compiler lets it cross to the
/// work's task and back, and lets it run on the UI thread only).
final class EffectContinuation<T: Sendable> {
    private let then: (Result<T, any Error>) -> Void
    init(_ then: @escaping (Result<T, any Error>) -> Void) { self.then = then }
    func resume(_ result: Result<T, any Error>) { then(result) }
}

/// Runs a view-model's async work (calls into services) off the UI thread and hands the result back
/// to a continuation that runs on the thread owning the view-models (the app loop's thread).
///
/// View-models are main-actor classes (the UI modules are main-actor isolated by default, and the app
/// loop runs on the main actor), so the compiler rejects touching them from `work`, which runs
/// detached. `perform` starts a Task for the work; when it finishes, `deliver` posts an
/// `EffectCompletion` (the app posts it into its mailbox, which wakes the loop); the loop calls
/// `complete(_:)`, which runs the continuation with its result, typed end to end (model: aerc's worker messages,
/// each reply paired with its request). An effect started under a `supersedes` key cancels the one still in flight
/// under that key: its task is cancelled (a network request with it) and its continuation never runs.
public final class EffectQueue {
    private var tasks: [Int: Task<Void, Never>] = [:]
    /// The effect in flight under each key.
    private var latest: [String: Int] = [:]
    private var nextId = 0
    private let deliver: @Sendable (EffectCompletion) -> Void

    /// - Parameter deliver: how a completion reaches the owning thread (e.g. `mailbox.post`).
    public init(deliver: @escaping @Sendable (EffectCompletion) -> Void) {
        self.deliver = deliver
    }

    /// Number of effects started and neither completed on the owning thread nor superseded.
    public var inFlight: Int { tasks.count }

    /// A mark of the effects started so far (for `inFlight(startedSince:)`).
    public var mark: Int { nextId }

    /// Whether an effect started after `mark` has not completed yet.
    public func inFlight(startedSince mark: Int) -> Bool { tasks.keys.contains { $0 >= mark } }

    /// Starts `work`; `then` runs later on the owning thread with its result. With `key`, an effect still in flight
    /// under the same key is superseded: cancelled, and its `then` never runs.
    public func perform<T: Sendable>(_ work: @escaping @Sendable () async throws -> T, supersedes key: String? = nil,
                                     then: @escaping (Result<T, any Error>) -> Void) {
        let id = nextId
        nextId += 1
        if let key {
            if let older = latest[key] { tasks.removeValue(forKey: older)?.cancel() }
            latest[key] = id
        }
        let continuation = EffectContinuation(then)
        let deliver = self.deliver
        tasks[id] = Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            deliver(EffectCompletion(id: id) { continuation.resume(result) })
        }
    }

    /// Runs the continuation of a finished effect. Call on the owning thread only.
    /// Returns false when the id is unknown (already completed, or superseded).
    @discardableResult
    public func complete(_ completion: EffectCompletion) -> Bool {
        guard tasks.removeValue(forKey: completion.id) != nil else { return false }
        if let key = latest.first(where: { $0.value == completion.id })?.key { latest[key] = nil }
        completion.resume()
        return true
    }
}
