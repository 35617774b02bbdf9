import BinderyRuntime
import BinderyTestSupport
import BinderyTesting
import Observation
import Synchronization
import Testing

/// A diary: readable by its signed-in owner's sessions only, its title writable by editors, its
/// `lock` command by administrators; a page per entry readable only while the entry is public.
@Observable
final class DiaryViewModel: ViewModel {
    var title = "Mine"
    var isPublic = true
    @ObservationIgnored let viewer: Viewer
    let commandStates = CommandStates()

    init(viewer: Viewer) {
        self.viewer = viewer
    }

    /// The page of entry `id`.
    var entry: DiaryEntryViewModel { DiaryEntryViewModel(diary: self) }

    static let declaration = ViewModelDeclaration<DiaryViewModel>(
        "Diary", summary: "A diary.",
        inputs: [.string("title", \.title).writable(by: .role("editor"))],
        outputs: [.optionalString("reader") { $0.viewer.user?.name }],
        commands: [
            .immediate(
                "lock", summary: "Makes it private.",
                run: { model, _ in
                    model.isPublic = false
                    return .none
                }
            ).executable(by: .role("admin"))
        ],
        children: [.page("entry", title: "Entry", segment: "entry", child: DiaryEntryViewModel.declaration.schema) { $0.entry }]
    )
    .readable(by: .signedIn)
}

/// The diary's entry page: readable while the diary is public.
@Observable
final class DiaryEntryViewModel: ViewModel {
    @ObservationIgnored let diary: DiaryViewModel
    let commandStates = CommandStates()

    init(diary: DiaryViewModel) {
        self.diary = diary
    }

    static let declaration = ViewModelDeclaration<DiaryEntryViewModel>(
        "DiaryEntry", summary: "An entry.", outputs: [.string("title") { $0.diary.title }]
    )
    .readable(by: .when { _, entry in entry.diary.isPublic })
}

@Suite("Access rules: who may read, write and run")
struct AccessRuleTests {
    static let ada = User(id: "ada", name: "Ada", roles: ["admin", "editor"])
    static let bob = User(id: "bob", name: "Bob")

    @Test func rulesDecideByUserAndSubject() {
        let rule = Access<Int>.when { user, number in user.id == "ada" && number > 0 }
        #expect(Access<Int>.everyone.decision(for: nil as User?, 1) == .allowed)
        #expect(Access<Int>.signedIn.decision(for: nil as User?, 1) == .signInRequired)
        #expect(Access<Int>.signedIn.decision(for: Self.bob, 1) == .allowed)
        #expect(Access<Int>.role("admin").decision(for: Self.bob, 1) == .forbidden)
        #expect(Access<Int>.anyRole(["x", "editor"]).decision(for: Self.ada, 1) == .allowed)
        #expect(rule.decision(for: Self.ada, 1) == .allowed)
        #expect(rule.decision(for: Self.ada, 0) == .forbidden)
        #expect(rule.decision(for: nil as User?, 1) == .signInRequired)
        #expect(rule.decision(for: nil as Viewer?, 0) == .allowed, "code outside a request is not checked")
        #expect(rule.summary == AccessSummary(signIn: true, roles: [], conditional: true))
        #expect(Access<Int>.role("admin").summary.admits(Self.ada))
        #expect(!Access<Int>.role("admin").summary.admits(Self.bob))
        #expect(!Access<Int>.signedIn.summary.admits(nil))
        #expect(AccessSummary.everyone.admits(nil))
    }

    @Test func aChildsReadAccessIncludesItsParents() {
        let parent = AccessSummary(signIn: true, roles: ["admin"], conditional: false)
        #expect(parent.combined(with: .everyone) == parent)
        #expect(AccessSummary.everyone.combined(with: parent) == parent)
        let both = parent.combined(with: AccessSummary(signIn: true, roles: ["editor"], conditional: false))
        #expect(both.conditional, "two role lists cannot be said as one: the client asks")
    }

