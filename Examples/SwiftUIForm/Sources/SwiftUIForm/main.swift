#if canImport(SwiftUI)
import BinderyClient
import Foundation
import SeedClients
import SwiftUI

/// The app: one window, a new session on the server at `BINDERY_URL` (default
/// `http://127.0.0.1:8080`, what `./scripts/run` serves), and the form on it.
struct SwiftUIFormApp: App {
    @State private var form: FormClient?
    @State private var failure: String?

    var body: some Scene {
        WindowGroup("Login form") {
            Group {
                if let form {
                    FormView(form: form)
                } else if let failure {
                    Text("No session: \(failure)").padding()
                } else {
                    ProgressView()
                }
            }
            .task {
                let url = URL(string: ProcessInfo.processInfo.environment["BINDERY_URL"] ?? "http://127.0.0.1:8080")!
                do {
                    form = FormClient(session: try await BinderySession.create(at: url))
                } catch {
                    failure = "\(error)"
                }
            }
        }
    }
}

SwiftUIFormApp.main()
#else
print("SwiftUIForm needs SwiftUI (macOS 15 or iOS 18): run it on a Mac.")
#endif
