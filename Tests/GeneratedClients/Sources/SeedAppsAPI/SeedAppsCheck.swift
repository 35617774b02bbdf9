import CheckSupport
import Foundation
import OpenAPIRuntime

// `Client`, `Operations` and `Components` are generated at build time by swift-openapi-generator's
// plugin from `openapi.json`, a link to docs/openapi.json (the seed apps' document).

/// What an app's developer does first with a client generated from the seed apps' document, on
/// the login form (seed 002): every call decodes, and the conditional and preference headers,
/// which the generated client sends percent-encoded, mean what they say.
public enum SeedAppsCheck {
    /// Runs the calls against the server at `serverURL` (its root); throws at the first that does
    /// not hold.
    public static func run(serverURL: URL, transport: any ClientTransport) async throws {
        let token = try await Client(serverURL: serverURL, transport: transport).createSession().created.body.json.token
        let client = Client(serverURL: serverURL, transport: transport, middlewares: [BearerToken(token)])
        passed("createSession")

        let read = try await client.getForm().ok
        let form = try read.body.json
        try check(read.headers.eTag == "\"\(form.version)\"", "the ETag \(read.headers.eTag) names version \(form.version)")
        try check(form.commands.clear.error == nil, "a command that never ran has no error")
        passed("getForm: version \(form.version), phone \(form.inputs.phone)")

        let unchanged = try await client.getForm(headers: .init(ifNoneMatch: read.headers.eTag))
        guard case .notModified = unchanged else { throw CheckFailure("If-None-Match \(read.headers.eTag) answered \(unchanged), not 304") }
        passed("getForm with If-None-Match: 304")

        let merged = try await client.patchForm(
            headers: .init(ifMatch: read.headers.eTag), body: .applicationMergePatchJson(.init(phone: "18600000001"))
        ).ok
        let afterMerge = try merged.body.json
        try check(afterMerge.inputs.phone == "18600000001", "the merge patch wrote the phone, got \(afterMerge.inputs.phone)")
        try check(afterMerge.version > form.version, "a write makes a new version")
        passed("patchForm (merge patch) with If-Match: version \(afterMerge.version)")

        let stale = try await client.patchForm(headers: .init(ifMatch: read.headers.eTag), body: .json(.init(phone: "18600000002")))
        guard case .preconditionFailed(let refusal) = stale else { throw CheckFailure("a stale If-Match answered \(stale), not 412") }
        let fields = try refusal.body.applicationProblemJson.fields ?? []
        try check(fields == ["phone"], "the 412 names the field changed meanwhile, got \(fields)")
        let written = try await client.patchForm(
            headers: .init(ifMatch: merged.headers.eTag), body: .json(.init(password: "correct horse", phone: "13800000002"))
        ).ok
        let valid = try written.body.json
        try check(valid.inputs.phone == "13800000002" && valid.outputs.phoneValid, "the JSON patch wrote a valid phone")
        try check(valid.commands.clear.enabled, "clear is enabled once both fields are valid")
        passed("patchForm (JSON) refused 412 with a stale If-Match, written with the current one")

        let invalid = try await client.patchForm(body: .json(.init(phone: String(repeating: "1", count: 500))))
        guard case .unprocessableContent(let problem) = invalid else { throw CheckFailure("a too long phone answered \(invalid), not 422") }
        try check(try problem.body.applicationProblemJson.field == "phone", "the 422 names the field")
        passed("patchForm refused with a 422 problem naming the field")

        let key = "\"check-clear-1\""  // a structured-field string: sent as %22check-clear-1%22
        let cleared = try await client.clearForm(headers: .init(idempotencyKey: key)).ok
        let afterClear = try cleared.body.json
        try check(afterClear.inputs.phone == "186", "clear puts the phone back to 186, got \(afterClear.inputs.phone)")
        let retried = try await client.clearForm(headers: .init(idempotencyKey: key)).ok
        try check(retried.headers.idempotentReplayed == ._true, "a retried clear with the same key is answered, not run again")
        try check(try retried.body.json.version == afterClear.version, "the replay answers the first answer's version")
        passed("clearForm with an Idempotency-Key, retried: replayed")

        let began = ContinuousClock.now
        let quiet = try await client.getForm(query: .init(after: afterClear.version), headers: .init(prefer: "wait=0"))
        guard case .notModified = quiet else { throw CheckFailure("a long-poll with nothing newer answered \(quiet), not 304") }
        try check(ContinuousClock.now - began < .seconds(15), "Prefer: wait=0 is honoured (the default waits 30 s)")
        async let woken = client.getForm(query: .init(after: afterClear.version), headers: .init(prefer: "wait=30"))
        _ = try await client.patchForm(body: .json(.init(phone: "18600000003"))).ok
        let news = try await woken.ok.body.json
        try check(news.version > afterClear.version && news.inputs.phone == "18600000003", "the long-poll answers the newer version")
        passed("getForm long-poll with Prefer: wait: 304 at once for wait=0, woken by a write")

        let log = try await client.versionsForm().ok.body.json
        try check(log.versions.last?.version == news.version, "the log ends with the current version")
        try check(log.versions.allSatisfy { $0.at != nil }, "every logged version's `at` decodes as a date")
        passed("versionsForm: \(log.versions.count) versions, dates decoded")
    }
}
