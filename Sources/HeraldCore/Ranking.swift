import Foundation

/// The person suggestions are made for.
public struct RankingOwner: Sendable, Hashable {
    /// Lowercased domain of the owner's email ("example.com"), nil when unknown.
    public var emailDomain: String?
    /// ISO region of the owner ("HR"), nil when unknown.
    public var region: String?

    public init(emailDomain: String?, region: String?) {
        self.emailDomain = emailDomain.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        self.region = region.map { $0.uppercased() }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Takes the domain from an email address ("ana@example.com").
    public init(email: String?, region: String?) {
        self.init(emailDomain: email.flatMap { LabeledEmail(label: nil, address: $0).domain }, region: region)
    }
}

/// When a person was last suggested, and whether the suggestion was seen.
public struct SuggestionHistoryEntry: Sendable, Hashable, Codable {
    public var lastSuggested: Date
    public var seen: Bool

    public init(lastSuggested: Date, seen: Bool) {
        self.lastSuggested = lastSuggested
        self.seen = seen
    }
}

/// One suggested person, with the score and the reasons behind it.
public struct Suggestion: Sendable, Hashable {
    public let person: Person
    /// The number to invite: a never-invited mobile number first, else one whose invitation failed.
    public let number: String
    public let score: Int
    /// Why this person is suggested, in words ("mobile number", "same company domain example.com", …).
    public let reasons: [String]
    /// False when the person's last suggestion was seen (they come after everyone unseen).
    public let isUnseen: Bool
}

/// Where the ranker reads invitation states.
public enum InvitationStates: Sendable {
    /// Summaries keyed by person id.
    case summaries([Int64: PersonInvitationSummary])
    /// The latest status of every E.164 number ever sent to.
    case latestStatusByNumber([String: DeliveryStatus])

    /// Whether any number of the person is invited or pending (so they are not suggested).
    func blocks(_ person: Person) -> Bool {
        switch self {
        case .summaries(let map):
            guard let id = person.id, let summary = map[id] else { return false }
            return summary.isInvited || summary.isPending
        case .latestStatusByNumber(let map):
            if map.isEmpty { return false }
            return person.phones.contains { p in
                guard let e = p.number.e164, let s = map[e] else { return false }
                return s.isInvited || s.isPending
            }
        }
    }

    /// The latest status of one of the person's numbers, nil when never sent to.
    func status(of person: Person, number: String) -> DeliveryStatus? {
        switch self {
        case .summaries(let map):
            guard let id = person.id else { return nil }
            return map[id]?.statusByNumber[number]
        case .latestStatusByNumber(let map):
            return map[number]
        }
    }
}

/// Local, explainable ranking of whom to suggest inviting.
///
/// Rules, in order:
/// 1. Only people with an invitable number (valid, can receive SMS) are suggested; people with any
///    number invited or pending are left out (`ResendPolicy.default`).
/// 2. Unseen people come before seen ones. Unseen: never suggested, suggested but not seen, or seen
///    longer than `resuggestAfter` ago. Seen people come least-recently-suggested first. When every
///    candidate has been seen, the rotation starts over: all are treated as unseen, still
///    least-recently-suggested first, so the next round walks the whole list again instead of
///    repeating the same few.
/// 3. Within that, by score (higher first), then display name (ignoring case and accents, numbers by
///    value), then id.
///
/// Score points are in `Weights`, and every part of a score comes with a reason. "Recently added or
/// changed" (the newest of createdAt, updatedAt, revision within `recentWindow`) is graded: the full
/// weight today, falling to 1 point at the end of the window.
public struct SuggestionRanker: Sendable {
    public struct Weights: Sendable, Hashable {
        public var mobile = 20
        public var otherSMSCapable = 10
        public var hasName = 15
        public var sameDomain = 30
        public var sameRegion = 10
        /// The most a change today earns; older changes earn less.
        public var recentlyAddedOrChanged = 15
        public var earlierInvitationFailed = -10
        public init() {}
    }

