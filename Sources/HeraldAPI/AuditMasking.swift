import Foundation
import HeraldCore

/// An audit entry as a caller who sees numbers masked reads it: the number an opt-out entry is about, and any number
/// in its text (a sender ID that is a number). Bulk and key ids are not numbers and stay.
extension AuditEntry: NumberMasking {
    public func maskingNumbers() -> AuditEntry {
        var copy = self
        if knownAction == .optOutAdd || knownAction == .optOutRemove { copy.subject = subject.map(PersonalDataMask.mask) }
        copy.what = PersonalDataMask.maskText(what)
        return copy
    }
}

extension AuditList: NumberMasking {
    public func maskingNumbers() -> AuditList {
        AuditList(entries: entries.map { $0.maskingNumbers() }, nextBefore: nextBefore)
    }
}
