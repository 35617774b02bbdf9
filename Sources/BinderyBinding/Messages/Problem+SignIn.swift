import BinderyHTTP

extension Problem {
    /// This failed sign-in command's answer: titled as the sign-in route's failures are, its log
    /// line saying whether the sign-in was refused or could not be checked.
    var signInFailure: Response {
        var problem = self
        if status == .unprocessableContent { problem.title = "Sign-in failed" }
        if status == .badGateway { problem.title = "Sign-in unavailable" }
        var response = problem.response
        response.logMetadata["auth.sign_in"] = status == .unprocessableContent ? "refused" : "unavailable"
        return response
    }
}
