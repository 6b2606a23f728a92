import MusicSource

/// How far a scan has got, as its progress callback is told: the progress of any source's
/// import (``SourceProgress``).
package typealias MusicScanProgress = SourceProgress
