import BinderyFeatures
import BinderyUpstream

extension BinderyApplication {
    /// The OpenAPI document a server with `configuration` serves at `/openapi.json`, as JSON
    /// text, without starting one (`bindery openapi`).
    public static func openAPIDocument(configuration: BinderyConfiguration) -> [UInt8] {
        let screens = FeatureScreens.all(upstream: UpstreamProvider(settings: configuration.upstream))
        return OpenAPIDocument(screens: screens, configuration: configuration).encoded
    }
}
