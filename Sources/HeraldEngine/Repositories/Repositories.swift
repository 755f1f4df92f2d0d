/// The engine's SQL, behind one repository per area (model: hummingbird-examples' `TodoRepository`): the rules
/// (routes, carrier work) say what they want in the area's words and never write a statement.
///
/// A repository is one type over `any EngineSQL`, taken inside a unit of work (`store.write { db in
/// db.optOuts.add(…) }`), not a protocol with a SQLite and a PostgreSQL implementation: the engine's SQL is written
/// once in the subset both stores understand (`?` placeholders, `ON CONFLICT`, row values; `EngineStore`), so two
/// implementations would hold the same text twice; and taking the unit of work keeps a route's reads and writes in
/// one transaction, as they were. Where the two stores must differ, the store translates (`PostgresSQL`); a
/// statement that could not be translated would make that area's repository a protocol with two implementations.
/// `RepositoryTests` runs the same assertions on both stores.
extension EngineSQL {
    var applications: ApplicationRepository { ApplicationRepository(db: self) }
    var optOuts: OptOutRepository { OptOutRepository(db: self) }
    var outbox: OutboxRepository { OutboxRepository(db: self) }
    var holds: HoldRepository { HoldRepository(db: self) }
    var bulks: BulkRepository { BulkRepository(db: self) }
    var events: EventRepository { EventRepository(db: self) }
    var inbox: InboxRepository { InboxRepository(db: self) }
    var links: LinkRepository { LinkRepository(db: self) }
    var keys: KeyRepository { KeyRepository(db: self) }
    var audit: AuditRepository { AuditRepository(db: self) }
    var replies: ReplyRepository { ReplyRepository(db: self) }
}
