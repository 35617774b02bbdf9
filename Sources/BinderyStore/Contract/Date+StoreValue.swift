import Foundation

/// Dates in SQL columns: seconds since the reference date, which round-trips a `Date` exactly.
extension Date {
    var storeValue: Double { timeIntervalSinceReferenceDate }

    init(storeValue: Double) {
        self.init(timeIntervalSinceReferenceDate: storeValue)
    }
}
