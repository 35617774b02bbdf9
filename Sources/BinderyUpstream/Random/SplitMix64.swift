/// A small seeded random number generator (SplitMix64, Steele, Lea and Flood 2014): the same
/// seed gives the same sequence on every platform and Swift version.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable, Hashable {
    /// The generator's state, advanced by a fixed odd constant on each draw.
    private var state: UInt64

    /// Creates a generator whose sequence is determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<1` with 53 random bits, computed here rather than by the standard
    /// library so that sequences stay the same across Swift versions.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
