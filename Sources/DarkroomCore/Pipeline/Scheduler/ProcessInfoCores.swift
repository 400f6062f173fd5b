import Foundation

/// Active processor count, read once.
enum ProcessInfoCores {
    static let count: Int = ProcessInfo.processInfo.activeProcessorCount
}