    public var weights: Weights
    /// How far back "recently added or changed" reaches.
    public var recentWindow: TimeInterval
    /// A seen suggestion older than this counts as unseen again.
    public var resuggestAfter: TimeInterval

    public init(weights: Weights = Weights(), recentWindow: TimeInterval = 30 * 86_400,
                resuggestAfter: TimeInterval = 90 * 86_400) {
        self.weights = weights
        self.recentWindow = recentWindow
        self.resuggestAfter = resuggestAfter
    }

    /// Email domains of webmail providers: sharing one says nothing about working together.
    public static let webmailDomains: Set<String> = [
        "gmail.com", "googlemail.com", "outlook.com", "live.com", "msn.com", "icloud.com", "me.com", "mac.com",
        "mail.ru", "inbox.ru", "list.ru", "bk.ru", "ya.ru", "web.de", "t-online.de", "proton.me", "protonmail.com",
        "protonmail.ch", "pm.me", "aol.com", "ymail.com", "rocketmail.com", "zoho.com", "mail.com", "gmx.com",
        "tutanota.com", "tuta.io", "fastmail.com", "hushmail.com", "qq.com", "163.com", "126.com", "naver.com",
        "libero.it", "orange.fr", "free.fr", "laposte.net", "seznam.cz", "wp.pl", "o2.pl", "interia.pl",
        "email.com", "rediffmail.com", "hey.com",
    ]
    /// Webmail providers with one domain per country ("yahoo.co.uk", "hotmail.fr", "gmx.at").
    public static let webmailFamilies: Set<String> = ["yahoo", "hotmail", "outlook", "live", "yandex", "gmx", "aol"]

    /// Whether `domain` belongs to a webmail provider.
    public static func isWebmail(_ domain: String) -> Bool {
        let d = domain.lowercased()
        if webmailDomains.contains(d) { return true }
        guard let first = d.split(separator: ".").first, d.contains(".") else { return false }
        return webmailFamilies.contains(String(first))
    }

    /// The best `count` people to suggest, best first. One pass over `people` with a bounded heap:
    /// O(n log count); display names are only computed for ties with the current k-th best.
    public func rank(people: [Person], invitations: InvitationStates, history: [Int64: SuggestionHistoryEntry],
                     owner: RankingOwner, now: Date, count: Int = 5) -> [Suggestion] {
        guard count > 0 else { return [] }
        let ownerDomain = owner.emailDomain.flatMap { Self.isWebmail($0) ? nil : $0 }
        let domainSuffix = ownerDomain.map { "." + $0 }

        var heap = BoundedHeap(capacity: count)
        var everyoneSeen = true
        for (index, person) in people.enumerated() {
            guard let pick = pickNumber(person, invitations: invitations) else { continue }
            var score = pick.isMobile ? weights.mobile : weights.otherSMSCapable
            if pick.failedBefore { score += weights.earlierInvitationFailed }
            if Self.hasName(person) { score += weights.hasName }
            if let ownerDomain, let domainSuffix, person.emails.contains(where: { e in
                guard let d = e.domain else { return false }
                return d == ownerDomain || d.hasSuffix(domainSuffix)
            }) { score += weights.sameDomain }
            if let region = owner.region, pick.region == region { score += weights.sameRegion }
            if let recent = recentChange(person, now: now) { score += recencyPoints(age: recent.age) }

            let entry = person.id.flatMap { history[$0] }
            let seen = entry.map { $0.seen && now.timeIntervalSince($0.lastSuggested) < resuggestAfter } ?? false
            if !seen { everyoneSeen = false }
            // When everyone is seen, all share `seen == true`, so the order is the same as if all were
            // unseen: least recently suggested first. Only the flag and the reasons change afterwards.
            heap.offer(Candidate(index: index, score: score, seen: seen,
                                 lastSuggested: seen ? (entry?.lastSuggested ?? .distantPast) : .distantPast,
                                 id: person.id ?? Int64.min, number: pick.number),
                       name: { people[index].displayName })
        }
        return heap.sorted().map { c in
            let person = people[c.index]
            let entry = person.id.flatMap { history[$0] }
            return Suggestion(person: person, number: c.number, score: c.score,
                              reasons: reasons(person, candidate: c, entry: entry, rotated: everyoneSeen,
                                               invitations: invitations, owner: owner,
                                               ownerDomain: ownerDomain, now: now),
                              isUnseen: everyoneSeen || !c.seen)
        }
    }

