/// Contacts' search field: the query typed, whether the field has the keyboard, what is wrong with the query (the
/// list keeps the last query's answer meanwhile), and the searches made before (↑ and ↓).
nonisolated public struct ContactSearchField {
    public internal(set) var query = ""
    public internal(set) var isSearching = false
    public internal(set) var problem: String?
    public internal(set) var history = SearchHistory()
}
