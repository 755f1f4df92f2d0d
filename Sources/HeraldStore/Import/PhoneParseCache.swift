import Foundation
import HeraldCore

/// Parses phone numbers through libphonenumber, once for a text repeated close by (address books
/// repeat numbers: shared office lines, a card twice in one export).
///
/// In deferred mode `parse` only returns a placeholder holding the text, and touches nothing else (the
/// reading thread of an import calls it); `resolve`, on another thread, then parses the numbers of the
/// people read, spread over the cores. Otherwise used by one thread at a time.
final class PhoneParseCache {
    let parser: PhoneNumberParser
    private let deferred: Bool
    private var parsed: [String: PhoneNumber] = [:]
    private let limit: Int

    /// `limit`: numbers remembered before the table starts over. Parsing costs a microsecond or two, so
    /// the table only needs to catch numbers repeated close together (shared lines, a card imported twice);
    /// a small one stays in the cache and never grows on the way.
    init(parser: PhoneNumberParser, deferred: Bool = false, limit: Int = 16_384) {
        self.parser = parser
        self.deferred = deferred
        self.limit = limit
        if !deferred { parsed.reserveCapacity(limit) }
    }

    func parse(_ raw: String) -> PhoneNumber {
        if deferred { return PhoneNumber(raw: raw, e164: nil, kind: .unknown, region: nil, invalidReason: nil) }
        if let hit = parsed[raw] { return hit }
        let number = Self.parse(raw, with: parser)
        if parsed.count >= limit { parsed.removeAll(keepingCapacity: true) }
        parsed[raw] = number
        return number
    }

    /// Parses the numbers of `people` (each text once, those not met lately on all cores) into them.
    func resolve(_ people: inout [Person]) {
        var pending: [String] = []
        var pendingSet: Set<String> = []
        for p in people where !p.phones.isEmpty {
            for phone in p.phones where parsed[phone.number.raw] == nil && pendingSet.insert(phone.number.raw).inserted {
                pending.append(phone.number.raw)
            }
        }
        if !pending.isEmpty {
            if parsed.count + pending.count > limit { parsed.removeAll(keepingCapacity: true) }
            for (raw, number) in zip(pending, Self.parseAll(pending, parser: parser)) { parsed[raw] = number }
        }
        for i in people.indices where !people[i].phones.isEmpty {
            for j in people[i].phones.indices {
                if let number = parsed[people[i].phones[j].number.raw] { people[i].phones[j].number = number }
            }
        }
    }

    /// `parser.parse(raw)`, but numbers written with only digits, spaces and `-.()` (and a leading
    /// `+`) go to libphonenumber without the punctuation, which it would strip anyway: its
    /// patterns then run over fewer characters (about 40% less time per number).
    static func parse(_ raw: String, with parser: PhoneNumberParser) -> PhoneNumber {
        guard let compact = compactForm(raw), compact.utf8.count != raw.utf8.count else { return parser.parse(raw) }
        var number = parser.parse(compact)
        number.raw = raw
        return number
    }

    /// The digits of `raw` (with its leading `+`), or nil unless it starts with a digit or `+` and
    /// holds only digits, spaces and `-.()` — letters (extensions, vanity numbers), slashes (two
    /// numbers) and the rest keep libphonenumber's full treatment.
    static func compactForm(_ raw: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.utf8.count)
        var first = true   // nothing but spaces so far
        for b in raw.utf8 {
            switch b {
            case 0x20, 0x09: continue
            case 0x30...0x39: out.append(b)
            case 0x2B:
                guard first else { return nil }
                out.append(b)
            case 0x2D, 0x2E, 0x28, 0x29:
                guard !first else { return nil }
                continue
            default: return nil
            }
            first = false
        }
        // "00" reads as an international prefix only when written so; leave such numbers alone.
        if out.count >= 2 && out[0] == 0x30 && out[1] == 0x30 { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// Results written by several threads, each to its own slots.
    private struct Slots: @unchecked Sendable {
        let base: UnsafeMutablePointer<PhoneNumber>
    }

    /// `raws` parsed in order, on as many threads as there are cores (libphonenumber is thread-safe).
    static func parseAll(_ raws: [String], parser: PhoneNumberParser) -> [PhoneNumber] {
        let n = raws.count
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, max(1, n / 32))
        if workers <= 1 { return raws.map { parse($0, with: parser) } }
        let buffer = UnsafeMutablePointer<PhoneNumber>.allocate(capacity: n)
        defer { buffer.deinitialize(count: n); buffer.deallocate() }
        let slots = Slots(base: buffer)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for i in stride(from: w, to: n, by: workers) {
                (slots.base + i).initialize(to: parse(raws[i], with: parser))
            }
        }
        return Array(UnsafeBufferPointer(start: buffer, count: n))
    }
}
