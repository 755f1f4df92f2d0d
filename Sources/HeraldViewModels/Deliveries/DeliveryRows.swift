/// The rows the Deliveries pane shows: the feed's bulks and recipients through the filter and sort, worked out when
/// they change (not per frame), with what the search counted in them.
struct DeliveryRows {
    var bulks: [BulkSummary] = []
    var recipients: [RecipientRow] = []
    /// Characters of the longest bulk id shown.
    var longestBulkId = 0
    /// Bumped whenever the rows change, so the search's matches are counted again only then.
    var version = 0
    var matchCount: (key: MatchKey, count: Int)?

    struct MatchKey: Equatable {
        let query: String
        let openBulkId: String?
        let shown: Int
    }
}