    @Test func theGraphRefusesReadsAndWritesAsTheRulesSay() async throws {
        let screens = [Screen("diary", title: "Diary") { viewer in DiaryViewModel(viewer: viewer) }]
        let anonymous = ViewModelGraph(screens: screens, viewer: Viewer(user: nil))
        await #expect(throws: ViewModelError.signInRequired) { try await anonymous.snapshot("diary") }
        await #expect(throws: ViewModelError.signInRequired) { try await anonymous.snapshot("diary/entry") }
        await #expect(throws: ViewModelError.signInRequired) { try await anonymous.write("diary", patch: ["title": "x"]) }

        let bob = ViewModelGraph(screens: screens, viewer: Viewer(user: Self.bob))
        let seen = try JSONValue(parsing: try await bob.snapshot("diary").bytes)
        #expect(seen.objectValue?["outputs"]?.objectValue?["reader"] == "Bob")
        #expect(seen.objectValue?["commands"]?.objectValue?["lock"]?.objectValue?["enabled"] == false, "shown disabled to him")
        await #expect(throws: ViewModelError.forbidden(reason: "you may not change 'title'")) {
            try await bob.write("diary", patch: ["title": "his"])
        }
        await #expect(throws: ViewModelError.forbidden(reason: "you may not run 'lock'")) {
            try await bob.execute("diary", command: "lock", argument: nil)
        }
        #expect(try await bob.snapshot("diary/entry").bytes.isEmpty == false)

        let ada = ViewModelGraph(screens: screens, viewer: Viewer(user: Self.ada))
        _ = try await ada.write("diary", patch: ["title": "Hers"])
        #expect(ada.board.snapshot(at: "diary") != nil, "a plain rule's snapshot is served from the board")
        _ = try await ada.snapshot("diary/entry")
        #expect(ada.board.snapshot(at: "diary/entry") == nil, "a rule that depends on the view model is checked at every read")
        _ = try await ada.execute("diary", command: "lock", argument: nil)
        await #expect(throws: ViewModelError.forbidden(reason: "you may not see DiaryEntry")) {
            try await ada.snapshot("diary/entry")
        }
    }

    @Test func aStreamOfAPageNoLongerReadableEndsAndIsPushedNothingMore() async throws {
        let screens = [Screen("diary", title: "Diary") { viewer in DiaryViewModel(viewer: viewer) }]
        let ada = ViewModelGraph(screens: screens, viewer: Viewer(user: Self.ada))
        let pushed = Recorder<EncodedSnapshot>()
        let ended = Mutex(false)
        _ = try await ada.watch("diary/entry", after: nil, send: { pushed.append($0) }, end: { ended.withLock { $0 = true } })
        #expect(pushed.versions.count == 1, "the entry as it was, while public")
        _ = try await ada.execute("diary", command: "lock", argument: nil)
        _ = try await ada.write("diary", patch: ["title": "Secret"])
        #expect(!pushed.snapshots.contains { $0.output("title") == "Secret" }, "a private entry's new title is pushed to nobody")
        #expect(ended.withLock { $0 }, "the stream ended: its client asks again, and is refused")
    }

    @MainActor @Test func theTesterPlaysAsAUser() async throws {
        let viewer = Viewer(user: Self.bob)
        let tester = ViewModelTester(DiaryViewModel(viewer: viewer), viewer: viewer) { initial in
            #expect(initial.outputs["reader"] == "Bob")
        }
        await tester.refuseWrite(["title": "his"], with: .forbidden(reason: "you may not change 'title'"))
        tester.refuse("lock", with: .forbidden(reason: "you may not run 'lock'"))
        tester.finish()
    }

    @Test func aUsersRecordsAreTheirsAlone() async throws {
        let notes = UserRecords<Memo>.inMemory("memos")
        let ada = Viewer(user: Self.ada)
        let bob = Viewer(user: Self.bob)
        #expect(notes.of(Viewer(user: nil)) == nil, "an anonymous viewer has none")
        let mine = try #require(notes.of(ada))
        _ = try await mine.add { id in Memo(id: id, text: "Ada's") }
        #expect(notes.of(ada)?.records.map(\.text) == ["Ada's"])
        #expect(notes.of(bob)?.records.isEmpty == true, "another user's records are not his")
        #expect(notes.of(Viewer(user: Self.ada)) === mine, "every session of a user shares them")
    }
}

/// A user's memo.
struct Memo: SharedRecord {
    var id: String
    var version = 1
    var text: String
}
