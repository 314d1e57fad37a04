import Foundation
import Testing
import SimKernel
import SimJSON

@Suite("JSON string escaping") struct JSONStringTests {
    @Test func escapesOnlyWhatJSONRequires() {
        #expect(JSONString.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONString.quoted("\n\r\t\u{01}\u{1f}") == #""\n\r\t\u0001\u001f""#)
        #expect(JSONString.quoted("/é€") == "\"/é€\"")   // slash and non-ASCII written as is
    }

    /// Whatever the string, Foundation's parser reads back exactly the original.
    @Test func roundTripsThroughFoundation() throws {
        var rng = Xoshiro256StarStar(seed: 11)
        for _ in 0..<500 {
            let scalars = (0..<rng.int(in: 0...20)).compactMap { _ in
                Unicode.Scalar(UInt32(rng.nextInt(below: 3) == 0 ? rng.nextInt(below: 0x20) : rng.int(in: 0x20...0x2FF)))
            }
            let s = String(String.UnicodeScalarView(scalars))
            let data = Data(("[" + JSONString.quoted(s) + "]").utf8)
            let back = try JSONSerialization.jsonObject(with: data) as? [String]
            #expect(back == [s])
        }
    }
}
