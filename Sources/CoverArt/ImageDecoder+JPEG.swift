internal import CImageDecoding

extension ImageDecoder {
  /// Decodes with libjpeg-turbo through the C helpers, which own libjpeg's setjmp error
  /// handling. Grey is expanded to RGB and CMYK converted; truncated or damaged data is
  /// an error rather than libjpeg's grey fill.
  static func decodeJPEG(_ bytes: UnsafeBufferPointer<UInt8>, minimumSize: PixelSize?) throws(CoverArtError) -> RGBImage
  {
    var decode = CIDJPEGDecode()
    let status = cid_jpeg_begin(
      &decode, bytes.baseAddress, bytes.count,
      Int32(clamping: minimumSize?.width ?? 0), Int32(clamping: minimumSize?.height ?? 0))
    guard status == Int32(CID_OK) else { throw error(status, decode) }
    do {
      try checkSize(width: Int(decode.sourceWidth), height: Int(decode.sourceHeight))
    } catch {
      cid_jpeg_abort(&decode)
      throw error
    }
    let width = Int(decode.width)
    let height = Int(decode.height)
    let count = width * height * 3
    var finished = Int32(CID_OK)
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      finished = cid_jpeg_finish(&decode, buffer.baseAddress, width * 3)
      initialized = finished == Int32(CID_OK) ? count : 0
    }
    guard finished == Int32(CID_OK) else { throw error(finished, decode) }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  private static func error(_ status: Int32, _ decode: CIDJPEGDecode) -> CoverArtError {
    var message = withUnsafeBytes(of: decode.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    if message.isEmpty { message = "libjpeg gave no reason" }
    return status == Int32(CID_UNSUPPORTED) ? .unsupportedJPEG(message) : .corruptJPEG(message)
  }
}