    /// Points for a change `age` seconds ago: the full weight today, falling to 1 at the window's end.
    func recencyPoints(age: TimeInterval) -> Int {
        let w = Double(weights.recentlyAddedOrChanged)
        guard recentWindow > 0 else { return weights.recentlyAddedOrChanged }
        return max(1, Int((w * (1 - age / recentWindow)).rounded()))
    }

    /// Whether any name part has a visible character (no allocation, unlike trimming).
    static func hasName(_ p: Person) -> Bool {
        func visible(_ s: String) -> Bool {
            if s.utf8.contains(where: { $0 > 32 && $0 < 127 }) { return true }  // printable ASCII: the usual case
            return s.unicodeScalars.contains { !$0.properties.isWhitespace && $0.value >= 32 && $0.value != 127 }
        }
        return visible(p.formattedName) || visible(p.firstName) || visible(p.lastName)
    }

    // MARK: - Candidates

    struct Candidate {
        let index: Int
        let score: Int
        let seen: Bool
        /// Only used to order seen candidates (and everyone after a rotation).
        let lastSuggested: Date
        let id: Int64
        let number: String
        /// The display name, filled in when a tie needs it.
        var name: String?

        /// Whether `self` should be suggested before `other`; nil when only the names can tell.
        func precedesWithoutNames(_ other: Candidate) -> Bool? {
            if seen != other.seen { return !seen }
            if lastSuggested != other.lastSuggested { return lastSuggested < other.lastSuggested }
            if score != other.score { return score > other.score }
            return nil
        }

        /// Name order (ignoring case and accents, digits by value: "P 2" before "P 10"), then exact, then id.
        func precedesByName(_ other: Candidate) -> Bool {
            let a = name ?? "", b = other.name ?? ""
            if a != b {
                switch a.compare(b, options: [.caseInsensitive, .diacriticInsensitive, .numeric]) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: return a < b
                }
            }
            return id < other.id
        }

        func precedes(_ other: Candidate) -> Bool {
            precedesWithoutNames(other) ?? precedesByName(other)
        }
    }

    /// Keeps the best `capacity` candidates; the root is the worst of them.
    struct BoundedHeap {
        let capacity: Int
        private(set) var items: [Candidate] = []

        init(capacity: Int) {
            self.capacity = capacity
            items.reserveCapacity(min(capacity, 1 << 16))
        }

        mutating func offer(_ c: Candidate, name: () -> String) {
            var c = c
            if items.count < capacity {
                c.name = name()
                items.append(c)
                siftUp(items.count - 1)
                return
            }
            guard let root = items.first else { return }
            var better: Bool
            if let quick = c.precedesWithoutNames(root) {
                better = quick
            } else {
                c.name = name()
                better = c.precedesByName(root)
            }
            guard better else { return }
            if c.name == nil { c.name = name() }
            items[0] = c
            siftDown(0)
        }

        func sorted() -> [Candidate] { items.sorted { $0.precedes($1) } }

        private func worse(_ i: Int, _ j: Int) -> Bool { items[j].precedes(items[i]) }

        private mutating func siftUp(_ start: Int) {
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard worse(child, parent) else { return }
                items.swapAt(child, parent)
                child = parent
            }
        }

