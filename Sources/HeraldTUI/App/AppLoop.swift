import Foundation
import HeraldCore

/// The one loop that owns the terminal: it waits in poll() on the input, the mailbox's wake pipe
/// and the next deadline; hands keys and events to the screen; and renders only when something
/// changed. What a key changes is drawn at once, with the answer of the read it started when that
/// comes within `keyHold` (one frame, not "searching…" then the answer), else the key first and the
/// answer the moment it is in; what other threads post is drawn at most `framesPerSecond` times a
/// second. Idle means blocked in poll() with no timeout.
public final class AppLoop<S: Screen> {
    public let terminal: Terminal
    public let screen: S
    public let mailbox: Mailbox<S.Event>
    private let clock: HeraldClock
    private let frameInterval: TimeInterval
    private var lastFrame: Date?
    private var canvas: Canvas
    /// True when the screen must be drawn again.
    public private(set) var dirty = true
    /// Keys changed the screen since the last frame: their frame is drawn at once, whatever the frame cap
    /// (which only paces what arrives from other threads: delivery events, a feed).
    private var keyChanged = false
    /// Work the last keys started (a search, the rows it shows): its frame waits up to `keyHold` for it, so
    /// that one frame shows the key and its answer, drawn the moment the answer is in.
    private var keyWork: (mark: Int, since: Date, shown: Bool)?
    /// How long the frame of a key waits for the work it started (then it shows the key, and the answer
    /// follows when it comes).
    public static var keyHold: TimeInterval { 0.008 }
    /// Frames drawn so far.
    public private(set) var framesRendered = 0

    public init(terminal: Terminal, screen: S, mailbox: Mailbox<S.Event>, clock: HeraldClock = SystemClock(),
                framesPerSecond: Double = 60) {
        self.terminal = terminal
        self.screen = screen
        self.mailbox = mailbox
        self.clock = clock
        frameInterval = 1 / max(1, framesPerSecond)
        canvas = Canvas(size: terminal.size)
    }

    /// Runs until the screen wants to quit. Installs the SIGWINCH wake-up for the duration.
    public func run() {
        ResizeSignal.install(wakeDescriptor: mailbox.wakeWriteDescriptor)
        defer { ResizeSignal.uninstall() }
        while !screen.wantsToQuit {
            step()
        }
    }

    /// One turn: render if due, wait for input/events/deadline, then handle what arrived.
    public func step() {
        renderIfDue()
        if screen.wantsToQuit { return }
        wait(timeoutMilliseconds: pollTimeout())
        processPending()
    }

    /// Handles everything waiting now: resize, mailbox events, keys and passed deadlines.
    public func processPending() {
        if ResizeSignal.consume(), terminal.refreshSize() { dirty = true }
        for event in mailbox.drain() where screen.handle(event: event) { dirty = true }
        let mark = screen.workMark
        var keys = false
        for key in terminal.readKeys() {
            if key == .resize { dirty = true; continue }
            keys = true
            if screen.handle(key: key) { dirty = true; keyChanged = true }
            if screen.wantsToQuit { return }
        }
        // While a frame is held for earlier keys, their mark covers these keys' work too; else these keys
        // start a hold of their own (an earlier key's work that is still running was shown already).
        if keys, keyWork?.shown ?? true, screen.awaitsWork(startedSince: mark) {
            keyWork = (mark, clock.now(), false)
            keyChanged = true
        }
        let now = clock.now()
        if let deadline = screen.nextDeadline(), deadline <= now, screen.tick(now: now) { dirty = true }
    }

    /// Draws a frame when dirty and the frame interval has passed; returns true if it drew.
    @discardableResult
    public func renderIfDue() -> Bool {
        guard dirty else { return false }
        let now = clock.now()
        // The layout pass asks for what the frame lacks; render only reads.
        let layoutMark = screen.workMark
        screen.layout(size: terminal.size)
        if let work = keyWork {
            if !screen.awaitsWork(startedSince: work.mark) {
                keyWork = nil
                keyChanged = true             // the keys' answer: drawn the moment it is in
            } else if !work.shown {
                if now.timeIntervalSince(work.since) < Self.keyHold { return false }
                keyWork?.shown = true         // the answer takes longer: show the keys meanwhile
            }
        }
        if !keyChanged, let lastFrame, now.timeIntervalSince(lastFrame) < frameInterval { return false }
        let size = terminal.size
        if canvas.size != size { canvas = Canvas(size: size) } else { canvas.clear() }
        screen.render(into: &canvas, size: size)
        // A frame that shows a question for the first time: keys waiting now were typed before anyone could see it,
        // so they are read and dropped before it is put on screen. A key read after `present` may answer it, however
        // soon after: nothing races the frame.
        var typedAhead: [Key] = []
        if screen.takeQuestionShown() { typedAhead = terminal.readKeys() }
        terminal.present(canvas)
        // A key's frame that asked for what it lacks (rows scrolled into view): their answer is the key's too.
        if keyChanged, keyWork == nil, screen.awaitsWork(startedSince: layoutMark) { keyWork = (layoutMark, now, true) }
        lastFrame = now
        dirty = false
        keyChanged = false
        framesRendered += 1
        if typedAhead.contains(.resize) { dirty = true }
        if screen.dropTypedAhead(typedAhead.filter { $0 != .resize }) { dirty = true }
        return true
    }

    /// How long poll() may sleep: -1 (forever) when nothing is due, else milliseconds until the next
    /// deadline or the next allowed frame.
    public func pollTimeout() -> Int32 {
        let now = clock.now()
        var wait: TimeInterval?
        if dirty {
            let sinceFrame = lastFrame.map { now.timeIntervalSince($0) } ?? frameInterval
            let awaiting = keyWork.map { screen.awaitsWork(startedSince: $0.mark) }
            if let work = keyWork, awaiting == true, !work.shown {
                wait = max(0, Self.keyHold - now.timeIntervalSince(work.since))
            } else {
                // The keys' frame, or their answer now in, is due at once; else the frame cap paces it.
                wait = keyChanged || awaiting == false ? 0 : max(0, frameInterval - sinceFrame)
            }
        }
        if let deadline = screen.nextDeadline() {
            let untilDeadline = max(0, deadline.timeIntervalSince(now))
            wait = min(wait ?? untilDeadline, untilDeadline)
        }
        guard let wait else { return -1 }
        return Int32(min(Double(Int32.max), (wait * 1000).rounded(.up)))
    }

    /// Blocks until input, a mailbox wake-up or the timeout (-1 = none).
    public func wait(timeoutMilliseconds timeout: Int32) {
        var fds = [pollfd(fd: mailbox.wakeReadDescriptor, events: Int16(POLLIN), revents: 0)]
        if let input = terminal.inputDescriptor { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), timeout)   // EINTR (a signal) simply ends the wait
    }
}
