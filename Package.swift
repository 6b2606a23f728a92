// swift-tools-version: 6.1
import PackageDescription

// On Linux the release binary links its C libraries in (issue 36; docs/benchmarks.md, "Where
// the time went"): `bash .ci/run` writes a linker script per library into .build/static-libs,
// naming the system's archives (SQLite, libedit and what it needs, libsixel, libpng, libjpeg,
// zlib, libstdc++), and bluelib's release link searches that directory first. A pkg-config
// file would put the system's library directory before it, so on Linux the three C modules
// below name none: their headers are in /usr/include.
#if os(Linux)
  let systemLibrariesByPkgConfig = false
#else
  let systemLibrariesByPkgConfig = true
#endif
let staticLibraries = Context.packageDirectory + "/.build/static-libs"

let package = Package(
  name: "bluelib",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "bluelib", targets: ["bluelib"]),
    .executable(name: "bluelib-bench", targets: ["bluelib-bench"]),
    .library(name: "HorizontalScroller", targets: ["HorizontalScroller"]),
    .library(name: "bluelib-taglib", type: .dynamic, targets: ["BlueTagLib"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    .systemLibrary(
      name: "CEditLine",
      pkgConfig: systemLibrariesByPkgConfig ? "libedit" : nil,
      providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
    ),
    .systemLibrary(
      name: "CImageCodecs",
      pkgConfig: systemLibrariesByPkgConfig ? "libpng" : nil,
      providers: [.apt(["libpng-dev", "libjpeg62-turbo-dev"]), .brew(["libpng", "jpeg-turbo"])]
    ),
    .target(name: "CImageDecoding", dependencies: ["CImageCodecs"]),
    // Caps the window size every library in the process sees (see WindowSize.c).
    .target(name: "CWindowSize"),
    .systemLibrary(
      name: "CSixel",
      pkgConfig: systemLibrariesByPkgConfig ? "libsixel" : nil,
      providers: [.apt(["libsixel-dev"]), .brew(["libsixel"])]
    ),
    .systemLibrary(
      name: "CTagLibSystem",
      pkgConfig: "taglib",
      providers: [.apt(["libtag1-dev"]), .brew(["taglib"])]
    ),
    // The one way a library is loaded at run time (TagLib's plug-in, libcurl, libmpv): the
    // file checked before dlopen maps it, a soname looked for in the system's folders only.
    .target(name: "CRuntimeLibrary"),
    // MusicFolder's C interface to TagLib: wrappers that load the plug-in below with dlopen
    // at the first tag read or written, so a start maps neither TagLib nor libstdc++.
    .target(name: "CTagLib", dependencies: ["CRuntimeLibrary"]),
    // The plug-in, libbluelib-taglib.so: TagLib's C++ behind CTagLib's functions.
    .target(name: "BlueTagLib", dependencies: ["CTagLibSystem"]),
    // SQLite's C interface (Debian libsqlite3-dev): the system's libsqlite3, which the release
    // build links in (see `staticLibraries` above).
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    // The store's few needs of SQLite in Swift, in GRDB's names (a connection behind a lock,
    // statements and their cache, rows, values, errors with their codes, transactions,
    // functions): no Foundation.
    .target(name: "BlueSQL", dependencies: ["CSQLite"]),
    // System calls at the bottom: EINTR, errno text, atomic files, the wake-up pipe.
    .target(name: "BlueSystem"),
    // ICU's regular expressions, loaded with dlopen at the first pattern (see cicu.h).
    .target(name: "CICU", dependencies: ["CRuntimeLibrary"]),
    // Text as Foundation compared it, without Foundation (issue 47): folding, the character
    // sets bluelib used, ICU's regular expressions.
    .target(name: "BlueText", dependencies: ["CICU"], exclude: ["make-tables.swift"]),
    .target(name: "MusicFolder", dependencies: ["CTagLib", "BlueSystem", "MusicSource"]),
    // The player, its engine protocol and a scripted test engine; knows no library (an
    // engine refuses a file that is not audio by MusicFolder's look at its first bytes).
    .target(name: "BluePlayback", dependencies: ["BlueSystem", "MusicFolder"]),
    // No pkg-config: its -D_REENTRANT is a flag SwiftPM refuses (a warning); the header is in
    // the standard place. Its types only: MPVAudio loads libmpv with dlopen at the first play.
    .systemLibrary(name: "CMPV", providers: [.apt(["libmpv-dev"]), .brew(["mpv"])]),
    .target(name: "MPVAudio", dependencies: ["CMPV", "CRuntimeLibrary", "BluePlayback"]),
    // The seam every source of albums plugs into below the library (MPD and Mopidy now, a
    // Subsonic server next): what a source lists, its fingerprint, its marks, its events.
    .target(name: "MusicSource"),
    // bluelib on the session bus as an MPRIS player: sd-bus (Debian libsystemd-dev for the
    // header), loaded with dlopen at the first play; nothing links libsystemd.
    .target(name: "CSDBus", dependencies: ["CRuntimeLibrary"]),
    // What the desktop's media keys and player widgets see and ask of the player (MPRIS).
    .target(name: "MPRIS", dependencies: ["BlueCovers", "BluePlayback", "CSDBus"]),
    // Listens sent to ListenBrainz (or a server of its API): what the player played, queued
    // in the library file first (through a store the shell hands over), over BlueCovers'
    // libcurl; it knows no library.
    .target(name: "ListenBrainz", dependencies: ["BlueCovers", "BluePlayback", "BlueSystem", "BlueText"]),
    // A client of MPD of its own (see README, "Music on a server"): its albums, covers,
    // player and stickers behind the seams (MusicSource, CoverSource, AudioEngine); it knows
    // no library.
    .target(name: "MPDClient", dependencies: ["BlueCovers", "BluePlayback", "BlueSystem", "MusicSource"]),
    // A client of Subsonic's API (Navidrome, gonic, Airsonic, supysonic…; see README, "Music on a
    // server"): its albums, covers, streams, stars and ratings behind the same seams, over
    // BlueCovers' libcurl; it knows no library.
    .target(
      name: "SubsonicClient", dependencies: ["BlueCovers", "BluePlayback", "BlueSystem", "BlueText", "MusicSource"]),
    .target(name: "CoverArt", dependencies: ["CImageCodecs", "CImageDecoding", "CSixel"]),
    .target(name: "HorizontalScroller"),
    // libcurl, loaded with dlopen at the first download (see ccurl.h): its header (Debian
    // libcurl4-openssl-dev) gives the types; nothing links it.
    .target(name: "CCurl", dependencies: ["CRuntimeLibrary"]),
    // Covers knowing nothing of albums: the loader, book, cache and sources (HTTP, the Cover
    // Art Archive, MusicBrainz, local files); libcurl enters here alone.
    .target(
      name: "BlueCovers",
      dependencies: ["BlueSystem", "BlueText", "CCurl", "MusicFolder"],
      exclude: ["Bundled/make-covers.py", "Bundled/covers"]
    ),
    // The album as values: Album and its fields' rules, the errors, the query language (its
    // syntax tree and parser; the store compiles it to SQL), the steps of the undo log.
    .target(name: "AlbumModel", dependencies: ["BlueCovers", "BlueSystem", "BlueText", "MusicFolder"]),
    // Import and export files: the CSV and JSON decoders streaming a file's albums, the
    // encoders, atomic writes; knows no store.
    .target(name: "AlbumArchive", dependencies: ["AlbumModel", "BlueSystem", "MusicFolder"]),
    .target(
      name: "BlueLibrary",
      dependencies: [
        "AlbumArchive",
        "AlbumModel",
        "BlueCovers",
        "BluePlayback",
        "BlueSystem",
        "BlueText",
        "MusicFolder",
        "MusicSource",
        "BlueSQL",
      ]
    ),
    .target(
      name: "BlueShell",
      dependencies: [
        "AlbumArchive", "AlbumModel", "BlueCovers", "BlueLibrary", "BluePlayback", "BlueSystem", "BlueText",
        "HorizontalScroller", "CoverArt", "CEditLine", "CWindowSize", "ListenBrainz", "MPRIS", "MusicFolder",
        "MusicSource",
      ]
    ),
    .executableTarget(
      name: "bluelib",
      dependencies: [
        "BlueLibrary",
        "BluePlayback",
        "BlueShell",
        "BlueSystem",
        "MPDClient",
        "MPVAudio",
        "SubsonicClient",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // Start-up (issue 36; docs/benchmarks.md, "Where the time went"): the release binary is not
      // position-independent, so the loader relocates no pointer of its 2 MB of tables
      // (118,000 relocations, 370 pages copied on write: 40% of `-c quit`), and exports
      // only what the shared libraries need, not its 32,000 Swift symbols (which the
      // runtime's backtracer set-up scanned with dladdr at every start); and it searches
      // .build/static-libs first, so the loader binds none of SQLite's, libstdc++'s or
      // libedit's symbols at start (see `staticLibraries` above).
      linkerSettings: [
        .unsafeFlags(
          ["-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"], .when(configuration: .release)),
        .unsafeFlags(["-L", staticLibraries], .when(platforms: [.linux], configuration: .release)),
      ]
    ),
    .target(name: "LoopbackHTTPServer", dependencies: ["BlueSystem"]),
    .executableTarget(
      name: "bluelib-bench",
      dependencies: [
        "AlbumArchive",
        "AlbumModel",
        "BlueLibrary",
        "BluePlayback",
        "BlueSystem",
        "CoverArt",
        "LoopbackHTTPServer",
        "MPVAudio",
        "MusicFolder",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "CoverArtTests", dependencies: ["CoverArt", "TestSupport"]),
    .testTarget(name: "MusicFolderTests", dependencies: ["MusicFolder", "MusicSource", "CoverArt", "TestSupport"]),
    .testTarget(name: "HorizontalScrollerTests", dependencies: ["HorizontalScroller"]),
    .target(name: "TestSupport", dependencies: ["BlueSystem", "CoverArt", "MusicFolder"], path: "Tests/TestSupport"),
    .target(name: "CoverTestSupport", dependencies: ["BlueCovers", "TestSupport"], path: "Tests/CoverTestSupport"),
    .testTarget(name: "BlueSystemTests", dependencies: ["BlueSystem", "TestSupport"]),
    .testTarget(name: "BlueSQLTests", dependencies: ["BlueSQL", "TestSupport"]),
    .testTarget(name: "BlueTextTests", dependencies: ["BlueText"]),
    .testTarget(name: "AlbumModelTests", dependencies: ["AlbumModel", "MusicFolder", "TestSupport"]),
    .testTarget(name: "AlbumArchiveTests", dependencies: ["AlbumArchive", "AlbumModel", "TestSupport"]),
    // The scripted engine the playback verbs are tested in process against: never shipped.
    .target(name: "PlaybackTestSupport", dependencies: ["BluePlayback"], path: "Tests/PlaybackTestSupport"),
    .testTarget(name: "BluePlaybackTests", dependencies: ["BluePlayback", "BlueSystem", "PlaybackTestSupport"]),
    .testTarget(
      name: "BlueCoversTests",
      dependencies: ["BlueCovers", "CCurl", "CoverTestSupport", "LoopbackHTTPServer", "TestSupport"]
    ),
    .testTarget(
      name: "BlueLibraryTests",
      dependencies: [
        "AlbumArchive", "AlbumModel", "BlueCovers", "BlueLibrary", "CoverArt", "CoverTestSupport", "LoopbackHTTPServer",
        "MusicFolder", "MusicSource", "TestSupport",
      ]
    ),
    .testTarget(
      name: "BlueShellTests",
      dependencies: [
        "AlbumArchive", "AlbumModel", "BlueCovers", "BlueShell", "BluePlayback", "BlueSystem", "PlaybackTestSupport",
        "TestSupport",
      ]
    ),
    .testTarget(name: "BenchTests", dependencies: ["bluelib-bench"]),
    .testTarget(
      name: "ListenBrainzTests",
      dependencies: [
        "ListenBrainz", "BlueLibrary", "BluePlayback", "BlueSystem", "PlaybackTestSupport", "TestSupport",
      ]
    ),
    .testTarget(
      name: "MPDClientTests",
      dependencies: [
        "MPDClient", "AlbumModel", "BlueCovers", "BlueLibrary", "BluePlayback", "MusicFolder", "MusicSource",
        "TestSupport",
      ]
    ),
    .testTarget(
      name: "SubsonicClientTests",
      dependencies: [
        "SubsonicClient", "BlueCovers", "BlueLibrary", "BluePlayback", "LoopbackHTTPServer", "MusicFolder",
        "MusicSource", "TestSupport",
      ],
      // Answers in other servers' shapes, read by the decoding tests from their path.
      exclude: ["Recorded"]
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "BluePlayback", "BlueShell", "CoverArt", "LoopbackHTTPServer", "MPVAudio", "MusicFolder", "TestSupport",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
