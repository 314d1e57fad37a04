import Testing
@testable import GrouperModel
import SimKernel

/// The one rule both kinds of server use for when a device hears back about a request.
@Suite struct RequestAnswerTests {
    let now = SimTime(nanoseconds: 1_000), deadline = SimTime(nanoseconds: 5_000)
    let latency = SimDuration.nanoseconds(300)

    @Test func unservedByState() {
        #expect(RequestAnswer.unserved(.up, deadline: deadline, now: now, latency: latency) == nil)
        #expect(RequestAnswer.unserved(.blackhole, deadline: deadline, now: now, latency: latency)
                == RequestAnswer(timedOut: true, at: deadline))
        #expect(RequestAnswer.unserved(.refusing, deadline: deadline, now: now, latency: latency)
                == RequestAnswer(timedOut: false, at: SimTime(nanoseconds: 1_300)))
        // A request that reaches a blackholed server after its deadline times out now, not in the past.
        let late = SimTime(nanoseconds: 7_000)
        #expect(RequestAnswer.unserved(.blackhole, deadline: deadline, now: late, latency: latency)
                == RequestAnswer(timedOut: true, at: late))
    }

    @Test func servedInTimeOrNot() {
        #expect(RequestAnswer.served(arrival: SimTime(nanoseconds: 4_000), deadline: deadline, now: now)
                == RequestAnswer(timedOut: false, at: SimTime(nanoseconds: 4_000)))
        #expect(RequestAnswer.served(arrival: deadline, deadline: deadline, now: now)
                == RequestAnswer(timedOut: false, at: deadline), "arriving at the deadline is in time")
        #expect(RequestAnswer.served(arrival: SimTime(nanoseconds: 5_001), deadline: deadline, now: now)
                == RequestAnswer(timedOut: true, at: deadline))
    }
}
