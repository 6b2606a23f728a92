#ifndef CTAGLIBSYSTEM_SHIM_H
#define CTAGLIBSYSTEM_SHIM_H

// The system's TagLib (Debian libtag1-dev, pkg-config "taglib"). Its API is C++, which Swift
// does not import here, so this module declares nothing: it exists so that SwiftPM asks
// pkg-config for TagLib's include and link flags and hands them to CTagLib, the C++ target
// that wraps TagLib behind a C interface.

#endif
