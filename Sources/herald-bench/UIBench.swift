import Foundation
import HeraldCore
import HeraldEmbedded
import HeraldServices
import HeraldApp
import HeraldTUI
import HeraldViewModels

/// A terminal that takes frames without drawing them: it finds the changed cells (what the real
/// terminal writes) and keeps the last frame, so a frame costs what Herald's own side costs.
@MainActor
final class BenchTerminal: Terminal {
    var size: Size
    var inputDescriptor: Int32? { nil }
    private var keys: [Key] = []
    private var last: Canvas?
    private(set) var frames = 0
    private(set) var lastPresented = DispatchTime.now().uptimeNanoseconds

    init(size: Size) { self.size = size }

    func queue(_ key: Key) { keys.append(key) }
    func readKeys() -> [Key] { defer { keys = [] }; return keys }
    func present(_ canvas: Canvas) {
        _ = FrameDiff.changes(from: last, to: canvas)
        last = canvas
        frames += 1
        lastPresented = DispatchTime.now().uptimeNanoseconds
    }
    func setTheme(_ theme: Theme) {}
    func refreshSize() -> Bool { false }
    var text: String { last?.snapshot() ?? "" }
}

/// The real screens (AppScreen, the five panes, their view-models) on a real workspace, driven the
/// way the app loop drives them: keys in, mailbox drained, frames rendered. Times are from a key
/// being queued to the frame that shows its complete result (every read it started has come back
/// and been drawn), so they include the reads done off the UI thread.
@MainActor
final class UIBench {
    let terminal = BenchTerminal(size: Size(width: 120, height: 40))
    let loop: AppLoop<AppScreen>
    let effects: EffectQueue
    let screen: AppScreen
    let uiGuard = UIThreadGuard()
    private let subscription: EventSubscription

    init(workspace: Workspace) throws {
        let mailbox = try Mailbox<AppEvent>()
        let effects = EffectQueue { mailbox.post(.effect($0)) }
        self.effects = effects
        subscription = workspace.bus.subscribe { mailbox.post(.service($0)) }
        let clock = SystemClock()
        let app = AppViewModel(workspaceName: "bench", toasts: ToastBoard(clock: clock), clock: clock)
        let theme = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default")
        let env = PaneEnvironment(workspace: workspace, app: app, effects: effects, keyMap: KeyMap(), clock: clock, inboxUser: nil)
        let guardian = uiGuard
        screen = guardian.run {
            AppScreen(app: app, panes: AppPanes.make(env), effects: effects, keyMap: KeyMap(), theme: theme,
                      themeLoader: ThemeLoader(userDirectory: nil, builtinDirectory: nil), clock: clock, applyTheme: { _ in })
        }
        // The app's own frame cap (60 a second): keys and their answers are drawn at once whatever it, so the
        // figures are what a user sees.
        loop = AppLoop(terminal: terminal, screen: screen, mailbox: mailbox, clock: clock)
    }

    /// Runs the loop until nothing is in flight and the last frame is drawn; returns when that frame
    /// was presented (uptime ns).
    @discardableResult
    func settle(timeout: TimeInterval = 30) -> UInt64 {
        let deadline = Date().addingTimeInterval(timeout)
        uiGuard.run {
            while Date() < deadline {
                loop.processPending()
                loop.renderIfDue()
                if effects.inFlight == 0 && !loop.dirty { break }
                loop.wait(timeoutMilliseconds: effects.inFlight > 0 ? 50 : 0)
            }
        }
        return terminal.lastPresented
    }

    /// Milliseconds from queuing `key` to the frame showing all of its result.
    @discardableResult
    func press(_ key: Key) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        terminal.queue(key)
        let end = settle()
        return Double(end &- start) / 1e6
    }

    /// Runs the loop until the Contacts pane shows its first screen of people; when that frame was presented.
    func settleFirstScreen(timeout: TimeInterval = 30) -> UInt64 {
        let deadline = Date().addingTimeInterval(timeout)
        let contacts = (screen.panes.first as? ContactsPane)?.viewModel
        return uiGuard.run {
            while Date() < deadline {
                loop.processPending()
                let drawn = loop.renderIfDue()
                if let vm = contacts, !vm.isLoading, vm.rows(in: 0..<30).allSatisfy({ $0 != nil }), drawn || !loop.dirty {
                    return terminal.lastPresented
                }
                loop.wait(timeoutMilliseconds: 5)
            }
            return terminal.lastPresented
        }
    }

    /// Storage accesses made on the UI side (should be none).
    var violations: [String] { uiGuard.violations }
}

