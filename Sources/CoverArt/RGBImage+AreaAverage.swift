extension RGBImage {
  /// The image resampled to `width` x `height` with a box filter: each output pixel is the
  /// exact area-weighted mean of the source pixels it covers (fractional edges weighted
  /// by their share), rounded to nearest. Upscaling blends the one or two nearest source
  /// pixels the same way.
  ///
  /// Integer arithmetic throughout: along an axis of `n` source and `m` output pixels,
  /// measured in units of 1/m source pixel, output `j` spans `[j·n, (j+1)·n)` and source
  /// `i` spans `[i·m, (i+1)·m)`, so every overlap is a whole number and the weights of an
  /// output pixel add up to `n`.
  package func areaAveraged(width targetWidth: Int, height targetHeight: Int) -> RGBImage {
    precondition(targetWidth > 0 && targetHeight > 0, "the target has at least one pixel")
    if targetWidth == width && targetHeight == height { return self }
    let columns = AxisWeights(source: width, target: targetWidth)
    let rows = AxisWeights(source: height, target: targetHeight)
    let rowLength = targetWidth * 3

    // Pass 1: every source row reduced to `targetWidth` sums (each ≤ 255·width).
    var horizontal = [Int](repeating: 0, count: height * rowLength)
    pixels.withUnsafeBufferPointer { source in
      horizontal.withUnsafeMutableBufferPointer { sums in
        columns.withUnsafeSpans { starts, indices, weights in
          let source = source.baseAddress!
          var output = sums.baseAddress!
          for y in 0..<height {
            let row = source + y * width * 3
            for j in 0..<targetWidth {
              var red = 0
              var green = 0
              var blue = 0
              for k in starts[j]..<starts[j + 1] {
                let pixel = row + indices[k] * 3
                let weight = weights[k]
                red &+= weight &* Int(pixel[0])
                green &+= weight &* Int(pixel[1])
                blue &+= weight &* Int(pixel[2])
              }
              output[0] = red
              output[1] = green
              output[2] = blue
              output += 3
            }
          }
        }
      }
    }

    // Pass 2: the rows combined; the weights total width·height (≤ 8192², so the sums
    // stay below 2^35).
    let denominator = width * height
    let half = denominator / 2
    let count = targetHeight * rowLength
    let result = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
      horizontal.withUnsafeBufferPointer { sums in
        rows.withUnsafeSpans { starts, indices, weights in
          var accumulator = [Int](repeating: 0, count: rowLength)
          accumulator.withUnsafeMutableBufferPointer { accumulator in
            for j in 0..<targetHeight {
              for x in 0..<rowLength { accumulator[x] = 0 }
              for k in starts[j]..<starts[j + 1] {
                let row = sums.baseAddress! + indices[k] * rowLength
                let weight = weights[k]
                for x in 0..<rowLength { accumulator[x] &+= weight &* row[x] }
              }
              let base = j * rowLength
              for x in 0..<rowLength {
                output[base + x] = UInt8(truncatingIfNeeded: (accumulator[x] + half) / denominator)
              }
            }
          }
        }
      }
      initialized = count
    }
    return RGBImage(width: targetWidth, height: targetHeight, pixels: result)
  }
}

/// For one axis, the source pixels each output pixel covers and by how much.
struct AxisWeights {
  /// Output `j`'s entries are `starts[j]..<starts[j + 1]`.
  private var starts: [Int]
  private var indices: [Int]
  private var weights: [Int]

  init(source: Int, target: Int) {
    starts = [0]
    starts.reserveCapacity(target + 1)
    indices = []
    weights = []
    let estimate = target * (source / target + 2)
    indices.reserveCapacity(estimate)
    weights.reserveCapacity(estimate)
    for j in 0..<target {
      let low = j * source
      let high = low + source
      for i in (low / target)...((high - 1) / target) {
        let overlap = min(high, (i + 1) * target) - max(low, i * target)
        if overlap > 0 {
          indices.append(i)
          weights.append(overlap)
        }
      }
      starts.append(indices.count)
    }
  }

  func withUnsafeSpans<R>(
    _ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>) -> R
  ) -> R {
    starts.withUnsafeBufferPointer { starts in
      indices.withUnsafeBufferPointer { indices in
        weights.withUnsafeBufferPointer { weights in body(starts, indices, weights) }
      }
    }
  }
}
