import Foundation
import GRDB
import HeraldCore

/// vCard 4 group cards (`KIND:group` with `MEMBER:urn:uuid:…`): each makes the people whose UID it names members of
/// the group it names. What a card gives is kept apart from the person's own groups (`person_group.via` is the group
/// card's UID), so that a card read again replaces what it gave and an edit of the person keeps it.
enum GroupCards {
    /// Makes the members of each card its group's members (replacing what the same card gave before); people not
    /// stored (yet) are left out. Answers how many memberships were written.
    @discardableResult
    static func apply(_ cards: [GroupCard], db: Database) throws -> Int {
        var written = 0
        for card in cards {
            try db.execute(sql: "DELETE FROM person_group WHERE via = ?", arguments: [card.uid])
            var ids = Set<Int64>()
            for member in card.members {
                for form in GroupCard.uidForms(member) {
                    ids.formUnion(try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM person WHERE uid = ?"), arguments: [form]))
                }
            }
            for id in ids.sorted() {
                try PersonRows.insertGroups([card.name], id: id, via: card.uid, db: db)
                written += 1
            }
        }
        if !cards.isEmpty { try PersonRows.bumpGeneration(db) }
        return written
    }
}
