import Foundation
import Testing
@testable import HeraldCore

@Suite struct SuggestionRankerTests {
    let now = Fixtures.now
    let owner = RankingOwner(email: "boss@example.com", region: "HR")
    let ranker = SuggestionRanker()
    let day: TimeInterval = 86_400

    /// A person with a Croatian mobile number built without the parser (fast for big books).
    static func mobile(_ id: Int64, name: String, number: String? = nil, region: String = "HR",
                       kind: PhoneNumberKind = .mobile, emails: [String] = [], createdAt: Date? = nil) -> Person {
        let e164 = number ?? "+3859\(String(format: "%08d", id % 100_000_000))"
        return Person(id: id, formattedName: name,
                      phones: [LabeledPhone(label: "mobile", number: PhoneNumber(raw: e164, e164: e164, kind: kind,
                                                                                region: region, invalidReason: nil))],
                      emails: emails.map { LabeledEmail(label: nil, address: $0) }, createdAt: createdAt)
    }

    func rank(_ people: [Person], statuses: [String: DeliveryStatus] = [:],
              history: [Int64: SuggestionHistoryEntry] = [:], count: Int = 5) -> [Suggestion] {
        ranker.rank(people: people, invitations: .latestStatusByNumber(statuses), history: history,
                    owner: owner, now: now, count: count)
    }

    @Test func onlyPeopleWithAnInvitableNumberAreSuggested() {
        let people = [
            Fixtures.person(1, "Fixed", "Line", phones: ["01 234 5678"]),
            Fixtures.person(2, "No", "Phone", emails: ["no@example.com"]),
            Fixtures.person(3, "Bad", "Number", phones: ["12"]),
            Fixtures.person(4, "Ana", "Mobile", phones: ["01 234 5678", "091 234 5678"]),
        ]
        let s = rank(people)
        #expect(s.map(\.person.id) == [4])
        #expect(s.first?.number == "+385912345678")
        #expect(s.first?.reasons.first == "mobile number")
    }

    @Test func invitedOrPendingPeopleAreLeftOut() {
        let people = (1...4).map { Self.mobile(Int64($0), name: "P\($0)") }
        let statuses: [String: DeliveryStatus] = [
            people[0].invitableNumbers[0]: .deliveredToTerminal,
            people[1].invitableNumbers[0]: .messageWaiting,
            people[2].invitableNumbers[0]: .queued,
        ]
        #expect(rank(people, statuses: statuses).map(\.person.id) == [4])
    }

    @Test func summariesWorkLikeStatusesByNumber() {
        let people = (1...3).map { Self.mobile(Int64($0), name: "P\($0)") }
        let inv = Fixtures.invitation(people[1].invitableNumbers[0], personId: 2, status: .deliveredToNetwork, at: 0)
        let summaries = Dictionary(uniqueKeysWithValues: people.map { p in
            (p.id ?? 0, PersonInvitationSummary(person: p, invitations: [inv]))
        })
        let s = ranker.rank(people: people, invitations: .summaries(summaries), history: [:], owner: owner, now: now)
        #expect(s.map(\.person.id) == [1, 3])
    }

    @Test func failedInvitationMayBeSuggestedAgainButRanksLower() {
        let failed = Self.mobile(1, name: "Failed")
        let fresh = Self.mobile(2, name: "Fresh")
        let s = rank([failed, fresh], statuses: [failed.invitableNumbers[0]: .deliveryImpossible])
        #expect(s.map(\.person.id) == [2, 1])
        #expect(s[1].score == s[0].score - 10)
        #expect(s[1].reasons.contains("an earlier invitation to \(failed.invitableNumbers[0]) failed"))
    }

    @Test func neverTriedNumberIsPreferredOverAFailedOne() {
        var p = Self.mobile(1, name: "Two numbers", number: "+385911111111")
        p.phones.append(LabeledPhone(label: "other", number: PhoneNumber(raw: "x", e164: "+385922222222", kind: .mobile,
                                                                           region: "HR", invalidReason: nil)))
        let s = rank([p], statuses: ["+385911111111": .sendFailed])
        #expect(s.first?.number == "+385922222222")
        #expect(s.first?.reasons.contains { $0.contains("failed") } == false)
    }

    @Test func unseenComeBeforeSeenWhateverTheirScore() {
        let strong = Self.mobile(1, name: "Strong", emails: ["s@example.com"], createdAt: now)
        let weak = Self.mobile(2, name: "", region: "US")
        let s = rank([strong, weak], history: [1: SuggestionHistoryEntry(lastSuggested: now - day, seen: true)])
        #expect(s.map(\.person.id) == [2, 1])
        #expect(s[0].score < s[1].score)
        #expect(s[0].isUnseen && !s[1].isUnseen)
        #expect(s[0].reasons.last == "not suggested before")
        #expect(s[1].reasons.last == "suggested 1 day ago, seen")
    }

