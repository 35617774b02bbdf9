/// The upstream's response envelope, `{"data": ...}` as in seed 000's JSON files.
///
/// A body without `data` fails to decode (`keyNotFound`), which the network layer reports as
/// seed 000's "Error JSON Data".
struct ResponseEnvelope<Payload: Decodable>: Decodable {
    /// The payload: an array of models for lists, one model for details.
    var data: Payload
}
