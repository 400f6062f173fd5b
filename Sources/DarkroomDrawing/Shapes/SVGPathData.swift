import DarkroomCore
import Foundation

/// SVG path data (the `d` of `<path>`, SVG 1.1 §8.3): M, L, H, V, C, S, Q, T, A, Z and their
/// relative lower-case forms, with implicit repeats. Quadratics become cubics and arcs become
/// cubics of at most a quarter turn (SVG's endpoint-to-centre conversion, F.6.5), so the result
/// is a plain ``Path``. Errors name the character where the data stops making sense.
public enum SVGPathData {
    public static func parse(_ text: String) throws(ParameterError) -> Path {
        var scanner = Scanner(chars: Array(text.utf8))
        var path = Path()
        var current = (x: 0.0, y: 0.0), subpathStart = (x: 0.0, y: 0.0)
        // The reflected control points of S and T.
        var lastCubic: (Double, Double)?, lastQuad: (Double, Double)?
        var command: UInt8?
        scanner.skipSpace()
        while !scanner.atEnd {
            if let c = scanner.peek, isCommand(c) {
                command = c
                scanner.index += 1
            } else if command == nil {
                throw scanner.error("path data must start with a command such as M")
            } else if command == UInt8(ascii: "z") || command == UInt8(ascii: "Z") {
                throw scanner.error("a number cannot follow Z")
            }
            guard let c = command else { break }
            let relative = c >= UInt8(ascii: "a")
            let (ox, oy) = relative ? current : (0, 0)
            var nextCubic: (Double, Double)?, nextQuad: (Double, Double)?
            switch c | 0x20 {
            case UInt8(ascii: "m"):
                let x = try scanner.number() + ox, y = try scanner.number() + oy
                path.elements.append(.move(x, y))
                current = (x, y); subpathStart = current
                // Further pairs after a move are lines (SVG's implicit lineto).
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
            case UInt8(ascii: "l"):
                let x = try scanner.number() + ox, y = try scanner.number() + oy
                try ensureStart(&path, current); path.elements.append(.line(x, y)); current = (x, y)
            case UInt8(ascii: "h"):
                let x = try scanner.number() + ox
                try ensureStart(&path, current); path.elements.append(.line(x, current.y)); current.x = x
            case UInt8(ascii: "v"):
                let y = try scanner.number() + oy
                try ensureStart(&path, current); path.elements.append(.line(current.x, y)); current.y = y
            case UInt8(ascii: "c"), UInt8(ascii: "s"):
                var c1: (Double, Double)
                if c | 0x20 == UInt8(ascii: "c") {
                    c1 = (try scanner.number() + ox, try scanner.number() + oy)
                } else {
                    c1 = lastCubic.map { (2 * current.x - $0.0, 2 * current.y - $0.1) } ?? current
                }
                let c2 = (try scanner.number() + ox, try scanner.number() + oy)
                let end = (try scanner.number() + ox, try scanner.number() + oy)
                try ensureStart(&path, current)
                path.elements.append(.curve(c1.0, c1.1, c2.0, c2.1, end.0, end.1))
                current = (end.0, end.1); nextCubic = c2
            case UInt8(ascii: "q"), UInt8(ascii: "t"):
                let q: (Double, Double)
                if c | 0x20 == UInt8(ascii: "q") {
                    q = (try scanner.number() + ox, try scanner.number() + oy)
                } else {
                    q = lastQuad.map { (2 * current.x - $0.0, 2 * current.y - $0.1) } ?? current
                }
                let end = (try scanner.number() + ox, try scanner.number() + oy)
                try ensureStart(&path, current)
                // Degree elevation: the cubic's controls are 2/3 of the way to the quadratic's.
                path.elements.append(.curve(current.x + 2 / 3 * (q.0 - current.x), current.y + 2 / 3 * (q.1 - current.y),
                                            end.0 + 2 / 3 * (q.0 - end.0), end.1 + 2 / 3 * (q.1 - end.1), end.0, end.1))
                current = (end.0, end.1); nextQuad = q
            case UInt8(ascii: "a"):
                let rx = abs(try scanner.number()), ry = abs(try scanner.number())
                let rotation = try scanner.number() * .pi / 180
                let large = try scanner.flag(), sweep = try scanner.flag()
                let end = (try scanner.number() + ox, try scanner.number() + oy)
                try ensureStart(&path, current)
                appendEndpointArc(&path, from: current, to: end, rx: rx, ry: ry, rotation: rotation, large: large, sweep: sweep)
                current = (end.0, end.1)
            case UInt8(ascii: "z"):
                path.elements.append(.close)
                current = subpathStart
            default:
                throw scanner.error("unknown command")
            }
            lastCubic = nextCubic
            lastQuad = nextQuad
            scanner.skipSpace(comma: true)
        }
        guard !path.elements.isEmpty else { throw ParameterError("path data is empty: give SVG path data such as \"M 0 0 L 10 10\"") }
        guard path.isFinite else { throw ParameterError("path data has a number too large to draw with") }
        return path
    }

