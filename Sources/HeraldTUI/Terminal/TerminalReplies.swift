import Foundation

/// Answers the terminal still owed a program that has exited (an editor's queries for its version,
/// colours or cursor position), which must not reach Herald as keys.
nonisolated enum TerminalReplies {
    /// Asks the terminal for a status report (`ESC [ 5 n`, which editors do not send) and throws away
    /// everything it sends up to and including the answer: the terminal answers in order, so the
    /// replies meant for the program come first. A terminal that does not answer within `timeout`
    /// seconds has whatever arrived by then discarded.
    static func discardPending(input: Int32, output: Int32, timeout: Double = 0.5) {
        let request: [UInt8] = Array("\u{1B}[5n".utf8)
        guard request.withUnsafeBytes({ write(output, $0.baseAddress, $0.count) }) == request.count else { return }
        var matcher = StatusReportMatcher()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return }
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            let count = read(input, &buffer, buffer.count)
            guard count > 0 else { return }
            for byte in buffer[..<count] where matcher.feed(byte) { return }
        }
    }
}

/// Recognises a device status answer, `ESC [ 0 n` (or `ESC [ 3 n`), in a byte stream.
nonisolated struct StatusReportMatcher {
    private var state = 0     // 0: outside, 1: after ESC, 2: after ESC [, 3: after the digit

    /// Feeds one byte; true when it completes an answer.
    mutating func feed(_ byte: UInt8) -> Bool {
        switch (state, byte) {
        case (_, 0x1B): state = 1
        case (1, UInt8(ascii: "[")): state = 2
        case (2, UInt8(ascii: "0")), (2, UInt8(ascii: "3")): state = 3
        case (3, UInt8(ascii: "n")): state = 0; return true
        default: state = 0
        }
        return false
    }
}
