import Foundation
import HeraldCore

/// Makes large, realistic address books deterministically from a seed: names in many scripts,
/// several labelled numbers per person in several countries (some invalid, some national),
/// emails on shared company domains and webmail, organisations. Writes vCard 4.0 or CSV.
public struct AddressBookGenerator: Sendable {
    public let seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    /// `count` people; the same seed always gives the same people.
    public func people(count: Int) -> [Person] {
        var out: [Person] = []
        out.reserveCapacity(count)
        forEachPerson(count: count) { out.append($0) }
        return out
    }

    /// Calls `body` with each generated person in turn (nothing is kept in memory).
    public func forEachPerson(count: Int, _ body: (Person) throws -> Void) rethrows {
        var rng = SeededRandom(seed: seed)
        let totalWeight = GeneratorNames.weights.reduce(0, +)
        for i in 0..<count {
            var roll = rng.int(0..<totalWeight)
            var poolIndex = 0
            while roll >= GeneratorNames.weights[poolIndex] { roll -= GeneratorNames.weights[poolIndex]; poolIndex += 1 }
            let pool = GeneratorNames.pools[poolIndex]
            let (first, firstLatin) = rng.pick(pool.first)
            let (last, lastLatin) = rng.pick(pool.last)
            var p = Person(uid: String(format: "gen-%llx-%d", seed, i), firstName: first, lastName: last,
                           formattedName: poolIndex == 5 || poolIndex == 6 ? last + first : first + " " + last)
            var company: (String, String)?
            if rng.chance(0.4) {
                company = rng.pick(GeneratorNames.companies)
                p.organization = company?.0
            }
            let phoneCount = rng.pick([0, 1, 1, 1, 2, 2, 3, 4])
            for _ in 0..<phoneCount {
                let label = rng.pick(GeneratorNames.labels)
                let raw: String
                if rng.chance(0.04) {
                    raw = rng.pick(GeneratorNames.invalidNumbers)
                } else {
                    let region = rng.chance(0.75) ? pool.region : rng.pick(Array(GeneratorNames.mobiles.keys).sorted())
                    let shapes = GeneratorNames.mobiles[region] ?? GeneratorNames.mobiles["HR"] ?? []
                    let (prefix, n) = rng.pick(shapes)
                    let international = prefix + rng.digits(n)
                    if region == "HR" && rng.chance(0.4) {
                        // Written nationally, as people do: "098 123 4567".
                        raw = "0" + international.dropFirst("+385 ".count)
                    } else {
                        raw = international
                    }
                }
                p.phones.append(LabeledPhone(label: label,
                                             number: PhoneNumber(raw: raw, e164: nil, kind: .unknown, region: nil, invalidReason: nil)))
            }
            let emailCount = p.phones.isEmpty ? 1 + rng.int(0..<2) : rng.pick([0, 0, 1, 1, 1, 2])
            for j in 0..<emailCount {
                let domain = (j == 0 ? company?.1 : nil) ?? rng.pick(GeneratorNames.webmail)
                let local = rng.chance(0.5) ? "\(firstLatin).\(lastLatin)" : "\(firstLatin.prefix(1))\(lastLatin)\(rng.int(1..<100))"
                p.emails.append(LabeledEmail(label: j == 0 && company != nil ? "work" : "home", address: "\(local)@\(domain)"))
            }
            p.hasPhoto = rng.chance(0.1)
            try body(p)
        }
    }

    /// Writes `count` people as vCard or CSV through `write`, a chunk at a time.
    public func write(count: Int, format: ExportFormat, write: (String) throws -> Void) throws {
        var chunk = ""
        let csv = CSVWriter(phoneColumns: 4, emailColumns: 2)
        if format == .csv { chunk = csv.header }
        try forEachPerson(count: count) { p in
            chunk += format == .csv ? csv.row(p) : VCardWriter.card(p)
            if chunk.utf8.count > 256 * 1024 {
                try write(chunk)
                chunk = ""
            }
        }
        if !chunk.isEmpty { try write(chunk) }
    }

    /// Writes `count` people to a file.
    public func write(count: Int, format: ExportFormat, to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try write(count: count, format: format) { try handle.write(contentsOf: Data($0.utf8)) }
    }
}
