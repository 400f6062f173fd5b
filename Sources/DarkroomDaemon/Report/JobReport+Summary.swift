import Foundation

extension JobReport {
    /// The fields `darkroom report` reads, decoded with the report's own keys and types (one
    /// schema, declared in ``JobReport``): the outputs' chains, nodes and parameters are skipped,
    /// which keeps 100,000 reports quick to read.
    public struct Summary: Decodable, Sendable {
        public struct InputPart: Sendable {
            public var path: String
            public var bytes: Int
        }

        public struct OutputPart: Sendable {
            public var bytes: Int
        }

        public var watch: String
        public var status: Status
        public var error: ReportError?
        public var input: InputPart
        public var outputs: [OutputPart]
        public var timings: Timings

        /// The summary of a report already read whole.
        public init(_ report: JobReport) {
            (watch, status, error, timings) = (report.watch, report.status, report.error, report.timings)
            input = InputPart(path: report.input.path, bytes: report.input.bytes)
            outputs = report.outputs.map { OutputPart(bytes: $0.bytes) }
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            watch = try c.decode(String.self, forKey: .watch)
            status = try c.decode(Status.self, forKey: .status)
            error = try c.decodeIfPresent(ReportError.self, forKey: .error)
            let input = try c.nestedContainer(keyedBy: Input.CodingKeys.self, forKey: .input)
            self.input = InputPart(path: try input.decode(String.self, forKey: .path), bytes: try input.decode(Int.self, forKey: .bytes))
            var list = try c.nestedUnkeyedContainer(forKey: .outputs)
            var outputs = [OutputPart]()
            while !list.isAtEnd {
                let output = try list.nestedContainer(keyedBy: Output.CodingKeys.self)
                outputs.append(OutputPart(bytes: try output.decode(Int.self, forKey: .bytes)))
            }
            self.outputs = outputs
            timings = try c.decode(Timings.self, forKey: .timings)
        }
    }
}
