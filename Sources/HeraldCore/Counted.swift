/// A count with its noun in the right number: "1 invitation", "5 invitations", "1 person", "2 people" (English, by -s
/// unless the plural is given).
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
