import Foundation
import Synchronization

/// Every session's form by bearer token, behind one lock.
final class Sessions: Sendable {
    private let forms = Mutex<[String: Form]>([:])

    func create() -> String {
        let token = (0..<4).map { _ in String(format: "%016llx", UInt64.random(in: .min ... .max)) }.joined()
        forms.withLock { $0[token] = Form() }
        return token
    }

    func form(_ token: String) -> Form? {
        forms.withLock { $0[token] }
    }

    /// Applies `patch` and bumps the version when an input changed; nil for an unknown token.
    func apply(_ patch: FormPatch, to token: String) -> Form? {
        forms.withLock { forms in
            guard var form = forms[token] else { return nil }
            let before = (form.phone, form.password)
            if let phone = patch.phone { form.phone = phone }
            if let password = patch.password { form.password = password }
            if before != (form.phone, form.password) { form.version += 1 }
            forms[token] = form
            return form
        }
    }
}
