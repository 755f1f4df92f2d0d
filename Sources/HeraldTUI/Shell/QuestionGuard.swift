/// The rule that keeps a question (send, resend, merge, quit…) from being answered blind: it takes only keys read
/// after the first frame that shows it, and never a paste. Keys read before that frame (the rest of the keys that
/// opened it, keys that arrived while its answer was read) and keys already waiting when it was drawn are dropped,
/// with a note. A rule about what was read when, not a timer.
struct QuestionGuard {
    /// True while the question open now has been drawn.
    private(set) var onScreen = false
    /// Set by the first frame that shows a question, until the loop asks.
    private var firstShown = false
    /// True once the person was told about dropped keys for the question open now.
    private var told = false

    /// A frame was drawn, showing a question or not.
    mutating func drew(question: Bool) {
        if question && !onScreen { firstShown = true }
        onScreen = question
    }

    /// True once after the frame that first showed the question.
    mutating func takeFirstShown() -> Bool {
        defer { firstShown = false }
        return firstShown
    }

    /// Keys or events were handled: a question that closed leaves no trace for the next one.
    mutating func settle(question: Bool) {
        guard !question else { return }
        onScreen = false
        firstShown = false
        told = false
    }

    /// Whether the open question may take `key` now.
    func admits(_ key: Key) -> Bool {
        if case .paste = key { return false }
        return onScreen || key == .resize
    }

    /// True the first time keys are dropped for this question (one note, not one per key).
    mutating func shouldTell() -> Bool {
        defer { told = true }
        return !told
    }
}