    @Test func suggestedButNotSeenStillCountsAsUnseen() {
        let a = Self.mobile(1, name: "A")
        let b = Self.mobile(2, name: "B")
        let s = rank([a, b], history: [1: SuggestionHistoryEntry(lastSuggested: now - 2 * day, seen: false)])
        #expect(s.map(\.person.id) == [1, 2])
        #expect(s[0].reasons.last == "suggested 2 days ago but not seen")
    }

    @Test func seenLongAgoIsSuggestedAgain() {
        let a = Self.mobile(1, name: "A")
        let b = Self.mobile(2, name: "B")
        let s = rank([a, b], history: [1: SuggestionHistoryEntry(lastSuggested: now - 100 * day, seen: true),
                                       2: SuggestionHistoryEntry(lastSuggested: now - day, seen: true)])
        #expect(s.map(\.person.id) == [1, 2])
        #expect(s[0].isUnseen && !s[1].isUnseen)
        #expect(s[0].reasons.last == "not suggested since 100 days ago")
    }

    @Test func whenEveryoneWasSeenTheRotationStartsOver() {
        let people = (1...6).map { Self.mobile(Int64($0), name: "P\($0)") }
        // Round one showed 1…5 yesterday, then 6 an hour ago.
        var history: [Int64: SuggestionHistoryEntry] = [:]
        for id in 1...5 { history[Int64(id)] = SuggestionHistoryEntry(lastSuggested: now - day, seen: true) }
        history[6] = SuggestionHistoryEntry(lastSuggested: now - 3600, seen: true)
        let s = rank(people, history: history, count: 3)
        #expect(s.map(\.person.id) == [1, 2, 3])
        #expect(s.allSatisfy { $0.isUnseen })
        #expect(s[0].reasons.last?.hasPrefix("everyone has been suggested; starting over") == true)
        // Showing 1…3 now moves the rotation on to 4 and 5, then 6.
        for id in 1...3 { history[Int64(id)] = SuggestionHistoryEntry(lastSuggested: now, seen: true) }
        #expect(rank(people, history: history, count: 3).map(\.person.id) == [4, 5, 6])
    }

    @Test func sameCompanyDomainCountsButWebmailNever() {
        let colleague = Self.mobile(1, name: "Colleague", emails: ["c@Sales.Example.com"])
        let stranger = Self.mobile(2, name: "Stranger", emails: ["s@other.org"])
        let s = rank([stranger, colleague])
        #expect(s.map(\.person.id) == [1, 2])
        #expect(s[0].reasons.contains("same company domain sales.example.com"))
        #expect(s[0].score == s[1].score + 30)

        let gmailOwner = RankingOwner(email: "me@gmail.com", region: "HR")
        let gmailFriend = Self.mobile(3, name: "Friend", emails: ["f@gmail.com"])
        let g = ranker.rank(people: [gmailFriend], invitations: .latestStatusByNumber([:]), history: [:],
                            owner: gmailOwner, now: now)
        #expect(g.first?.reasons.contains { $0.contains("domain") } == false)
    }

    @Test func webmailDomains() {
        for d in ["gmail.com", "googlemail.com", "yahoo.co.uk", "yahoo.fr", "hotmail.de", "outlook.com", "live.com",
                  "icloud.com", "me.com", "mail.ru", "yandex.ru", "gmx.at", "web.de", "proton.me", "protonmail.com",
                  "aol.com", "GMAIL.COM"] {
            #expect(SuggestionRanker.isWebmail(d), "\(d)")
        }
        for d in ["example.com", "infobip.com", "yahoo", "mygmail.com"] {
            #expect(!SuggestionRanker.isWebmail(d), "\(d)")
        }
    }

    @Test func sameCountryAndNameAndMobileAreExplained() {
        let local = Self.mobile(1, name: "Local")
        let abroad = Self.mobile(2, name: "Abroad", number: "+31612345678", region: "NL")
        let nameless = Self.mobile(3, name: "")
        let landlineOrMobile = Self.mobile(4, name: "Maybe", kind: .fixedLineOrMobile)
        let s = rank([abroad, nameless, local, landlineOrMobile])
        #expect(s.map(\.person.id) == [1, 2, 4, 3])
        #expect(s[0].score == 45)
        #expect(s[0].reasons == ["mobile number", "has a name", "same country (HR)", "not suggested before"])
        #expect(s[1].reasons == ["mobile number", "has a name", "not suggested before"])
        #expect(s[2].reasons.first == "number can receive SMS")
        #expect(s[3].reasons == ["mobile number", "same country (HR)", "not suggested before"])
    }

