/// The rows the Deliveries pane shows: the feed's bulks and recipients through the filter, the query and the sort,
/// worked out when they change (not per frame).
struct DeliveryRows {
    var bulks: [BulkSummary] = []
    var recipients: [RecipientRow] = []
    /// Characters of the longest bulk id shown.
    var longestBulkId = 0
    /// Bumped whenever the rows change.
    var version = 0
}
