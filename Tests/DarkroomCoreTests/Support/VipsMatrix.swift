/// vips' matrix file, for `vips conv`: "width height scale offset", then the rows.
func vipsMatrixFile(_ values: [Double], size: Int, scale: Double, offset: Double) -> String {
    var lines = ["\(size) \(size) \(scale) \(offset)"]
    for row in 0..<size {
        lines.append(values[row * size..<(row + 1) * size].map { "\($0)" }.joined(separator: " "))
    }
    return lines.joined(separator: "\n") + "\n"
}
