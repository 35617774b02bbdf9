import Foundation
import Synchronization

/// The fake upstream: serves the fixtures' travel, hotel, photo-list, photo-detail and course
/// data, and checks accounts' passwords, with seed 000's behaviour (one second of latency, travel failing 25% of the time with
/// "Bad Network"), configurable per endpoint and at run time, seeded for reproducible runs.
///
/// Each call draws its outcome from its endpoint's seeded sequence, waits on the injected clock,
/// then has the fake transport produce raw bytes (the fixture, or a malformed body) that the
/// network layer (``UpstreamResponseDecoder``) decodes from `{"data": ...}` into models.
///
/// Cancelling the calling task while a call waits ends the call at once with
/// ``UpstreamError/cancelled(_:)`` (code 499), so the typed throw stays `UpstreamError`.
public final class UpstreamProvider: Sendable {
    /// The cities of the fixtures, for choosing the current city.
    public let cities: [City]
    /// The base URL that fixture image names are rewritten under (`<base>/<name>.svg`).
    public let imageBaseURL: String

    /// The clock calls wait on.
    private let clock: any Clock<Duration>
    /// The fake wire, answering with raw bytes.
    private let transport: FakeTransport
    /// The network layer, decoding raw bytes into models.
    private let decoder: UpstreamResponseDecoder
    /// The models of the last body of each request, shared by every caller that gets that body.
    private let decoded = DecodedResponses()
    /// The generated images.
    private let catalog: ImageCatalog
    /// The settings and the outcome sequences.
    private let state: Mutex<State>
    /// Hears of every finished call (metrics).
    private let observer: (@Sendable (UpstreamCall) -> Void)?

    /// The provider's mutable state, guarded by ``state``.
    private struct State: Sendable {
        /// The settings in force.
        var settings: UpstreamSettings
        /// Each endpoint's seeded outcome sequence.
        var outcomes: OutcomeSource
    }

    /// Creates a provider serving the bundled fixtures.
    /// - Parameters:
    ///   - settings: latency, failure rates and seed (default: seed 000's behaviour).
    ///   - clock: the clock calls wait on; tests pass a `TestClock`.
    ///   - imageBaseURL: where image URLs point (`<imageBaseURL>/<name>.svg`).
    ///   - observer: hears of every finished call and its real duration (for metrics).
    public convenience init(
        settings: UpstreamSettings = .seedDefaults,
        clock: any Clock<Duration> = ContinuousClock(),
        imageBaseURL: String = "/upstream/images",
        observer: (@Sendable (UpstreamCall) -> Void)? = nil
    ) {
        self.init(settings: settings, clock: clock, imageBaseURL: imageBaseURL, fixtures: .bundled, observer: observer)
    }

    /// Creates a provider serving `fixtures`.
    init(
        settings: UpstreamSettings, clock: any Clock<Duration>, imageBaseURL: String, fixtures: FixtureStore,
        observer: (@Sendable (UpstreamCall) -> Void)? = nil
    ) {
        self.observer = observer
        self.clock = clock
        self.imageBaseURL = imageBaseURL
        transport = FakeTransport(fixtures: fixtures)
        decoder = UpstreamResponseDecoder(imageBaseURL: imageBaseURL)
        catalog = ImageCatalog(fixtures: fixtures)
        cities = (try? UpstreamResponseDecoder().decode([City].self, from: fixtures.cities, endpoint: .travel)) ?? []
        state = Mutex(State(settings: settings, outcomes: OutcomeSource(seed: settings.seed)))
    }

    /// The settings in force.
    public var settings: UpstreamSettings {
        state.withLock { $0.settings }
    }

    /// Replaces the settings; a new seed restarts every endpoint's outcome sequence.
    public func update(_ settings: UpstreamSettings) {
        state.withLock { state in
            if state.settings.seed != settings.seed {
                state.outcomes.reseed(settings.seed)
            }
            state.settings = settings
        }
    }

    /// Applies a JSON merge patch to the settings in force, atomically, and returns the result.
    /// A refused patch changes nothing. See ``UpstreamSettings/merging(patch:)``.
    @discardableResult
    public func update(patch: Data) throws(SettingsPatchError) -> UpstreamSettings {
        try state.withLock { (state) throws(SettingsPatchError) -> UpstreamSettings in
            let merged = try state.settings.merging(patch: patch)
            if state.settings.seed != merged.seed {
                state.outcomes.reseed(merged.seed)
            }
            state.settings = merged
            return merged
        }
    }

