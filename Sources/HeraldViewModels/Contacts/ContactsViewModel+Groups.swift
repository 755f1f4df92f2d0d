import Foundation
import HeraldCore
import HeraldServices

/// Groups and saved segments in Contacts: `t` (or `:tag GROUP`, `:tag -GROUP` to take out) tags the selection, or the
/// person open or under the cursor; `:group NAME` lists a group; `:save NAME` keeps the search as a segment, which
/// `:segment NAME` (or `segment:NAME` in a search) lists again with the people who match it then.
extension ContactsViewModel {
    /// `t`: asks in the palette for the group to put the people `targets()` names in.
    public func askTag() {
        let ids = targets()
        guard !ids.isEmpty else { notify("nobody to tag: move the cursor to a person, or select people with space"); return }
        context.app.ask(inPalette: "tag ")
    }

    /// Puts the people `targets()` names in `group` (a name starting with `-`: takes them out of it).
    public func tag(_ argument: String) {
        var name = argument.trimmingCharacters(in: .whitespaces)
        let removing = name.hasPrefix("-")
        if removing { name = String(name.dropFirst()).trimmingCharacters(in: .whitespaces) }
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        guard !PersonGroups.clean(name).isEmpty else { notify(":tag needs a group name, e.g. :tag Running club (:tag -NAME takes out)"); return }
        let ids = targets()
        guard !ids.isEmpty else { notify("nobody to tag: move the cursor to a person, or select people with space"); return }
        let book = self.book
        let group = PersonGroups.clean(name)
        context.run({ try await book.tag(ids: ids, adding: removing ? [] : [group], removing: removing ? [group] : []) },
                    for: self, failure: removing ? "not untagged" : "not tagged") { vm, changed in
            let safe = TerminalSafeText.sanitize(group)
            let who = changed.count == 1 ? TerminalSafeText.sanitize(changed[0].displayName) : "\(changed.count) people"
            if changed.isEmpty {
                vm.notify(removing ? "nobody there was in \(safe)" : "already in \(safe)", level: .info)
            } else {
                vm.notify(removing ? "Took \(who) out of \(safe)" : "Tagged \(who) \(safe)", level: .success)
            }
            vm.reload(keepingCursor: true)
            if let id = vm.detail?.personId { vm.readDetail(personId: id, reasons: vm.detail?.reasons, opening: false) }
        }
    }

    /// The query `:group NAME` searches for; with no name, the only group of the person open (nil, with a toast, when
    /// that says nothing).
    public func groupQuery(_ argument: String?) -> String? {
        if let name = argument.map({ PersonGroups.clean($0) }), !name.isEmpty {
            return "group:" + ContactQuery.quoted(name)
        }
        guard let groups = detail?.groups, !groups.isEmpty else {
            notify(":group needs a group name, e.g. :group Running club")
            return nil
        }
        guard groups.count == 1 else {
            notify(":group which? \(groups.joined(separator: ", "))")
            return nil
        }
        return "group:" + ContactQuery.quoted(groups[0])
    }

    /// `:save NAME`: keeps the search typed as the segment `name`.
    public func saveSegment(_ name: String) {
        let query = self.query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { notify("search first (/), then :save NAME keeps that query as a segment"); return }
        let book = self.book
        context.run({ try await book.saveSegment(name, query: query) }, for: self, failure: "segment not saved") { vm, saved in
            vm.notify("Saved segment \(TerminalSafeText.sanitize(saved.segment.name)): \(TerminalSafeText.sanitize(saved.segment.query)) "
                      + "(\(counted(saved.people, "person", "people")) now; segment:\(TerminalSafeText.sanitize(ContactQuery.quoted(saved.segment.name))) finds them again)",
                      level: .success)
        }
    }
}
