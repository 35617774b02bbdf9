import Bindery
import BinderyTesting
import Testing

/// The guest list's tests (the article "Testing"): its rules and refusals, a command that fails, a
/// restart, a child page.
@MainActor
struct GuestListTests {
    let fine = Mailer { _ in }

    @Test func invitesWhileSeatsAreLeftAndRefusesAGuestTwice() async throws {
        let list = ViewModelTester(GuestListViewModel(mailer: fine))
        try list.execute("invite", ["name": "Ada"]) {
            $0.outputs["guests"]?.append(["id": "g1", "name": "Ada", "arrived": false])
            $0.outputs["seatsLeft"] = 2
            $0.commands["remind"]?.enabled = true
        }
        list.refuse("invite", ["name": "Ada"], with: .invalidArgument(command: "invite", reason: "Ada is invited already"))
        await list.refuseWrite(["seats": 0], with: .invalidInput(name: "seats", reason: "must be at least 1"))
        try await list.write(["seats": 1]) {
            $0.inputs["seats"] = 1
            $0.outputs["seatsLeft"] = 0
            $0.commands["invite"]?.enabled = false
        }
        list.refuse("invite", ["name": "Grace"], with: .commandDisabled(name: "invite"))
        list.finish()
    }

    @Test func refusesAnArgumentOutsideItsSchemaAndASeatCountBelowTheGuests() async throws {
        let list = ViewModelTester(GuestListViewModel(mailer: fine))
        list.refuse("invite", ["name": "  "], with: .invalidArgument(command: "invite", reason: #""name" does not match \S"#))
        list.refuse("invite", ["guest": "Ada"], with: .invalidArgument(command: "invite", reason: #"missing "name""#))
        for (number, name) in ["Ada", "Grace"].enumerated() {
            try list.execute("invite", ["name": .string(name)]) {
                $0.outputs["guests"]?.append(["id": .string("g\(number + 1)"), "name": .string(name), "arrived": false])
                $0.outputs["seatsLeft"] = .int(2 - number)
                $0.commands["remind"]?.enabled = true
            }
        }
        await list.refuseWrite(["seats": 1], with: .invalidInput(name: "seats", reason: "must be at least 2, the guests invited"))
        list.finish()
    }

    @Test func remindsTheGuestsWhoHaveNotArrived() async throws {
        let list = ViewModelTester(GuestListViewModel(mailer: fine))
        try list.execute("invite", ["name": "Ada"]) {
            $0.outputs["guests"]?.append(["id": "g1", "name": "Ada", "arrived": false])
            $0.outputs["seatsLeft"] = 2
            $0.commands["remind"]?.enabled = true
        }
        try list.execute("remind") {
            $0.commands["remind"]?.executing = true
            $0.commands["remind"]?.enabled = false
        }
        await list.settle {
            $0.outputs["reminded"] = 1
            $0.commands["remind"]?.executing = false
            $0.commands["remind"]?.enabled = true
        }
        list.finish()
    }

    @Test func aFailedReminderIsTheCommandsError() async throws {
        let failure = ExecutionFailure(message: "The mail server did not answer.", origin: .upstream)
        let list = ViewModelTester(GuestListViewModel(mailer: Mailer { _ in throw failure }))
        try list.execute("invite", ["name": "Ada"]) {
            $0.outputs["guests"]?.append(["id": "g1", "name": "Ada", "arrived": false])
            $0.outputs["seatsLeft"] = 2
            $0.commands["remind"]?.enabled = true
        }
        try list.execute("remind") {
            $0.commands["remind"]?.executing = true
            $0.commands["remind"]?.enabled = false
        }
        await list.settle {
            $0.commands["remind"]?.executing = false
            $0.commands["remind"]?.enabled = true
            $0.commands["remind"]?.error = failure.json
        }
        list.finish()
    }

    @Test func comesBackAfterARestart() async throws {
        let list = ViewModelTester(GuestListViewModel(mailer: fine))
        try list.execute("invite", ["name": "Ada"]) {
            $0.outputs["guests"]?.append(["id": "g1", "name": "Ada", "arrived": false])
            $0.outputs["seatsLeft"] = 2
            $0.commands["remind"]?.enabled = true
        }
        #expect(
            list.persistedState == [
                "title": "Party", "seats": 3, "guests": [["id": "g1", "name": "Ada", "arrived": false]],
                "lastID": 1, "reminded": 0,
            ])
        let restarted = try ViewModelTester(GuestListViewModel(mailer: fine), restoring: list.persistedState)
        #expect(restarted.state == list.state)
        list.finish()
        restarted.finish()
    }

    @Test func aGuestsPageIsAChildOfTheList() async throws {
        let model = GuestListViewModel(mailer: fine)
        let list = ViewModelTester(model)
        try list.execute("invite", ["name": "Ada"]) {
            $0.outputs["guests"]?.append(["id": "g1", "name": "Ada", "arrived": false])
            $0.outputs["seatsLeft"] = 2
            $0.commands["remind"]?.enabled = true
        }
        #expect(model.page(id: "g2") == nil)
        let page = try #require(model.page(id: "g1"))
        let guest = ViewModelTester(page, path: "guestlist/guests/g1") {
            #expect($0.outputs == ["name": "Ada", "arrived": false])
        }
        try guest.execute("arrive") {
            $0.outputs["arrived"] = true
            $0.commands["arrive"]?.enabled = false
        }
        await list.settle {
            $0.outputs["guests"]?[0]?["arrived"] = true
            $0.commands["remind"]?.enabled = false
        }
        guest.finish()
        list.finish()
    }
}