    /// Scenic spots (seed 000's `loadTravelData`).
    public func travel() async throws(UpstreamError) -> [ScenicSpot] {
        try await call(.travel, as: [ScenicSpot].self)
    }

    /// Hotels (seed 000's `loadHotelData`).
    public func hotels() async throws(UpstreamError) -> [Hotel] {
        try await call(.hotel, as: [Hotel].self)
    }

    /// The gallery's photos (seed 004's `importPhotos`).
    public func photos() async throws(UpstreamError) -> [Photo] {
        try await call(.photos, as: [Photo].self)
    }

    /// One photo's details with its full-size image (seed 004's `fetchPhotoDetails:`);
    /// an unknown id fails with 404 "Not Found".
    public func photoDetails(id: String) async throws(UpstreamError) -> PhotoDetails {
        try await call(.photoDetails(id: id), as: PhotoDetails.self)
    }

    /// The course list (seed 001's `MarshalService` `fetchDataCompletion:`).
    public func courses() async throws(UpstreamError) -> [Course] {
        try await call(.courses, as: [Course].self)
    }

    /// The account `phone` and `password` sign in as, or nil when no account has that phone
    /// number or the password is not its own (the same answer, taking as long, either way). The
    /// accounts service fails like any endpoint: latency, "Bad Network", a malformed answer
    /// ("Error JSON Data"), a timeout.
    public func signIn(phone: String, password: String) async throws(UpstreamError) -> Account? {
        let records = try await call(.accounts, as: [AccountRecord].self)
        let record = records.first { $0.phone == phone }
        guard await PasswordCheck.matches(password, record?.passwordHash) else { return nil }
        return record?.account
    }

    /// The generated image named `name` (`"scenic-gugong"` or `"scenic-gugong.svg"`), for every
    /// image the fixtures name; nil for unknown names and names with path characters.
    public func image(named name: String) -> UpstreamImage? {
        catalog.image(named: name)
    }

    /// The names of all images the fixtures use, sorted.
    public var imageNames: [String] {
        catalog.names
    }

    /// Makes a call and tells the observer how long it took and how it ended.
    private func call<Payload: Decodable & Sendable>(
        _ request: UpstreamRequest, as type: Payload.Type
    ) async throws(UpstreamError) -> Payload {
        guard let observer else { return try await perform(request, as: type) }
        let (result, duration) = await Self.timed { () async throws(UpstreamError) -> Payload in
            try await perform(request, as: type)
        }
        observer(UpstreamCall(endpoint: request.endpoint, duration: duration, error: result.failure))
        return try result.get()
    }

    /// Runs `work` and measures it in real time (metrics report what callers really waited).
    private static func timed<Value>(
        _ work: () async throws(UpstreamError) -> Value
    ) async -> (Result<Value, UpstreamError>, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let result: Result<Value, UpstreamError>
        do {
            result = .success(try await work())
        } catch {
            result = .failure(error)
        }
        return (result, start.duration(to: clock.now))
    }

    /// Draws the outcome, waits, fetches the raw body and decodes it.
    private func perform<Payload: Decodable & Sendable>(
        _ request: UpstreamRequest, as type: Payload.Type
    ) async throws(UpstreamError) -> Payload {
        let endpoint = request.endpoint
        let (outcome, behaviour) = state.withLock { state in
            let behaviour = state.settings.endpoint(endpoint)
            return (state.outcomes.draw(for: endpoint, settings: behaviour), behaviour)
        }
        let malformed: MalformedBody?
        switch outcome {
        case .timeout:
            try await wait(milliseconds: behaviour.timeoutMs, endpoint: endpoint)
            throw .timeout(endpoint)
        case .failure:
            try await wait(milliseconds: behaviour.latencyMs, endpoint: endpoint)
            throw .badNetwork(endpoint)
        case .malformed(let body):
            malformed = body
        case .success:
            malformed = nil
        }
        try await wait(milliseconds: behaviour.latencyMs, endpoint: endpoint)
        let body = try transport.body(for: request, malformed: malformed)
        return try decoded.models(of: body, for: request) { (body) throws(UpstreamError) in
            try decoder.decode(Payload.self, from: body, endpoint: endpoint)
        }
    }

    /// Waits on the clock; cancellation ends the wait with 499 "Cancelled".
    private func wait(milliseconds: Int, endpoint: UpstreamEndpoint) async throws(UpstreamError) {
        guard milliseconds > 0 else {
            if Task.isCancelled { throw .cancelled(endpoint) }
            return
        }
        do {
            try await clock.sleep(for: .milliseconds(milliseconds))
        } catch {
            throw .cancelled(endpoint)
        }
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
