#if canImport(SwiftUI)
import BinderyClient
import SeedClients
import SwiftUI

/// The seed's login form (seed 000 Demo 2) bound to the server's view model: every keystroke is
/// written (coalesced PATCHes), the server validates, and its outputs colour and label the fields.
struct FormView: View {
    /// The generated client of the `form` screen.
    let form: FormClient

    var body: some View {
        Form {
            Section("Phone") {
                TextField("Phone number", text: Binding(get: { form.phone }, set: { form.phone = $0 }))
                    .foregroundStyle(color(form.phoneColor))
                validity(form.phoneValid, valid: "A valid phone number", invalid: "A mobile number: 11 digits, starting with 1")
            }
            Section("Password") {
                SecureField("Password", text: Binding(get: { form.password }, set: { form.password = $0 }))
                    .foregroundStyle(color(form.passwordColor))
                validity(form.passwordValid, valid: "A valid password", invalid: "At least 8 characters")
            }
            Section {
                Text(form.output)
                Button("Clear") {
                    Task { try? await form.clear() }  // a refusal shows as the problem below
                }
                .disabled(!form.canClear)
            }
            if let problem = form.remote.problem {
                Section("Problem") {
                    Label(problem.detail ?? problem.title, systemImage: "exclamationmark.triangle")
                        .foregroundStyle(.red)
                    Button("Dismiss") { form.remote.dismissProblem() }
                }
            }
        }
        .formStyle(.grouped)
        .overlay(alignment: .bottom) {
            if form.remote.connection != .live {
                Text("Connecting…").font(.caption).foregroundStyle(.secondary).padding()
            }
        }
        .task { await form.remote.follow() }  // the snapshot follows the event stream while shown
    }

    /// A field's validity as the server computed it.
    private func validity(_ isValid: Bool, valid: String, invalid: String) -> some View {
        Label(isValid ? valid : invalid, systemImage: isValid ? "checkmark.circle.fill" : "xmark.circle")
            .foregroundStyle(isValid ? Color.green : Color.secondary)
            .font(.footnote)
    }

    /// The server's colour name (`red` or `black`) as a SwiftUI colour.
    private func color(_ name: String) -> Color {
        name == "red" ? .red : .primary
    }
}
#endif
