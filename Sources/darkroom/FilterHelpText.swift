import Foundation
import DarkroomCore

/// Human-readable listing of filter descriptors, grouped by first category.
enum FilterHelpText {
    static func render(_ descriptors: [FilterDescriptor]) -> String {
        var lines = [String]()
        let groups = Dictionary(grouping: descriptors) { $0.categories.first ?? "other" }
        for category in groups.keys.sorted() {
            lines.append("\(category.uppercased())")
            for d in groups[category]!.sorted(by: { $0.name < $1.name }) {
                let counterpart = d.counterpart.map { " (\($0))" } ?? ""
                lines += TextWrap.lines("  \(d.name) — ", "\(d.displayName)\(counterpart). \(d.description)", indent: 4)
                for p in d.parameters { lines += parameterLines(p, indent: "      ") }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The parameter's lines (its name, then its facts and description in a column beside it),
    /// then those of each field of a record kind, indented under it.
    static func parameterLines(_ p: ParameterDescriptor, indent: String) -> [String] {
        TextWrap.lines(indent + p.name.padding(toLength: 14, withPad: " ", startingAt: 0) + " ", about(p))
            + (p.kind.fields ?? []).flatMap { parameterLines($0, indent: indent + "  ") }
    }

    /// "scalar, default 10, from 0 to 1000, slider 1…100, px — Pixels each side …".
    static func about(_ p: ParameterDescriptor) -> String {
        var kind = p.kind.name
        if case .choice(let options) = p.kind { kind = options.joined(separator: "|") }
        var facts = [kind]
        if p.isRequired { facts.append("required") }
        if let d = p.defaultValue { facts.append("default \(d)") }
        if !p.rangeText.isEmpty { facts.append(p.rangeText) }
        if let lo = p.sliderMinimum, let hi = p.sliderMaximum { facts.append("slider \(number(lo))…\(number(hi))") }
        if let unit = p.unit { facts.append(unit) }
        return facts.joined(separator: ", ") + (p.description.isEmpty ? "" : " — " + p.description)
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.4g", v)
    }
}
