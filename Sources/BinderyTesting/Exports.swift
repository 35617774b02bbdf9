// `import BinderyTesting` gives a test the tester and a clock it advances by hand (swift-clocks'
// `TestClock`): deferred work waits on it, never in real time.
@_exported import BinderyRuntime
@_exported import class Clocks.TestClock