    private static func isCommand(_ c: UInt8) -> Bool { Array("MmLlHhVvCcSsQqTtAaZz".utf8).contains(c) }

    /// Drawing before any move starts at the origin, as SVG says.
    private static func ensureStart(_ path: inout Path, _ current: (x: Double, y: Double)) throws(ParameterError) {
        if path.elements.isEmpty { path.elements.append(.move(current.x, current.y)) }
    }

    /// SVG's endpoint arc parameterisation turned into the centre form (SVG 1.1 F.6.5, with the
    /// radii scaled up when they cannot reach, F.6.6).
    static func appendEndpointArc(_ path: inout Path, from p0: (x: Double, y: Double), to p1: (Double, Double),
                                  rx: Double, ry: Double, rotation: Double, large: Bool, sweep: Bool) {
        var rx = rx, ry = ry
        if rx == 0 || ry == 0 || (p0.x == p1.0 && p0.y == p1.1) {
            if !(p0.x == p1.0 && p0.y == p1.1) { path.elements.append(.line(p1.0, p1.1)) }
            return
        }
        let c = cos(rotation), s = sin(rotation)
        let dx = (p0.x - p1.0) / 2, dy = (p0.y - p1.1) / 2
        let x1 = c * dx + s * dy, y1 = -s * dx + c * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var k = (max(num, 0) / den).squareRoot()
        if large == sweep { k = -k }
        let cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx
        let cx = c * cx1 - s * cy1 + (p0.x + p1.0) / 2, cy = s * cx1 + c * cy1 + (p0.y + p1.1) / 2
        func angle(_ ux: Double, _ uy: Double) -> Double { atan2(uy, ux) }
        let start = angle((x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((-x1 - cx1) / rx, (-y1 - cy1) / ry) - start
        if sweep && delta < 0 { delta += 2 * .pi }
        if !sweep && delta > 0 { delta -= 2 * .pi }
        path.appendArc(cx: cx, cy: cy, rx: rx, ry: ry, rotation: rotation, start: start, sweep: delta)
    }

    /// Numbers, flags and separators of path data.
    struct Scanner {
        let chars: [UInt8]
        var index = 0

        var atEnd: Bool { index >= chars.count }
        var peek: UInt8? { atEnd ? nil : chars[index] }

        func error(_ message: String) -> ParameterError {
            let shown = String(decoding: chars[min(index, chars.count)...].prefix(12), as: UTF8.self)
            return ParameterError("path data at character \(index + 1)" + (shown.isEmpty ? "" : " (\"\(shown)\")") + ": \(message)")
        }

        mutating func skipSpace(comma: Bool = false) {
            var sawComma = false
            while let c = peek, c == 32 || c == 9 || c == 10 || c == 13 || (comma && c == 44 && !sawComma) {
                if c == 44 { sawComma = true }
                index += 1
            }
        }

        /// A number: sign, digits, fraction, exponent; then separators.
        mutating func number() throws(ParameterError) -> Double {
            skipSpace()
            let start = index
            if let c = peek, c == 43 || c == 45 { index += 1 }
            var digits = 0, dot = false
            while let c = peek, (48...57).contains(c) || (c == 46 && !dot) {
                if c == 46 { dot = true } else { digits += 1 }
                index += 1
            }
            guard digits > 0 else {
                index = start
                throw error(atEnd ? "a number is missing at the end" : "expected a number")
            }
            if let c = peek, c == 101 || c == 69 {
                let mark = index
                index += 1
                if let s = peek, s == 43 || s == 45 { index += 1 }
                var exp = 0
                while let d = peek, (48...57).contains(d) { exp += 1; index += 1 }
                if exp == 0 { index = mark }
            }
            guard let v = Double(String(decoding: chars[start..<index], as: UTF8.self)), v.isFinite else {
                index = start
                throw error("expected a number")
            }
            skipSpace(comma: true)
            return v
        }

        /// An arc flag, 0 or 1, which may touch the next number ("0110 10").
        mutating func flag() throws(ParameterError) -> Bool {
            skipSpace()
            guard let c = peek, c == 48 || c == 49 else { throw error("expected an arc flag, 0 or 1") }
            index += 1
            skipSpace(comma: true)
            return c == 49
        }
    }
}
