import Foundation
import HeraldCore
import HeraldStore
import Testing
@testable import HeraldViewModels

/// The A–Z section of a row: a plain ASCII letter answers without Foundation, every other name as the folding the
/// list sorts by (Foundation's, plus đ, ł, ø… by hand: Đuro and Łukasz are not "#").
@Suite struct ContactSectionTests {
    /// The section as worked out without the fast path: Foundation's trimming and the sort's folding for every name.
    static func reference(_ person: Person, _ sort: ContactSort) -> String {
        let first = person.firstName.trimmingCharacters(in: .whitespaces)
        let last = person.lastName.trimmingCharacters(in: .whitespaces)
        var key = sort == .firstName ? (first.isEmpty ? last : first) : (last.isEmpty ? first : last)
        if key.isEmpty {
            key = person.formattedName.trimmingCharacters(in: .whitespaces)
        }
        guard let c = key.first else { return "#" }
        let folded = TextFolding.fold(String(c)).uppercased()
        guard let letter = folded.first, letter.isASCII, letter.isLetter else { return "#" }
        return String(letter)
    }

    @Test func everyNameGetsTheSectionItsFoldingGivesIt() {
        #expect(ContactsViewModel.section(of: Person(firstName: "Łukasz", lastName: ""), sort: .firstName) == "L")
        #expect(ContactsViewModel.section(of: Person(firstName: "Đuro", lastName: ""), sort: .firstName) == "D")
        var names = ["Ana", "ana", "Zoë", "Émile", "e\u{301}mile", "E\u{301}mile", "ßtraße", "Łukasz", "Øyvind", "Ångström", "王",
                     "1Password", "#hash", "_under", "  ivo", "\tIvo", "\u{00A0}Ivo", "\u{3000}Ivo", "\u{200B}Ivo", "ǅemal", "ﬁne",
                     "\u{1B}[2J", "\r\nx", "a\u{308}", "-", "", " ", "Ω", "ǈ", "ʼn", "i", "İstanbul", "ı"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            names.append(String((0..<Int.random(in: 1...3, using: &random)).map { _ in
                Character(UnicodeScalar(UInt8.random(in: 0x09...0x7E, using: &random)))
            }))
        }
        for name in names {
            for other in ["", "Horvat", " "] {
                for (first, last) in [(name, other), (other, name)] {
                    let person = Person(firstName: first, lastName: last, formattedName: name)
                    for sort in [ContactSort.firstName, .lastName] {
                        #expect(ContactsViewModel.section(of: person, sort: sort) == Self.reference(person, sort),
                                "\(first.debugDescription) \(last.debugDescription) \(sort)")
                    }
                }
            }
        }
    }
}
