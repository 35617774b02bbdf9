import Bindery
import Counter

// `swift run CounterServer --port 8080 --store sqlite:counter.sqlite`; `--help` lists every option.
await BinderyApp(screens: [Screen("counter", title: "Counter") { CounterViewModel() }]).main()
