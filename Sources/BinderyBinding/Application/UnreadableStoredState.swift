/// What a server does at start with stored state its declarations cannot read: state whose
/// shape changed with no migration to read it (a renamed member, a changed type). Such state is
/// never dropped and never written over; `bindery check-store` finds it before a deploy.
public enum UnreadableStoredState: String, Sendable, CaseIterable {
    /// The server does not start: it prints one line per view model or collection concerned,
    /// naming the member, the stored version and the migration to add.
    case refuseToStart = "refuse"
    /// The server starts with that state set aside: moved out of the way byte for byte (the
    /// sessions concerned start that view model afresh), logged at error, counted in `/metrics`
    /// (`bindery_stored_states_set_aside`), and put back by a later start whose declarations read
    /// it (one that adds the migration) where nothing was stored since.
    case setAside = "set-aside"
}
