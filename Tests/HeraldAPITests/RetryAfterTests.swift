import Foundation
import Testing
@testable import HeraldAPI

/// A peer's `Retry-After` is read one way everywhere: finite, never negative, never more than an hour.
@Suite struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    @Test func hostileValuesAreClampedOrIgnoredNeverTrapped() {
        #expect(RetryAfter.seconds("7", now: now) == 7)
        #expect(RetryAfter.seconds(" 2.5 ", now: now) == 2.5)
        #expect(RetryAfter.seconds("1e20", now: now) == RetryAfter.maxSeconds)
        #expect(RetryAfter.seconds("inf", now: now) == RetryAfter.maxSeconds)
        #expect(RetryAfter.seconds("99999999999999999999", now: now) == RetryAfter.maxSeconds)
        #expect(RetryAfter.seconds("-5", now: now) == 0)
        #expect(RetryAfter.seconds("-inf", now: now) == 0)
        #expect(RetryAfter.seconds("nan", now: now) == nil)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds("", now: now) == nil)
        #expect(RetryAfter.seconds(nil, now: now) == nil)
    }

    @Test func anHTTPDateIsReadAndClampedToo() {
        #expect(RetryAfter.seconds("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == 30)
        #expect(RetryAfter.seconds("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("Fri, 31 Dec 9999 23:59:59 GMT", now: now) == RetryAfter.maxSeconds)
    }

    @Test func aPlatformsHostile429BecomesAnErrorThatCanBeShown() {
        for value in ["1e20", "inf", "99999999999999999999"] {
            let error = APIError(response: APIResponse(status: 429, headers: ["Retry-After": value], body: Data()))
            #expect(error == .tooManyRequests(retryAfter: RetryAfter.maxSeconds), "\(value)")
            #expect(error.description == "too many requests: retry in 3600 s", "\(value)")
        }
        // An error built in code with an absurd wait is shown and answered without trapping.
        #expect(APIError.tooManyRequests(retryAfter: .infinity).description == "too many requests: retry in 3600 s")
        #expect(APIError.tooManyRequests(retryAfter: .nan).response.headers["Retry-After"] == "0")
    }
}
