import Foundation
import Synchronization

/// Encoded bytes that many sessions hold with the same content, kept once per process.
///
/// Sessions that did the same things show the same data: every session that loaded the list in
/// the same city from the same upstream fixtures holds the same 14 KB snapshot and the same
/// persisted state, byte for byte. ``intern(_:)`` hands back a buffer already held elsewhere when
/// the content is equal (an array shares its storage when copied), so each session keeps a
/// reference instead of its own copy. Equality is checked byte for byte: a hit is the same value.
///
/// The pool remembers a few recent buffers (``slotCount``), replaced by the clock algorithm so
/// that a buffer still being matched stays; what it keeps alive is bounded by its slots and
/// ``maximumCount``. Buffers below ``minimumCount`` are not worth a hash and a lock.
final class SharedBytes: Sendable {
    /// The process-wide pool the runtime interns snapshots and committed state in.
    static let pool = SharedBytes()

    private struct Entry {
        let hash: Int
        let bytes: [UInt8]
        var recentlyUsed: Bool
    }

    private struct Slots {
        var entries: [Entry?]
        var hand = 0
    }

    /// How many buffers the pool remembers.
    let slotCount: Int
    /// The smallest buffer worth interning.
    let minimumCount: Int
    /// The largest buffer the pool keeps (it never keeps more than `slotCount` of these alive).
    let maximumCount: Int
    private let slots: Mutex<Slots>

    /// A pool of `slotCount` buffers of `minimumCount...maximumCount` bytes.
    init(slotCount: Int = 32, minimumCount: Int = 256, maximumCount: Int = 128 * 1024) {
        precondition(slotCount > 0, "a pool needs a slot")
        self.slotCount = slotCount
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
        self.slots = Mutex(Slots(entries: Array(repeating: nil, count: slotCount)))
    }

    /// A buffer equal to `bytes`: one the pool already holds if it has an equal one, else `bytes`
    /// itself (remembered for the next caller when its size is in range).
    func intern(_ bytes: [UInt8]) -> [UInt8] {
        guard (minimumCount...maximumCount).contains(bytes.count) else { return bytes }
        let hash = bytes.withUnsafeBytes { raw in
            var hasher = Hasher()
            hasher.combine(bytes: raw)
            return hasher.finalize()
        }
        return slots.withLock { slots in
            for index in slots.entries.indices {
                guard let entry = slots.entries[index], entry.hash == hash, Self.equal(entry.bytes, bytes) else { continue }
                slots.entries[index]?.recentlyUsed = true
                return entry.bytes
            }
            // The clock: a slot used since the hand last passed gets one more round.
            while let entry = slots.entries[slots.hand], entry.recentlyUsed {
                slots.entries[slots.hand]?.recentlyUsed = false
                slots.hand = (slots.hand + 1) % slotCount
            }
            slots.entries[slots.hand] = Entry(hash: hash, bytes: bytes, recentlyUsed: false)
            slots.hand = (slots.hand + 1) % slotCount
            return bytes
        }
    }

    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }
}