        private mutating func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1, right = left + 1
                var worst = parent
                if left < items.count, worse(left, worst) { worst = left }
                if right < items.count, worse(right, worst) { worst = right }
                if worst == parent { return }
                items.swapAt(parent, worst)
                parent = worst
            }
        }
    }

    struct NumberPick {
        let number: String
        let isMobile: Bool
        let region: String?
        let failedBefore: Bool
    }

    /// The number to suggest, or nil when the person cannot or must not be suggested.
    func pickNumber(_ person: Person, invitations: InvitationStates) -> NumberPick? {
        if invitations.blocks(person) { return nil }
        var best: (rank: Int, pick: NumberPick)?
        for phone in person.phones {
            guard phone.number.isInvitable, let e164 = phone.number.e164 else { continue }
            let status = invitations.status(of: person, number: e164)
            guard ResendPolicy.default.decide(latest: status) == .send else { return nil }
            let failed = status != nil
            let mobile = phone.number.kind == .mobile
            let rank = (failed ? 0 : 2) + (mobile ? 1 : 0)
            if let current = best, current.rank >= rank { continue }
            best = (rank, NumberPick(number: e164, isMobile: mobile, region: phone.number.region, failedBefore: failed))
        }
        return best?.pick
    }

    /// The most recent of createdAt / updatedAt / revision within the window, with a word for it.
    func recentChange(_ person: Person, now: Date) -> (verb: String, age: TimeInterval)? {
        var best: (String, TimeInterval)?
        for (verb, date) in [("added", person.createdAt), ("changed", person.updatedAt), ("changed", person.revision)] {
            guard let date else { continue }
            let age = max(0, now.timeIntervalSince(date))
            guard age <= recentWindow else { continue }
            if let current = best, current.1 <= age { continue }
            best = (verb, age)
        }
        return best
    }

    // MARK: - Reasons

    func reasons(_ person: Person, candidate c: Candidate, entry: SuggestionHistoryEntry?, rotated: Bool,
                 invitations: InvitationStates, owner: RankingOwner, ownerDomain: String?, now: Date) -> [String] {
        var out: [String] = []
        out.append(pickIsMobile(person, number: c.number) ? "mobile number" : "number can receive SMS")
        if invitations.status(of: person, number: c.number) != nil { out.append("an earlier invitation to \(c.number) failed") }
        if Self.hasName(person) { out.append("has a name") }
        if let ownerDomain, let match = person.emails.compactMap(\.domain).first(where: { $0 == ownerDomain || $0.hasSuffix("." + ownerDomain) }) {
            out.append("same company domain \(match)")
        }
        if let region = owner.region, person.phones.first(where: { $0.number.e164 == c.number })?.number.region == region {
            out.append("same country (\(region))")
        }
        if let recent = recentChange(person, now: now) {
            out.append("\(recent.verb) \(Self.ago(recent.age))")
        }
        if rotated {
            out.append("everyone has been suggested; starting over (last suggested \(Self.ago(now.timeIntervalSince(c.lastSuggested))))")
        } else if let entry {
            if c.seen {
                out.append("suggested \(Self.ago(now.timeIntervalSince(entry.lastSuggested))), seen")
            } else if !entry.seen {
                out.append("suggested \(Self.ago(now.timeIntervalSince(entry.lastSuggested))) but not seen")
            } else {
                out.append("not suggested since \(Self.ago(now.timeIntervalSince(entry.lastSuggested)))")
            }
        } else {
            out.append("not suggested before")
        }
        return out
    }

    private func pickIsMobile(_ person: Person, number: String) -> Bool {
        person.phones.first { $0.number.e164 == number }?.number.kind == .mobile
    }

    /// "today", "1 day ago", "3 days ago".
    static func ago(_ seconds: TimeInterval) -> String {
        let days = Int(max(0, seconds) / 86_400)
        switch days {
        case 0: return "today"
        case 1: return "1 day ago"
        default: return "\(days) days ago"
        }
    }
}
