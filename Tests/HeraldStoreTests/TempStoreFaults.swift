import GRDB
@testable import HeraldStore
import HeraldTestKit

extension TempStore {
    /// Makes the insert of the person with last name `last` fail (a trigger on the writing connection), as a full
    /// disk would: an import stops in that person's batch.
    func failInserting(lastName last: String) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER boom BEFORE INSERT ON person WHEN NEW.last_name = '\(last)'
                BEGIN SELECT RAISE(ABORT, 'boom'); END
                """)
        }
    }
}
