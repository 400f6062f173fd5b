import Foundation

/// Who may talk to the preview: requests that carry the token (the `token` query parameter or
/// the `X-Darkroom-Token` header) and name, in `Host`, the loopback address and port the server
/// listens on. A web page elsewhere cannot learn the token, and a DNS name rebound to
/// 127.0.0.1 still arrives with its own name in `Host`.
struct AccessGuard: Sendable {
    let token: String
    let port: UInt16

    /// 32 random bytes as hex, from the system's generator.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    enum Verdict: Equatable {
        case allowed
        case wrongHost(String?)
        case noToken
    }

    func verdict(host: String?, queryToken: String?, headerToken: String?) -> Verdict {
        let allowedHosts = ["127.0.0.1:\(port)", "[::1]:\(port)"]
        guard let host, allowedHosts.contains(host.lowercased()) else { return .wrongHost(host) }
        guard let given = headerToken ?? queryToken, Self.equalInConstantTime(given, token) else { return .noToken }
        return .allowed
    }

    /// Compares without stopping at the first difference, so timing tells nothing of the token.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
