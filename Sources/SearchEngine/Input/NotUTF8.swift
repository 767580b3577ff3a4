/// The hint of an error about bytes that are not UTF-8: what the bytes look like, and what to
/// do about it.
///
/// A binary file gets no advice to convert it; text in another encoding does.
package enum NotUTF8 {
  /// The hint for `bytes`, the start of the input (or all of it), that is not UTF-8; `subject`
  /// names the input in the hint ("the input", "the data file").
  package static func hint(_ bytes: some Collection<UInt8>, subject: String) -> String {
    if let kind = kind(of: bytes) {
      return "\(subject) looks like \(kind), not text: give text, one item per line"
    }
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      return "\(subject) is UTF-16 (it starts with a byte order mark); convert it first, e.g."
        + " with iconv -f utf-16 -t utf-8"
    }
    return "\(subject) must be UTF-8; if it is text in another encoding, convert it first,"
      + " e.g. from Latin-1 with iconv -f latin1 -t utf-8"
  }

  /// What kind of binary data `bytes` starts with: by its signature, or "a binary file" when
  /// its first 64 KiB hold a NUL byte (text never does); nil for what may be text.
  package static func kind(of bytes: some Collection<UInt8>) -> String? {
    let signatures: [(bytes: [UInt8], kind: String)] = [
      ([0x1F, 0x8B], "gzip data"),
      (Array("BZh".utf8), "bzip2 data"),
      ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz data"),
      ([0x28, 0xB5, 0x2F, 0xFD], "zstd data"),
      ([0x50, 0x4B, 0x03, 0x04], "a zip archive"),
      ([0x7F, 0x45, 0x4C, 0x46], "an executable (ELF)"),
      (Array("%PDF".utf8), "a PDF document"),
      ([0x89, 0x50, 0x4E, 0x47], "a PNG image"),
      ([0xFF, 0xD8, 0xFF], "a JPEG image"),
      (Array("GIF8".utf8), "a GIF image"),
      (Array("SQLite format 3".utf8), "an SQLite database"),
    ]
    if let known = signatures.first(where: { bytes.starts(with: $0.bytes) }) {
      return known.kind
    }
    let isUTF16 = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
    if !isUTF16, bytes.prefix(1 << 16).contains(0) { return "a binary file (it holds NUL bytes)" }
    return nil
  }
}
