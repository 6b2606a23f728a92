import Foundation

/// The floor of a music-folder import (issue 36): a bare C++ program that walks a folder
/// and reads every audio file's tags and length with TagLib, one file after another,
/// keeping nothing. bluelib's `import DIR` does this and more (groups the tracks, finds the
/// covers, writes the library), so its time over this program's is what bluelib adds.
///
/// It is compiled where the bench runs, with the system's g++ and TagLib
/// (`g++ -O2 … $(pkg-config --cflags --libs taglib)`), and prints `files audio bytes`:
/// the audio files it opened, those with a length, and the bytes of tag text it read.
enum TagLibFloor {
  /// The program: what bluelib's scanner reads of each file (`ctl_read_descriptor` in
  /// Sources/CTagLib), without the picture and the format's name.
  static let source = """
    // The floor of a music-folder import: every file with one of TagLib's extensions under
    // DIR, opened with TagLib, its tags and length read; nothing kept.
    #include <fileref.h>
    #include <tpropertymap.h>

    #include <algorithm>
    #include <cctype>
    #include <cstdio>
    #include <filesystem>
    #include <set>
    #include <string>
    #include <system_error>

    int main(int argc, char **argv) {
      if (argc != 2) {
        std::fprintf(stderr, "usage: taglib-floor DIR\\n");
        return 2;
      }
      std::set<std::string> extensions;
      for (const TagLib::String &extension : TagLib::FileRef::defaultFileExtensions()) {
        extensions.insert("." + extension.to8Bit(true));
      }
      const char *keys[] = {"ALBUM", "ARTIST", "ALBUMARTIST", "TITLE", "TRACKNUMBER",
                            "DATE", "GENRE", "DISCNUMBER", "MUSICBRAINZ_ALBUMID"};
      unsigned long files = 0, audio = 0, bytes = 0;
      std::error_code error;
      namespace fs = std::filesystem;
      for (fs::recursive_directory_iterator entry(argv[1], error), end; !error && entry != end;
           entry.increment(error)) {
        if (!entry->is_regular_file(error)) continue;
        std::string extension = entry->path().extension().string();
        std::transform(extension.begin(), extension.end(), extension.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        if (extensions.count(extension) == 0) continue;
        ++files;
        TagLib::FileRef ref(entry->path().c_str(), true, TagLib::AudioProperties::Fast);
        if (ref.isNull()) continue;
        const TagLib::PropertyMap map = ref.file()->properties();
        for (const char *key : keys) {
          const auto found = map.find(key);
          if (found != map.end()) bytes += found->second.toString("; ").to8Bit(true).size();
        }
        const TagLib::AudioProperties *properties = ref.audioProperties();
        if (properties != nullptr && properties->lengthInMilliseconds() > 0) ++audio;
      }
      if (error) {
        std::fprintf(stderr, "taglib-floor: %s: %s\\n", argv[1], error.message().c_str());
        return 1;
      }
      std::printf("%lu %lu %lu\\n", files, audio, bytes);
      return 0;
    }

    """

  /// Compiles the program into `directory` (as `taglib-floor`) and returns its path.
  static func build(in directory: String, environment: [String: String]) throws(SetupError) -> String {
    guard let compiler = findInPath("g++", environment: environment) else {
      throw SetupError("g++ is not on PATH (Debian: apt install g++); it compiles the TagLib reference")
    }
    guard let pkgConfig = findInPath("pkg-config", environment: environment) else {
      throw SetupError("pkg-config is not on PATH; it finds TagLib for the C++ reference")
    }
    let sourcePath = directory + "/taglib-floor.cpp"
    let program = directory + "/taglib-floor"
    try DataSet.makeDirectory(directory)
    do {
      try Data(source.utf8).write(to: URL(fileURLWithPath: sourcePath))
    } catch {
      throw SetupError("cannot write \(sourcePath): \(error.localizedDescription)")
    }
    let flags = try output(of: pkgConfig, ["--cflags", "--libs", "taglib"], in: directory + "/pkg-config")
    let arguments = ["-O2", "-std=c++17", "-o", program, sourcePath] + flags.split(separator: " ").map(String.init)
    _ = try output(of: compiler, arguments, in: directory + "/g++")
    return program
  }

  /// What `executable arguments…` prints, trimmed; throws with its first line of errors
  /// unless it exits 0.
  private static func output(of executable: String, _ arguments: [String], in directory: String) throws(SetupError)
    -> String
  {
    try DataSet.makeDirectory(directory)
    let run: ChildRun
    do {
      run = try runChild(
        executable: executable, arguments: arguments,
        environment: ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }, input: .null,
        stdoutPath: directory + "/stdout", stderrPath: directory + "/stderr", timeout: 300)
    } catch {
      throw SetupError("cannot run \(executable): \(error)")
    }
    guard run.termination.succeeded else {
      let reason = DataSet.firstLine(ofFileAt: directory + "/stderr") ?? "\(run.termination)"
      throw SetupError("\((executable as NSString).lastPathComponent) failed: \(reason)")
    }
    return DataSet.contents(ofFileAt: directory + "/stdout").trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
