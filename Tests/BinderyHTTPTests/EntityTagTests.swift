import BinderyHTTP
import Testing

@Suite("Entity tags and If-Match conditions")
struct EntityTagTests {
    @Test("If-Match versions are the tags that strongly match them")
    func strongVersionsMatchStrongly() throws {
        let condition = try #require(EntityTagCondition(header: #"W/"1-2", "3", "4""#))
        #expect(condition.strongVersions == [3, 4])
        for version in try #require(condition.strongVersions) {
            #expect(condition.matchesStrongly(EntityTag(version: version)))
        }
    }

    // Found by the fuzz target: `"007"` named version 7, so `If-Match: "007"` let a write of
    // version 7 through although the tags differ (RFC 9110 §8.8.3.2: strong comparison).
    @Test("A tag that is not the exact text of a version names none", arguments: [#""007""#, #""+7""#, #""-0""#, #"" 7""#])
    func nonCanonicalNumbersAreNoVersion(header: String) throws {
        let condition = try #require(EntityTagCondition(header: header))
        #expect(condition.strongVersions == [])
        #expect(!condition.matchesStrongly(EntityTag(version: 7)))
        #expect(!condition.matchesStrongly(EntityTag(version: 0)))
    }

    // Swift's OpenAPI runtime percent-encodes header values: `"7"` arrives as `%227%22`.
    @Test(
        "A condition that parses only percent-decoded is read decoded, once",
        arguments: [
            (#"%227%22"#, EntityTagCondition.tags([EntityTag("7")])),
            (#"W%2F%227%22%2C%20%228%22"#, .tags([EntityTag("7", weak: true), EntityTag("8")])),
            ("%2A", .any),
            (#""a%22b""#, .tags([EntityTag("a%22b")])),  // valid as sent: never decoded
            ("%252237%2522", .tags([])),  // decoded once only: `%2237%22` is no tag
            ("%20", .tags([])),
        ])
    func percentEncodedConditionsAreDecodedOnce(header: String, expected: EntityTagCondition) {
        #expect(EntityTagCondition(header: header) == expected)
    }
}
