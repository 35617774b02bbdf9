// Snapshots, inputs and outputs are `JSONValue`s, the same type the server's declarations use: a
// client imports only `BinderyClient` (this one type of BinderyRuntime comes with it, nothing else).
@_exported import enum BinderyRuntime.JSONValue
