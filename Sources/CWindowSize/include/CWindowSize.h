#ifndef CWINDOWSIZE_H
#define CWINDOWSIZE_H

/// The widest window bluelib lays out, in columns; a wider one is used as this wide.
#define CWindowSize_maximumColumns 1024
/// The tallest window bluelib lays out, in rows.
#define CWindowSize_maximumRows 512

/// Referenced from Swift so that the object defining the clamping ioctl is always linked.
int CWindowSize_isInstalled(void);

#endif