    @Test func recentlyAddedOrChangedWithin30Days() {
        let added = Self.mobile(1, name: "Added", createdAt: now - 3 * day)
        var changed = Self.mobile(2, name: "Changed", createdAt: now - 300 * day)
        changed.updatedAt = now - 10 * day
        let old = Self.mobile(3, name: "Old", createdAt: now - 31 * day)
        let s = rank([old, changed, added])
        #expect(s.map(\.person.id) == [1, 2, 3])
        #expect(s[0].reasons.contains("added 3 days ago"))
        #expect(s[1].reasons.contains("changed 10 days ago"))
        #expect(s[0].score == 45 + 14 && s[1].score == 45 + 10 && s[2].score == 45)
        #expect(!s[2].reasons.contains { $0.hasPrefix("added") || $0.hasPrefix("changed") })
    }

    @Test func tiesBreakByNameThenId() {
        let people = [Self.mobile(5, name: "bob"), Self.mobile(4, name: "Bob"), Self.mobile(3, name: "Ana"),
                      Self.mobile(2, name: "Bob"), Self.mobile(1, name: "Čedo")]
        #expect(rank(people).map(\.person.id) == [3, 2, 4, 5, 1])
        #expect(rank(people.reversed()).map(\.person.id) == [3, 2, 4, 5, 1])
        let numbered = [Self.mobile(1, name: "Guest 10"), Self.mobile(2, name: "Guest 2"), Self.mobile(3, name: "Cedomir")]
        #expect(rank(numbered).map(\.person.displayName) == ["Cedomir", "Guest 2", "Guest 10"])
    }

    @Test func countLimitsTheResult() {
        let people = (1...20).map { Self.mobile(Int64($0), name: "P\($0)") }
        #expect(rank(people).count == 5)
        #expect(rank(people, count: 12).count == 12)
        #expect(rank(people, count: 0).isEmpty)
        #expect(rank([]).isEmpty)
    }

    @Test func boundedHeapAgreesWithAFullSort() {
        // A mixed book: scores, names and history vary so that every ordering rule is exercised.
        var history: [Int64: SuggestionHistoryEntry] = [:]
        let people: [Person] = (1...3_000).map { i in
            let id = Int64(i)
            var p = Self.mobile(id, name: i % 7 == 0 ? "" : "Name \(i % 97)",
                                region: i % 3 == 0 ? "NL" : "HR", kind: i % 5 == 0 ? .fixedLineOrMobile : .mobile,
                                emails: i % 11 == 0 ? ["x@example.com"] : [], createdAt: now - Double(i % 60) * day)
            if i % 13 == 0 { p.phones.removeAll() }
            if i % 4 == 0 { history[id] = SuggestionHistoryEntry(lastSuggested: now - Double(i % 9) * day, seen: i % 8 == 0) }
            return p
        }
        let top = rank(people, history: history, count: 50)
        let all = rank(people, history: history, count: people.count)
        #expect(top.count == 50)
        #expect(top.map(\.person.id) == all.prefix(50).map(\.person.id))
        for (a, b) in zip(all, all.dropFirst()) where a.isUnseen == b.isUnseen {
            if a.isUnseen { #expect(a.score >= b.score) }
        }
        #expect(all.count == people.filter { !$0.invitableNumbers.isEmpty }.count)
    }

    @Test func hundredThousandPeopleRankQuickly() {
        let people: [Person] = (1...100_000).map { (i: Int) -> Person in
            let emails: [String] = i % 10 == 0 ? ["p\(i)@example.com"] : []
            let added: Date = now - Double(i % 90) * day
            return Self.mobile(Int64(i), name: "Person \(i)", emails: emails, createdAt: added)
        }
        let start = ContinuousClock.now
        let s = rank(people)
        let elapsed = ContinuousClock.now - start
        print("ranked 100,000 people in \(elapsed)")
        #expect(s.count == 5)
        // the best are colleagues added today (every 90th person), by name
        #expect(s.map(\.person.displayName) == ["Person 90", "Person 180", "Person 270", "Person 360", "Person 450"])
        #expect(s.allSatisfy { $0.score == 90 && $0.reasons.contains("same company domain example.com") && $0.reasons.contains("added today") })
        #expect(elapsed < .seconds(5))
    }
}

@Suite struct RankingOwnerTests {
    @Test func ownerDomainAndRegionAreNormalised() {
        let o = RankingOwner(email: "Boss@Example.COM", region: "hr")
        #expect(o.emailDomain == "example.com")
        #expect(o.region == "HR")
        #expect(RankingOwner(email: "no-at-sign", region: "").emailDomain == nil)
        #expect(RankingOwner(email: nil, region: "").region == nil)
    }

    @Test func blankNamesDoNotCount() {
        #expect(!SuggestionRanker.hasName(Person(firstName: " \t", lastName: "\u{00A0}")))
        #expect(SuggestionRanker.hasName(Person(lastName: "Ćosić")))
        #expect(SuggestionRanker.hasName(Person(formattedName: "李")))
        #expect(!SuggestionRanker.hasName(Person(organization: "Acme")))
    }
}
