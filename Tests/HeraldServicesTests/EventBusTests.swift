import Foundation
import HeraldCore
import Testing
@testable import HeraldServices

@Suite struct EventBusTests {
    private func toast(_ n: Int) -> HeraldEvent { .toast(level: .info, text: "event \(n)") }

    @Test func streamSubscribersReceiveEventsInOrder() async {
        let bus = EventBus()
        let first = bus.stream()
        let second = bus.stream()
        for n in 0..<100 { bus.publish(toast(n)) }
        bus.close()
        var a: [HeraldEvent] = []
        for await event in first { a.append(event) }
        var b: [HeraldEvent] = []
        for await event in second { b.append(event) }
        #expect(a == (0..<100).map(toast))
        #expect(b == a)
    }

    @Test func streamSeesOnlyEventsPublishedAfterSubscribing() async {
        let bus = EventBus()
        bus.publish(toast(1))
        let stream = bus.stream()
        bus.publish(toast(2))
        bus.close()
        var seen: [HeraldEvent] = []
        for await event in stream { seen.append(event) }
        #expect(seen == [toast(2)])
    }

    /// The demo's Deliveries once said "tracker idle" with every bulk pending: its subscription came after the
    /// tracker's first state. The latest state is handed to a new subscriber first; other events are not.
    @Test func aNewSubscriberGetsTheTrackersLatestStateFirstAndNoOlderEvent() async {
        let bus = EventBus()
        let watched = HeraldEvent.trackerState(TrackerState(nextPassAt: Date(timeIntervalSince1970: 60), bulks: [
            .init(bulkId: "b1", passesLeft: 3, pendingRecipients: 2),
        ]))
        bus.publish(.trackerState(TrackerState(nextPassAt: nil, bulks: [])))
        bus.publish(watched)
        bus.publish(toast(1))
        let log = Recorder()
        let subscription = bus.subscribe { log.append($0) }
        let stream = bus.stream()
        bus.publish(toast(2))
        #expect(log.events == [watched, toast(2)])
        subscription.cancel()
        bus.close()
        var seen: [HeraldEvent] = []
        for await event in stream { seen.append(event) }
        #expect(seen == [watched, toast(2)])
    }

    @Test func callbackSubscriberReceivesInOrderAndStopsAfterCancel() {
        let bus = EventBus()
        let log = Recorder()
        let subscription = bus.subscribe { log.append($0) }
        bus.publish(toast(1))
        bus.publish(toast(2))
        subscription.cancel()
        bus.publish(toast(3))
        #expect(log.events == [toast(1), toast(2)])
        #expect(bus.subscriberCount == 0)
    }

    @Test func releasingTheSubscriptionUnsubscribes() {
        let bus = EventBus()
        let log = Recorder()
        do {
            let subscription = bus.subscribe { log.append($0) }
            bus.publish(toast(1))
            _ = subscription
        }
        bus.publish(toast(2))
        #expect(log.events == [toast(1)])
        #expect(bus.subscriberCount == 0)
    }

    @Test func droppingAStreamUnsubscribes() {
        let bus = EventBus()
        do {
            let stream = bus.stream()
            #expect(bus.subscriberCount == 1)
            _ = stream
        }
        #expect(bus.subscriberCount == 0)
    }

    @Test func cancellingTheConsumerTaskUnsubscribes() async {
        let bus = EventBus()
        let stream = bus.stream()
        let received = Recorder()
        let task = Task {
            for await event in stream { received.append(event) }
        }
        bus.publish(toast(1))
        task.cancel()
        await task.value
        #expect(bus.subscriberCount == 0)
    }

    @Test func publishingFromInsideACallbackKeepsOrder() {
        let bus = EventBus()
        let log = Recorder()
        let subscription = bus.subscribe { event in
            log.append(event)
            if event == .toast(level: .info, text: "event 1") {
                bus.publish(.toast(level: .info, text: "event 2"))
            }
        }
        bus.publish(toast(1))
        bus.publish(toast(3))
        #expect(log.events == [toast(1), toast(2), toast(3)])
        subscription.cancel()
    }

    @Test func cancellingFromInsideTheCallbackStopsDelivery() {
        let bus = EventBus()
        let log = Recorder()
        let holder = SubscriptionHolder()
        holder.subscription = bus.subscribe { event in
            log.append(event)
            holder.subscription?.cancel()
        }
        bus.publish(toast(1))
        bus.publish(toast(2))
        #expect(log.events == [toast(1)])
    }

    @Test func concurrentPublishersFromManyThreadsReachEveryCallbackInOnePerPublisherOrder() async {
        let bus = EventBus()
        let log = Recorder()
        let subscription = bus.subscribe { log.append($0) }
        await withTaskGroup(of: Void.self) { group in
            for publisher in 0..<4 {
                group.addTask {
                    for n in 0..<250 { bus.publish(.toast(level: .info, text: "\(publisher):\(n)")) }
                }
            }
        }
        let events = log.events
        #expect(events.count == 1000)
        for publisher in 0..<4 {
            let mine = events.compactMap { event -> Int? in
                guard case .toast(_, let text) = event else { return nil }
                let parts = text.split(separator: ":")
                return parts[0] == "\(publisher)" ? Int(parts[1]) : nil
            }
            #expect(mine == Array(0..<250))
        }
        subscription.cancel()
    }

    @Test func publishIsUsableFromAnActor() async {
        actor Publisher {
            let bus: EventBus
            init(bus: EventBus) { self.bus = bus }
            func report(_ change: DeliveryChange) { bus.publish(.ledgerChanged(LedgerChange(previous: 1, sequence: 2, deliveries: [change], bulks: []))) }
        }
        let bus = EventBus()
        let stream = bus.stream()
        let change = DeliveryChange(bulkId: "b1", address: "385981234567", messageId: "m1", personId: 7,
                                    from: .messageWaiting, to: .deliveredToTerminal, at: Date(timeIntervalSince1970: 10))
        await Publisher(bus: bus).report(change)
        bus.close()
        var seen: [HeraldEvent] = []
        for await event in stream { seen.append(event) }
        #expect(seen == [.ledgerChanged(LedgerChange(previous: 1, sequence: 2, deliveries: [change], bulks: []))])
    }

    @Test func closeFinishesStreamsAndRefusesNewSubscribers() async {
        let bus = EventBus()
        let log = Recorder()
        let subscription = bus.subscribe { log.append($0) }
        bus.close()
        bus.publish(toast(1))
        let late = bus.stream()
        var lateEvents: [HeraldEvent] = []
        for await event in late { lateEvents.append(event) }
        #expect(lateEvents.isEmpty)
        #expect(log.events.isEmpty)
        #expect(bus.subscriberCount == 0)
        subscription.cancel()
    }
}

/// Collects events from any thread.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [HeraldEvent] = []
    func append(_ event: HeraldEvent) { lock.withLock { stored.append(event) } }
    var events: [HeraldEvent] { lock.withLock { stored } }
}

final class SubscriptionHolder: @unchecked Sendable {
    var subscription: EventSubscription?
}
