#ifndef BLUETAGLIB_H
#define BLUETAGLIB_H

// The TagLib plug-in (libbluelib-taglib.so) has no interface of its own: its functions are
// CTagLib's (ctaglib.h) under the names `ctlp_…`, found by CTagLib's loader with dlsym.

#endif
