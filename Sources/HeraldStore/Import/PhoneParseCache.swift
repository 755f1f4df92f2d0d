import Foundation
import HeraldCore

/// Parses phone numbers through libphonenumber once per distinct text within one import
/// (address books repeat numbers: shared office lines, re-imports, merged exports).
///
/// In deferred mode `parse` only notes the text and returns a placeholder; `resolve` then parses
/// everything noted, spread over the cores, and puts the results into the people read. Used by one
/// import at a time; not shared between threads.
final class PhoneParseCache {
    let parser: PhoneNumberParser
    private let deferred: Bool
    private var parsed: [String: PhoneNumber] = [:]
    private var pending: [String] = []
    private var pendingSet: Set<String> = []
    private let limit: Int

    init(parser: PhoneNumberParser, deferred: Bool = false, limit: Int = 200_000) {
        self.parser = parser
        self.deferred = deferred
        self.limit = limit
    }

    func parse(_ raw: String) -> PhoneNumber {
        if let hit = parsed[raw] { return hit }
        if deferred {
            if pendingSet.insert(raw).inserted { pending.append(raw) }
            return PhoneNumber(raw: raw, e164: nil, kind: .unknown, region: nil, invalidReason: nil)
        }
        let number = parser.parse(raw)
        if parsed.count >= limit { parsed.removeAll(keepingCapacity: true) }
        parsed[raw] = number
        return number
    }

    /// Parses the numbers noted since the last call and replaces the placeholders in `people`.
    func resolve(_ people: inout [Person]) {
        if !pending.isEmpty {
            if parsed.count + pending.count > limit { parsed.removeAll(keepingCapacity: true) }
            for (raw, number) in zip(pending, Self.parseAll(pending, parser: parser)) { parsed[raw] = number }
            pending.removeAll(keepingCapacity: true)
            pendingSet.removeAll(keepingCapacity: true)
        }
        for i in people.indices where !people[i].phones.isEmpty {
            for j in people[i].phones.indices {
                if let number = parsed[people[i].phones[j].number.raw] { people[i].phones[j].number = number }
            }
        }
    }

    /// Results written by several threads, each to its own slots.
    private struct Slots: @unchecked Sendable {
        let base: UnsafeMutablePointer<PhoneNumber>
    }

    /// `raws` parsed in order, on as many threads as there are cores (libphonenumber is thread-safe).
    static func parseAll(_ raws: [String], parser: PhoneNumberParser) -> [PhoneNumber] {
        let n = raws.count
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, max(1, n / 32))
        if workers <= 1 { return raws.map(parser.parse) }
        let buffer = UnsafeMutablePointer<PhoneNumber>.allocate(capacity: n)
        defer { buffer.deinitialize(count: n); buffer.deallocate() }
        let slots = Slots(base: buffer)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for i in stride(from: w, to: n, by: workers) {
                (slots.base + i).initialize(to: parser.parse(raws[i]))
            }
        }
        return Array(UnsafeBufferPointer(start: buffer, count: n))
    }
}
