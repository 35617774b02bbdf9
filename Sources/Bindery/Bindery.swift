// `import Bindery` gives a developer everything to declare view models and serve them: the
// declarations and runtime (BinderyRuntime), the server, its configuration and shared models
// (BinderyBinding), requests and responses for routes of their own (BinderyHTTP), store locations
// (BinderyStore), and the command line (this module). The modules behind it are not imported
// directly.
@_exported import BinderyBinding
@_exported import BinderyHTTP
@_exported import BinderyRuntime
@_exported import BinderyStore
@_exported import struct HTTPTypes.HTTPFields
@_exported import struct HTTPTypes.HTTPRequest
@_exported import struct HTTPTypes.HTTPResponse
@_exported import struct Logging.Logger
