import Foundation

/// A minimal PNG reader for tests (8-bit RGB or RGBA, not interlaced): enough to read back
/// what `rsvg-convert` draws. Decompression is a small DEFLATE decoder after zlib's puff.c,
/// since the toolchain has no zlib API on Linux.
struct PNGImage {
    var width: Int, height: Int
    /// RGBA, row-major.
    var pixels: [UInt8]

    struct Failure: Error, CustomStringConvertible { var description: String }

    func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 4
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }

    init(data: [UInt8]) throws {
        guard data.count > 8, data[0..<8].elementsEqual([137, 80, 78, 71, 13, 10, 26, 10]) else { throw Failure(description: "not a PNG") }
        var pos = 8, idat: [UInt8] = [], w = 0, h = 0, colorType = 0
        while pos + 8 <= data.count {
            let len = data[pos..<(pos + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(pos + 4)..<(pos + 8)], as: UTF8.self)
            let body = Array(data[(pos + 8)..<(pos + 8 + len)])
            switch type {
            case "IHDR":
                w = body[0..<4].reduce(0) { $0 << 8 | Int($1) }; h = body[4..<8].reduce(0) { $0 << 8 | Int($1) }
                colorType = Int(body[9])
                guard body[8] == 8, colorType == 6 || colorType == 2, body[12] == 0 else {
                    throw Failure(description: "unsupported PNG (depth \(body[8]), color type \(colorType), interlace \(body[12]))")
                }
            case "IDAT": idat += body
            default: break
            }
            pos += 12 + len
        }
        var inflater = Inflater(Array(idat.dropFirst(2)))
        let raw = try inflater.inflate()
        let channels = colorType == 6 ? 4 : 3, stride = w * channels
        guard raw.count >= h * (stride + 1) else { throw Failure(description: "short image data") }
        var out = [UInt8](repeating: 255, count: w * h * 4), prev = [UInt8](repeating: 0, count: stride)
        for y in 0..<h {
            let filter = raw[y * (stride + 1)]
            var line = Array(raw[(y * (stride + 1) + 1)..<((y + 1) * (stride + 1))])
            for i in 0..<stride {
                let a = i >= channels ? Int(line[i - channels]) : 0, b = Int(prev[i]), c = i >= channels ? Int(prev[i - channels]) : 0
                let add: Int
                switch filter {
                case 0: add = 0
                case 1: add = a
                case 2: add = b
                case 3: add = (a + b) / 2
                default:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    add = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                }
                line[i] = UInt8((Int(line[i]) + add) & 255)
            }
            for x in 0..<w { for k in 0..<channels { out[(y * w + x) * 4 + k] = line[x * channels + k] } }
            prev = line
        }
        width = w; height = h; pixels = out
    }
}

/// DEFLATE (RFC 1951) decoder: stored, fixed and dynamic Huffman blocks.
struct Inflater {
    private let input: [UInt8]
    private var pos = 0, bit = 0
    private var out: [UInt8] = []
    init(_ input: [UInt8]) { self.input = input }

    private mutating func bits(_ n: Int) throws -> Int {
        var v = 0
        for i in 0..<n {
            guard pos < input.count else { throw PNGImage.Failure(description: "deflate: out of input") }
            v |= ((Int(input[pos]) >> bit) & 1) << i
            bit += 1
            if bit == 8 { bit = 0; pos += 1 }
        }
        return v
    }

    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16), symbols: [Int] = []
        init(_ lengths: [Int]) {
            for l in lengths { counts[l] += 1 }
            counts[0] = 0
            var offs = [Int](repeating: 0, count: 16)
            for l in 1..<16 { offs[l] = offs[l - 1] + counts[l - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (s, l) in lengths.enumerated() where l != 0 { symbols[offs[l]] = s; offs[l] += 1 }
        }
    }

    private mutating func decode(_ h: Huffman) throws -> Int {
        var code = 0, first = 0, index = 0
        for len in 1..<16 {
            code |= try bits(1)
            let count = h.counts[len]
            if code - count < first { return h.symbols[index + code - first] }
            index += count; first += count; first <<= 1; code <<= 1
        }
        throw PNGImage.Failure(description: "deflate: bad code")
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                           4097, 6145, 8193, 12289, 16385, 24577]
    static let distExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    mutating func inflate() throws -> [UInt8] {
        var last = 0
        repeat {
            last = try bits(1)
            switch try bits(2) {
            case 0: try stored()
            case 1: try codes(Huffman((0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }), Huffman([Int](repeating: 5, count: 30)))
            case 2: let (l, d) = try dynamicTables(); try codes(l, d)
            default: throw PNGImage.Failure(description: "deflate: bad block type")
            }
        } while last == 0
        return out
    }

    private mutating func stored() throws {
        if bit != 0 { bit = 0; pos += 1 }
        guard pos + 4 <= input.count else { throw PNGImage.Failure(description: "deflate: short stored block") }
        let len = Int(input[pos]) | Int(input[pos + 1]) << 8
        pos += 4
        out += input[pos..<(pos + len)]
        pos += len
    }

    private mutating func dynamicTables() throws -> (Huffman, Huffman) {
        let nlen = try bits(5) + 257, ndist = try bits(5) + 1, ncode = try bits(4) + 4
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var cl = [Int](repeating: 0, count: 19)
        for i in 0..<ncode { cl[order[i]] = try bits(3) }
        let clh = Huffman(cl)
        var lengths: [Int] = []
        while lengths.count < nlen + ndist {
            let sym = try decode(clh)
            switch sym {
            case 0..<16: lengths.append(sym)
            case 16: let prev = lengths.last ?? 0; lengths += [Int](repeating: prev, count: 3 + (try bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
            }
        }
        return (Huffman(Array(lengths[0..<nlen])), Huffman(Array(lengths[nlen..<(nlen + ndist)])))
    }

    private mutating func codes(_ lit: Huffman, _ dist: Huffman) throws {
        while true {
            let sym = try decode(lit)
            if sym < 256 { out.append(UInt8(sym)); continue }
            if sym == 256 { return }
            let li = sym - 257
            let len = Self.lengthBase[li] + (try bits(Self.lengthExtra[li]))
            let di = try decode(dist)
            let d = Self.distBase[di] + (try bits(Self.distExtra[di]))
            guard d <= out.count else { throw PNGImage.Failure(description: "deflate: distance too far") }
            for _ in 0..<len { out.append(out[out.count - d]) }
        }
    }
}
