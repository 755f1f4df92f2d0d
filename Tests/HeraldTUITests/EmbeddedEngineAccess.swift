import HeraldEmbedded
import HeraldEngine
import HeraldServices

extension Workspace {
    /// The engine behind a test workspace (always embedded here).
    var engine: PlatformEngine { embeddedEngine! }
}
