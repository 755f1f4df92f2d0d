import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` into the target it is applied to (the `herald` executable): the commit the package
/// directory's `.git` points at, read from its files by `herald-build-info` (no git program, no network). The command
/// runs again only when one of those files changes (a commit, a checkout, a `git pack-refs`), so an unchanged tree
/// rebuilds nothing. Without `.git` (a source tarball) the commit is "unknown".
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "herald-build-info")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        let package = context.package.directoryURL
        var arguments = [package.path, output.path]
        // Reproducible builds (reproducible-builds.org): the date is the one given, not the build's.
        if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty { arguments.append(epoch) }
        return [.buildCommand(displayName: "Reading the commit Herald is built from", executable: tool.url,
                              arguments: arguments, inputFiles: Self.gitFiles(package), outputFiles: [output])]
    }

    /// The files whose change means another commit: HEAD, the branch it names (loose), and packed-refs; those of a
    /// worktree's own folder and of the repository's common one.
    static func gitFiles(_ package: URL) -> [URL] {
        let fm = FileManager.default
        var gitDir = package.appending(path: ".git")
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: gitDir.path, isDirectory: &isDirectory) else { return [] }
        var files: [URL] = []       // not the folder .git itself: its time changes with every `git status`
        if !isDirectory.boolValue {     // a worktree or submodule: "gitdir: PATH"
            files.append(gitDir)
            guard let text = try? String(contentsOf: gitDir, encoding: .utf8), text.hasPrefix("gitdir:") else { return files }
            let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            gitDir = path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appending(path: path)
        }
        var common = gitDir
        if let text = try? String(contentsOf: gitDir.appending(path: "commondir"), encoding: .utf8) {
            let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
            common = path.hasPrefix("/") ? URL(fileURLWithPath: path) : gitDir.appending(path: path)
        }
        files.append(gitDir.appending(path: "HEAD"))
        if let head = try? String(contentsOf: gitDir.appending(path: "HEAD"), encoding: .utf8), head.hasPrefix("ref:") {
            let ref = head.dropFirst("ref:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            files.append(common.appending(path: ref))
        }
        files.append(common.appending(path: "packed-refs"))
        return files.filter { fm.fileExists(atPath: $0.path) }
    }
}
