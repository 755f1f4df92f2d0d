import HeraldEmbedded
import HeraldEngine
import HeraldServices

extension Workspace {
    /// The engine behind a test workspace (always embedded in the harnesses).
    public var engine: PlatformEngine { embeddedEngine! }
}
