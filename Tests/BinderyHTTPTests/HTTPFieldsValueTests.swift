import BinderyHTTP
import HTTPTypes
import Testing

@Suite("A header's value without a join")
struct HTTPFieldsValueTests {
    @Test func aFieldThereOnceIsItsValueAndAnAbsentOneIsNil() {
        let fields: HTTPFields = [.authorization: "Bearer abc", .accept: "application/json"]
        #expect(fields.value(.authorization) == "Bearer abc")
        #expect(fields.value(.ifNoneMatch) == nil)
    }

    @Test func repeatedFieldsAreJoinedAsTheSubscriptJoinsThem() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .ifNoneMatch, value: "\"1\""))
        fields.append(HTTPField(name: .accept, value: "text/html"))
        fields.append(HTTPField(name: .ifNoneMatch, value: "\"2\""))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        #expect(fields.value(.ifNoneMatch) == "\"1\", \"2\"")
        #expect(fields.value(.ifNoneMatch) == fields[.ifNoneMatch])
        #expect(fields.value(.cookie) == "a=1; b=2")
    }
}
