import DarkroomCodecs
import DarkroomCore
import Foundation

extension InputFacts {
    /// The facts text placeholders name, for the input at `inputPath`: its name and stem, the
    /// date the job runs (the machine's local date, YYYY-MM-DD) and the EXIF fields it carries.
    static func of(inputPath: String, metadata: ImageMetadata?, now: Date = Date()) -> InputFacts {
        let name = (inputPath as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        let day = Calendar.current.dateComponents([.year, .month, .day], from: now)
        var values = ["name": name, "stem": stem,
                      "date": String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)]
        for field in InputFacts.exifFields { values["exif." + field] = metadata?.exifText(field) }
        return InputFacts(values)
    }
}
