/// Bulks selected with space in the list, and recipients selected in the open bulk (by invitation id).
public struct DeliverySelection: Sendable, Equatable {
    public var bulks: Set<String> = []
    public var recipients: Set<Int64> = []
}