/// Runs `screens` in a child process on the prepared folder, its output passed through.
func runScreens(_ o: BenchOptions, data: URL) throws {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    child.arguments = ["screens", "--data", data.path, "--rounds", String(o.rounds), "--idle", String(Int(o.idleSeconds))]
    try child.run()
    child.waitUntilExit()
    guard child.terminationStatus == 0 else { throw BenchError("the screens benchmark failed (exit \(child.terminationStatus))") }
}

@MainActor
func uiBench(_ o: BenchOptions, data: URL) async throws {
    let rssBefore = peakRSSMegabytes()
    let workspace = try await Workspace.open(dataDirectory: data, config: WorkspaceConfig(region: "HR"))
    print("screens:  peak RSS after opening the workspace \(fmt(peakRSSMegabytes(), 0)) MB")
    defer { workspace.close() }
    try await workspace.startFeed()

    let firstStart = DispatchTime.now().uptimeNanoseconds
    let bench = try UIBench(workspace: workspace)
    _ = bench.uiGuard.run { bench.loop.renderIfDue() }
    let firstDrawn = Double(bench.terminal.lastPresented &- firstStart) / 1e6
    let firstPeople = Double(bench.settleFirstScreen() &- firstStart) / 1e6
    let firstFull = Double(bench.settle() &- firstStart) / 1e6
    print("ui:       first frame \(fmt(firstDrawn)) ms (drawn at once, rows marked as being read); first screen of people \(fmt(firstPeople)) ms;")
    print("          every start-up read done (search index, suggestions over 100,000 people) \(fmt(firstFull)) ms")

    // Contacts search, a letter at a time.
    var typing: [Double] = []
    let words = ["horvat", "ana h", "kovač", "ivan", "+385 98", "smith", "müller", "gmail.com", "zz-nothing"]
    for _ in 0..<max(1, o.rounds / 3) {
        for word in words {
            bench.press(.char("/"))
            for ch in word { typing.append(bench.press(.char(ch))) }
            bench.press(.escape)
            bench.press(.escape)
        }
    }
    print("          Contacts search, keystroke → complete frame (\(typing.count) keys): " + summaryWithP99(typing))
    var scrolling: [Double] = []
    for _ in 0..<200 { scrolling.append(bench.press(.char("j"))) }
    for _ in 0..<20 { scrolling.append(bench.press(.pageDown)) }
    print("          Contacts scrolling (j, page down; rows read as they come into view): " + summaryWithP99(scrolling))

    // Deliveries with every bulk.
    let bulkCount = try await workspace.book.deliveriesSnapshot().bulks.count
    let open = bench.press(.char("5"))
    print("          Deliveries opened with \(bulkCount) bulks: \(fmt(open)) ms to the full frame")
    var deliveries: [Double] = []
    for _ in 0..<300 { deliveries.append(bench.press(.char("j"))) }
    for _ in 0..<30 { deliveries.append(bench.press(.char("f"))) }
    print("          Deliveries keys (j, f), key → frame: " + summaryWithP99(deliveries))
    let violations = bench.violations
    print("          storage touched on the UI side: \(violations.count) time\(violations.count == 1 ? "" : "s")")
    print("memory:   peak RSS \(fmt(peakRSSMegabytes(), 0)) MB with the book and the ledger open (before opening: \(fmt(rssBefore, 0)) MB)")

    // Idle: the tracker has bulks scheduled an hour away, the change feed checks twice a second.
    workspace.startTracking()
    try await Task.sleep(nanoseconds: 2_000_000_000)      // the tracker's first scan
    let cpuStart = cpuSeconds()
    let wallStart = Date()
    try await Task.sleep(nanoseconds: UInt64(o.idleSeconds * 1e9))
    let idle = (cpuSeconds() - cpuStart) / Date().timeIntervalSince(wallStart) * 100
    let tracked = await workspace.tracker.trackedBulks().count
    print("idle:     CPU \(fmt(idle, 3)) % over \(fmt(o.idleSeconds, 0)) s with \(tracked) bulks tracked, nothing due (the feed wakes on writes, else every 5 s)")
}

func summaryWithP99(_ times: [Double]) -> String {
    let t = times.sorted()
    guard !t.isEmpty else { return "no samples" }
    return "median \(fmt(percentile(t, 0.5))) ms, p95 \(fmt(percentile(t, 0.95))) ms, p99 \(fmt(percentile(t, 0.99))) ms, max \(fmt(t.last ?? 0)) ms"
}

/// Peak resident memory of this process so far (VmHWM: unlike getrusage's maxrss it does not carry
/// over the parent's peak through fork and exec).
func peakRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return 0 }
    return kilobytes / 1024
}
