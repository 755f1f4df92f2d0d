import Foundation
import Testing

/// The module rules of DESIGN.md, read from the sources: what each UI module may not import (the build's explicit
/// import check holds every module to its declared dependencies besides). A new import that breaks
/// a rule fails here, naming the file.
@Suite struct ModuleRulesTests {
    /// Every `import X` of the Swift files under `folder`, as (file, module).
    static func imports(under folder: String) throws -> [(file: String, module: String)] {
        let root = RepositoryFiles.url(folder)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), words[..<at].allSatisfy({ $0.hasPrefix("@") }), at + 1 < words.count else { continue }
                found.append((url.path.replacingOccurrences(of: RepositoryFiles.root.path + "/", with: ""), String(words[at + 1])))
            }
        }
        return found
    }

    @Test func viewModelsReachNeitherStorageNorTheEngineNorTheTerminal() throws {
        let found = try Self.imports(under: "Sources/HeraldViewModels")
        #expect(found.count > 20, "the sources were read")
        for (file, module) in found where ["HeraldStore", "HeraldEngine", "CNCurses", "HeraldTUI"].contains(module) {
            Issue.record("\(file) imports \(module): view-models reach storage only through HeraldServices")
        }
    }

    @Test func theTerminalUIReachesNeitherServicesNorStorageNorTheEngine() throws {
        let found = try Self.imports(under: "Sources/HeraldTUI")
        #expect(found.count > 20, "the sources were read")
        for (file, module) in found where ["HeraldStore", "HeraldEngine", "HeraldEnginePostgres", "HeraldServices"].contains(module) {
            Issue.record("\(file) imports \(module): the screens go through view-models")
        }
    }
}
