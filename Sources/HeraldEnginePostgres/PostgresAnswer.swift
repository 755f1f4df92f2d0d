import NIOCore
import PostgresNIO

extension PostgresConnection {
    /// `query`'s answer, which also ends (failed) when the connection closes.
    ///
    /// The driver hands a query to its channel with `write(_:promise: nil)`. A query written after the channel was
    /// closed and its handlers removed never reaches the handler that would answer it, and that failure is dropped:
    /// its future never completes. The connection can close between the store's `isClosed` check and the write (the
    /// database stopped; this is how `herald serve` hung for ever on SIGINT after its PostgreSQL went away), so every
    /// wait of the store goes through here.
    func answer(_ query: PostgresQuery, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        let answered = eventLoop.makePromise(of: PostgresQueryResult.self)
        self.query(query, logger: logger).cascade(to: answered)
        // A second completion is ignored, so whichever comes first wins.
        closeFuture.whenComplete { _ in answered.fail(PostgresError.connectionClosed) }
        return answered.futureResult
    }
}
