/// The rules of the photo gallery (seed 004), kept apart from the view models' wiring.
public enum GalleryRules {
    /// The index a path segment names: a canonical non-negative decimal integer below `count`
    /// (`"3"`, not `"03"`, `"+3"` or `"-1"`), so each photo has exactly one path.
    public static func index(inSegment segment: String, count: Int) -> Int? {
        guard let index = Int(segment), String(index) == segment else { return nil }
        return contains(index, count: count) ? index : nil
    }

    /// Whether `index` names one of `count` photos (seed 004's `photoModelAtIndex:` bounds).
    public static func contains(_ index: Int, count: Int) -> Bool {
        index >= 0 && index < count
    }
}
