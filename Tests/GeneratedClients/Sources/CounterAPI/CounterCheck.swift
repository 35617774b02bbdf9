import CheckSupport
import Foundation
import OpenAPIRuntime

// `Client`, `Operations` and `Components` are generated at build time by swift-openapi-generator's
// plugin from `openapi.json`, a link to Examples/Counter/openapi.json (the Counter's document).

/// A client generated from the Counter's document, as its developer would use it: a write with
/// `If-Match`, a command retried with its key, a deferred command waited for with `Prefer: wait`.
public enum CounterCheck {
    /// Runs the calls against the Counter served at `serverURL`; throws at the first that does not
    /// hold.
    public static func run(serverURL: URL, transport: any ClientTransport) async throws {
        let token = try await Client(serverURL: serverURL, transport: transport).createSession().created.body.json.token
        let client = Client(serverURL: serverURL, transport: transport, middlewares: [BearerToken(token)])

        let read = try await client.getCounter().ok
        let counter = try read.body.json
        try check(counter.outputs.count == 0 && counter.outputs.parity == .even, "a new counter is 0, even")
        let stepped = try await client.patchCounter(
            headers: .init(ifMatch: read.headers.eTag), body: .applicationMergePatchJson(.init(step: 3))
        ).ok
        try check(try stepped.body.json.inputs.step == 3, "the patch wrote the step")
        passed("patchCounter with If-Match")

        let key = UUID().uuidString
        let up = try await client.incrementCounter(headers: .init(idempotencyKey: key)).ok.body.json
        let again = try await client.incrementCounter(headers: .init(idempotencyKey: key)).ok
        let replayed = try again.body.json
        try check(up.outputs.count == 3 && replayed.outputs.count == 3, "a retried increment runs once")
        try check(again.headers.idempotentReplayed == ._true, "the retry is answered as a replay")
        passed("incrementCounter retried with its key: ran once")

        // Deferred: without the wait it answers 202 while the reset runs (300 ms).
        let reset = try await client.resetCounter(headers: .init(prefer: "wait=10"))
        guard case .ok(let done) = reset else { throw CheckFailure("a reset waited for answered \(reset), not 200") }
        let after = try done.body.json
        try check(after.outputs.count == 0 && !after.commands.reset.executing, "the reset is done when answered")
        passed("resetCounter with Prefer: wait=10: answered done")

        let unchanged = try await client.getCounter(headers: .init(ifNoneMatch: done.headers.eTag))
        guard case .notModified = unchanged else { throw CheckFailure("If-None-Match \(done.headers.eTag) answered \(unchanged), not 304") }
        passed("getCounter with If-None-Match: 304")
    }
}
