import Foundation
import HeraldCore
import HeraldServices

extension ContactsViewModel {
    /// `O`: opts out the numbers of the selected people (or of the one under the cursor), so no invitation goes to
    /// them; on people whose every number is out already it takes them off the list. The list is the platform's
    /// (a Herald server's is the team's).
    public func toggleOptOut() {
        let ids = targets()
        guard !ids.isEmpty else { notify("nobody to opt out: move the cursor to a person"); return }
        guard let invites else { notify("opting out needs the platform, which this screen has not", level: .info); return }
        let book = self.book
        context.run({ () async throws -> (optedOut: Bool, numbers: Int) in
            let numbers = Array(Set(try await book.people(ids: ids).flatMap(\.distinctNumbers))).sorted()
            guard !numbers.isEmpty else { return (false, 0) }
            let out = Set(try await invites.optOuts().map(\.number))
            if numbers.allSatisfy(out.contains) {
                try await invites.optIn(numbers: numbers)
                return (false, numbers.count)
            }
            _ = try await invites.optOut(numbers: numbers.filter { !out.contains($0) })
            return (true, numbers.count)
        }, for: self, failure: "opt-out not changed") { vm, done in
            switch done {
            case (_, 0): vm.notify("no number to opt out", level: .info)
            case (true, let n):
                vm.notify("opted out \(counted(n, "number")): no invitation goes to \(n == 1 ? "it" : "them") (O again takes \(n == 1 ? "it" : "them") off the list)",
                          level: .success)
            case (false, let n): vm.notify("\(counted(n, "number")) taken off the opt-out list: \(n == 1 ? "it" : "they") may be invited again", level: .success)
            }
        }
    }
}
