import BinderyBinding
import SeedApps
import BinderyRuntime
import BinderyStore
import Clocks
import Foundation
import Testing

@Suite("C-41 recipes over HTTP (seed 003): list, detail, two-way edit, timer, delete")
struct RecipesHTTPTests {
    @Test func theCatalogueListsTheRecipesScreenAndItsPages() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let catalogue = try await client.request("GET", "/api/views")
            let views = catalogue.json["views"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let recipes = try #require(views.first { $0["name"] == "recipes" })
            #expect(recipes["url"] == "/recipes")
            let children = recipes["children"]?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(
                children.map { $0["url"] } == ["/recipes/{id}", "/recipes/{id}/edit", "/recipes/{id}/edit/steps/{stepId}", "/recipes/{id}/timer"])
            #expect(children.map { $0["viewModel"] } == ["RecipeDetail", "RecipeEdit", "StepEdit", "RecipeTimer"])
            #expect(children[1]["parameters"] == [:])
        }
    }

    @Test func listSelectDetailAndStartTimer() async throws {
        try await TestServer.with { server in
            let client = try await server.newSession()
            let list = try await client.request("GET", "/api/views/recipes")
            #expect(list.status == 200)
            let rows = list.output("recipes")?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(rows.map { $0["id"] } == ["c41", "d76"])
            #expect(
                rows.first?["outputs"] == [
                    "name": "C-41 colour negative", "filmType": "colourNegative", "stepCount": 4, "ownerName": nil,
                    "deletable": false, "favourite": false,
                ], "a first-start recipe is nobody's, and an anonymous session may delete nothing")

            let selected = try await client.request("POST", "/api/views/recipes/commands/select", body: #"{"id": "d76"}"#)
            #expect(selected.json["navigate"] == "/recipes/d76")
            let detail = try await client.request("GET", "/api/views/recipes/d76")
            #expect(detail.output("name") == "D-76 Tri-X 400")
            #expect(detail.output("filmType") == "blackAndWhite")
            #expect(detail.output("canStartTimer") == true)
            #expect(detail.output("steps")?.arrayValue?.first?.objectValue?["durationSeconds"] == 405)
            let timer = try await client.request("POST", "/api/views/recipes/d76/commands/startTimer")
            #expect(timer.json["navigate"] == "/recipes/d76/timer")
            let page = try await client.request("GET", "/api/views/recipes/d76/timer")
            #expect(page.output("currentStepName") == "Developer")
            #expect(page.output("nextStepString") == "Stop bath")
            #expect(page.output("remainingSeconds") == 405)

            for body in [#"{"id": "nope"}"#, #"{}"#, #"{"id": 3}"#] {
                let refused = try await client.request("POST", "/api/views/recipes/commands/select", body: body)
                #expect(refused.status == 422, "\(body) -> \(refused.status)")
            }
            #expect(try await client.request("GET", "/api/views/recipes/nope").status == 404)
            #expect(try await client.request("GET", "/api/views/recipes/c41/other").status == 404)
        }
    }

    @Test func addNavigatesToTheEditorAndEditsAreWrittenThrough() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession()
            let added = try await client.request(
                "POST", "/api/views/recipes/commands/add", headers: ["Prefer": "wait=10"], body: #"{"name": "E-6 slide"}"#
            )
            #expect(added.status == 200)
            let target = try #require(added.json["navigate"]?.stringValue)
            #expect(target.hasPrefix("/recipes/r") && target.hasSuffix("/edit"))
            let edit = "/api/views" + target

            let patched = try await client.request(
                "PATCH", edit, body: #"{"blurb": "Six baths", "filmType": "colourSlide"}"#, contentType: "application/merge-patch+json"
            )
            #expect(patched.status == 200)
            #expect(patched.json["inputs"] == ["name": "E-6 slide", "blurb": "Six baths", "filmType": "colourSlide"])
            let step = try await client.request(
                "POST", edit + "/commands/addStep", headers: ["Prefer": "wait=10"],
                body: #"{"name": "First developer", "durationSeconds": 390, "temperatureCelsius": 38}"#
            )
            #expect(step.status == 200)
            #expect(step.output("steps")?.arrayValue?.count == 1)
            let nulled = try await client.request("PATCH", edit, body: #"{"filmType": null}"#)
            #expect(nulled.input("filmType") == "colourNegative")

            let detail = try await client.request("GET", "/api/views" + String(target.dropLast("/edit".count)))
            #expect(detail.output("blurb") == "Six baths")
            #expect(detail.output("canStartTimer") == true)
        }
    }

    @Test func badValuesAre422NamingTheFieldAndChangeNothing() async throws {
        try await TestServer.with { server in
            let client = try await server.signedInSession()
            let before = try await client.request("GET", "/api/views/recipes/c41/edit")
            let empty = try await client.request("PATCH", "/api/views/recipes/c41/edit", body: #"{"name": " "}"#)
            #expect(empty.status == 422)
            #expect(empty.json["field"] == "name")
            let film = try await client.request("PATCH", "/api/views/recipes/c41/edit", body: #"{"filmType": "polaroid"}"#)
            #expect(film.status == 422)
            #expect(film.json["field"] == "filmType")
            for body in [
                #"{"name": "Hot", "durationSeconds": 10, "temperatureCelsius": 120}"#, #"{"name": "No time"}"#,
                #"{"name": "Zero", "durationSeconds": 0}"#,
            ] {
                let refused = try await client.request("POST", "/api/views/recipes/c41/edit/commands/addStep", body: body)
                #expect(refused.status == 422, "\(body) -> \(refused.status)")
            }
            let move = try await client.request("POST", "/api/views/recipes/c41/edit/commands/moveStep", body: #"{"from": 0, "to": 9}"#)
            #expect(move.status == 422)
            let after = try await client.request("GET", "/api/views/recipes/c41/edit")
            #expect(after.version == before.version)
            #expect(after.json["inputs"] == before.json["inputs"])
        }
    }

    @Test func ifMatchProtectsAnEditAcrossSessions() async throws {
        try await TestServer.with { server in
            let mine = try await server.signedInSession(as: .lilei)
            let theirs = try await server.signedInSession(as: .hanmeimei)
            let seen = try await mine.request("GET", "/api/views/recipes/c41/edit")
            let etag = try #require(seen.header("ETag"))
            let other = try await theirs.request("PATCH", "/api/views/recipes/c41/edit", body: #"{"name": "Theirs"}"#)
            #expect(other.status == 200)
            let stale = try await mine.request("PATCH", "/api/views/recipes/c41/edit", headers: ["If-Match": etag], body: #"{"name": "Mine"}"#)
            #expect(stale.status == 412)
            let current = try await mine.request("GET", "/api/views/recipes/c41/edit")
            #expect(current.input("name") == "Theirs")
            let fresh = try await mine.request(
                "PATCH", "/api/views/recipes/c41/edit", headers: ["If-Match": try #require(current.header("ETag"))], body: #"{"name": "Mine"}"#
            )
            #expect(fresh.status == 200)
            #expect(fresh.input("name") == "Mine")
        }
    }

    @Test func anEditInOneSessionIsPushedToAnotherLive() async throws {
        try await TestServer.with { server in
            let writer = try await server.signedInSession()
            let watcher = try await server.newSession()  // anonymous: reads, and sees edits live
            let stream = try await watcher.events("/api/views/recipes/c41/events")
            defer { stream.close() }
            let first = try await stream.next(where: { _ in true })
            #expect(first.output("name") == "C-41 colour negative")
            let patched = try await writer.request("PATCH", "/api/views/recipes/c41/edit", body: #"{"name": "C-41 press kit"}"#)
            #expect(patched.status == 200)
            let pushed = try await stream.next(where: { $0.output("name") == "C-41 press kit" })
            #expect((pushed.id ?? 0) > (first.id ?? 0))
            let list = try await watcher.request("GET", "/api/views/recipes")
            #expect(list.output("recipes")?.arrayValue?.first?.objectValue?["outputs"]?.objectValue?["name"] == "C-41 press kit")
        }
    }

    @Test func aDeletedRecipeStaysOnItsPagesWithWhoDeletedItUntilRestored() async throws {
        try await TestServer.with { server in
            // d76 is a first-start recipe: only an administrator deletes or restores it. The
            // reader is another session of the same administrator.
            let deleter = try await server.signedInSession(as: .lilei)
            let reader = try await server.signedInSession(as: .lilei)
            let stream = try await reader.events("/api/views/recipes/d76/edit/events")
            defer { stream.close() }
            _ = try await stream.next(where: { _ in true })
            let deleted = try await deleter.request(
                "POST", "/api/views/recipes/commands/delete", headers: ["Prefer": "wait=10"], body: #"{"id": "d76"}"#
            )
            #expect(deleted.status == 200)
            let shown = try await stream.next(where: { $0.output("isDeleted") == true })
            #expect(shown.output("deletedBy") == "Li Lei", "the deleter's presence name: its user's")
            let edit = try await reader.request("GET", "/api/views/recipes/d76/edit")
            #expect(edit.status == 200)
            #expect(edit.json["inputs"]?.objectValue?["name"] == "D-76 Tri-X 400")
            let firstStep = edit.output("steps")?.arrayValue?.first?.objectValue?["inputs"]?.objectValue
            #expect(firstStep?["durationSeconds"] == 405, "the steps as they were")
            #expect(edit.json["commands"]?.objectValue?["addStep"]?.objectValue?["enabled"] == false)
            #expect((edit.output("deletedBy")?.stringValue ?? "").isEmpty == false)
            #expect(try await reader.request("GET", "/api/views/recipes/d76/timer").status == 404)
            let typed = try await reader.request(
                "POST", "/api/views/recipes/d76/edit/inputs/name/ops", body: #"{"id": "a", "base": 1, "ops": [{"p": 0, "si": "x"}]}"#
            )
            #expect(typed.status == 404)
            let again = try await deleter.request("POST", "/api/views/recipes/commands/delete", body: #"{"id": "d76"}"#)
            #expect(again.status == 422)

            let restored = try await reader.request(
                "POST", "/api/views/recipes/d76/edit/commands/restore", headers: ["Prefer": "wait=10"]
            )
            #expect(restored.status == 200)
            let list = try await deleter.request("GET", "/api/views/recipes")
            #expect(list.output("recipes")?.arrayValue?.count == 2)
            #expect(try await deleter.request("GET", "/api/views/recipes/d76").output("isDeleted") == false)
        }
    }

    @Test func aFailedCommitIs503AndChangesNothing() async throws {
        let store = FailingStore()
        try await TestServer.with(store: store) { server in
            let client = try await server.signedInSession()
            let before = try await client.request("GET", "/api/views/recipes/c41/edit")
            #expect(before.output("recipeVersion") == 1)
            store.failCommits(true)
            let refused = try await client.request("PATCH", "/api/views/recipes/c41/edit", body: #"{"name": "Lost"}"#)
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            let step = try await client.request(
                "POST", "/api/views/recipes/c41/edit/commands/addStep", headers: ["Prefer": "wait=10"],
                body: #"{"name": "Lost", "durationSeconds": 5}"#
            )
            #expect(step.status == 503)
            store.failCommits(false)
            let after = try await client.request("GET", "/api/views/recipes/c41")
            #expect(after.output("name") == "C-41 colour negative")
            #expect(after.output("steps")?.arrayValue?.count == 4)
            #expect(after.output("recipeVersion") == 1)
        }
    }

    @Test func recipesSurviveARestartOnSQLite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bindery.sqlite").path
        let first = try SQLiteStore(path: path)
        try await TestServer.with(store: first) { server in
            let client = try await server.signedInSession(as: .lilei)  // d76 is nobody's: an administrator deletes it
            let patched = try await client.request("PATCH", "/api/views/recipes/c41/edit", body: #"{"blurb": "Kept"}"#)
            #expect(patched.status == 200)
            let deleted = try await client.request(
                "POST", "/api/views/recipes/commands/delete", headers: ["Prefer": "wait=10"], body: #"{"id": "d76"}"#
            )
            #expect(deleted.status == 200)
        }
        let second = try SQLiteStore(path: path)
        // The pseudo-session holding the recipes is never purged nor evicted before real ones.
        #expect(try await second.purgeSessions(idleSince: Date()).contains(StoreRecordStorage.session) == false)
        try await TestServer.with(store: second) { server in
            let client = try await server.newSession()
            let list = try await client.request("GET", "/api/views/recipes")
            #expect(list.output("recipes")?.arrayValue?.map { $0.objectValue?["id"] } == ["c41"])
            let detail = try await client.request("GET", "/api/views/recipes/c41")
            #expect(detail.output("blurb") == "Kept")
            #expect(detail.output("recipeVersion") == 2)
        }
    }

    @Test func theTimerCountsDownOnTheServerAndIsPushed() async throws {
        let clock = TestClock()
        let quick = Recipe(id: "quick", name: "Quick", steps: [Step(name: "Dev", durationSeconds: 2), Step(name: "Fix", durationSeconds: 1)])
        try await TestServer.with(clock: clock, recipes: [quick]) { server in
            let client = try await server.newSession()
            let stream = try await client.events("/api/views/recipes/quick/timer/events")
            defer { stream.close() }
            _ = try await stream.next(where: { $0.output("remainingSeconds") == 2 })
            let started = try await client.request("POST", "/api/views/recipes/quick/timer/commands/start")
            #expect(started.status == 202)
            #expect(started.output("running") == true)
            // Virtual seconds pass while the test reads the pushed versions (a short real pause
            // between advances lets the server's tasks run without a busy loop).
            let ticker = Task {
                while !Task.isCancelled {
                    await clock.advance(by: .milliseconds(250))
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            defer { ticker.cancel() }
            var seen: [[Int]] = []
            let last = try await stream.next { event in
                if let index = event.output("currentStepIndex")?.intValue, let left = event.output("remainingSeconds")?.intValue,
                    seen.last != [index, left]
                {
                    seen.append([index, left])
                }
                return event.output("running") == false
            }
            #expect(seen == [[0, 2], [0, 1], [1, 1], [1, 0]])
            #expect(last.output("currentStepName") == "Fix")
            #expect(last.output("nextStepString") == "")
        }
    }

    @Test func aTimerKeepsItsStepAndSecondsAcrossARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bindery.sqlite").path
        let clock = TestClock()
        let first = try SQLiteStore(path: path)
        let token = try await TestServer.with(clock: clock, store: first) {
            server in
            let client = try await server.newSession()
            let next = try await client.request("POST", "/api/views/recipes/c41/timer/commands/next")
            #expect(next.output("currentStepName") == "Blix")
            let started = try await client.request("POST", "/api/views/recipes/c41/timer/commands/start")
            #expect(started.status == 202)
            let stream = try await client.events("/api/views/recipes/c41/timer/events")
            defer { stream.close() }
            let ticker = Task {
                while !Task.isCancelled {
                    await clock.advance(by: .milliseconds(250))
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            defer { ticker.cancel() }
            _ = try await stream.next(where: { $0.output("remainingSeconds") == 388 })
            return client.token
        }
        let second = try SQLiteStore(path: path)
        try await TestServer.with(store: second) { server in
            let client = HTTPTestClient(port: server.port, token: token)
            let timer = try await client.request("GET", "/api/views/recipes/c41/timer")
            #expect(timer.status == 200)
            #expect(timer.output("currentStepIndex") == 1)
            #expect(timer.output("running") == false)
            // The countdown was cut by the stop: it comes back paused where it was, never earlier.
            let left = timer.output("remainingSeconds")?.intValue ?? 0
            #expect((380...388).contains(left), "\(left)")
            let start = timer.json["commands"]?.objectValue?["start"]?.objectValue
            #expect(start?["enabled"] == true)
            #expect(start?["error"]?.objectValue?["message"]?.stringValue?.hasPrefix("Interrupted") == true)
        }
    }
}
