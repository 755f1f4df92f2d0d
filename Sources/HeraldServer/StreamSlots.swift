import Foundation
import HeraldAPI

/// The event streams each key holds open, capped at `perKey`: one key (a viewer's, say) cannot tie up connections and
/// readers without bound. A slot is taken before a stream starts and given back when it ends, however it ends.
final class StreamSlots: @unchecked Sendable {
    let perKey: Int
    private let lock = NSLock()
    /// Only keys with a stream open.
    private var open: [String: Int] = [:]

    init(perKey: Int) { self.perKey = max(1, perKey) }

    /// A slot for one more stream of `keyId`, nil when it holds `perKey` already.
    func take(_ keyId: String) -> StreamSlot? {
        let taken = lock.withLock { () -> Bool in
            let held = open[keyId, default: 0]
            guard held < perKey else { return false }
            open[keyId] = held + 1
            return true
        }
        return taken ? StreamSlot(keyId: keyId, slots: self) : nil
    }

    /// Streams `keyId` holds now.
    func held(_ keyId: String) -> Int { lock.withLock { open[keyId, default: 0] } }

    fileprivate func give(_ keyId: String) {
        lock.withLock {
            let held = open[keyId, default: 1] - 1
            open[keyId] = held > 0 ? held : nil
        }
    }

    /// The answer to one stream too many: 429 with `Retry-After`, in the server's error envelope.
    func refusal() -> APIResponse {
        let text = "this key has \(perKey) event streams open, the most one key may; close one (or use a key of its own) and try again"
        var answer = APIError.server(status: 429, text: text).response     // the server's envelope, with this text
        answer.headers["Retry-After"] = "10"
        return answer
    }
}

/// One stream's slot: given back once, by `release()` or, should a path forget it, when the slot is dropped.
final class StreamSlot: @unchecked Sendable {
    let keyId: String
    private let slots: StreamSlots
    private let lock = NSLock()
    private var released = false

    fileprivate init(keyId: String, slots: StreamSlots) {
        self.keyId = keyId
        self.slots = slots
    }

    func release() {
        let first = lock.withLock { () -> Bool in
            defer { released = true }
            return !released
        }
        if first { slots.give(keyId) }
    }

    deinit { release() }
}
