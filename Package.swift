// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "bluelib",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "bluelib", targets: ["bluelib"]),
    .library(name: "HorizontalScroller", targets: ["HorizontalScroller"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CEditLine",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
    ),
    .target(name: "HorizontalScroller"),
    .target(
      name: "BlueShell",
      dependencies: ["CEditLine"]
    ),
    .executableTarget(
      name: "bluelib",
      dependencies: [
        "BlueShell",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "HorizontalScrollerTests", dependencies: ["HorizontalScroller"]),
    .testTarget(name: "BlueShellTests", dependencies: ["BlueShell"]),
    .testTarget(name: "EndToEndTests", dependencies: ["BlueShell"]),
  ],
  swiftLanguageModes: [.v6]
)
