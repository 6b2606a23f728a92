// The largest window bluelib — and libedit inside it — works with.
//
// libedit keeps a display buffer of rows × columns cells and asks the terminal for its
// size with ioctl(TIOCGWINSZ) at start-up and again before every line it reads. A bogus
// `stty cols 65535 rows 65535` made it spend 10–20 s and 9 GB setting that buffer up, for
// every prompt. libedit has no option to cap the size, so bluelib's executable defines
// ioctl itself: the dynamic linker binds libedit's calls (and every other library's) to
// this definition, which passes each request to the kernel unchanged and only cuts a
// window size it reports down to CWindowSize_maximumColumns × CWindowSize_maximumRows.
// The terminal's own size is never changed.

#include "CWindowSize.h"

#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int ioctl(int fd, unsigned long request, ...) {
  va_list arguments;
  va_start(arguments, request);
  void *argument = va_arg(arguments, void *);
  va_end(arguments);
  long result = syscall(SYS_ioctl, fd, request, argument);
  if (result == 0 && request == TIOCGWINSZ && argument != NULL) {
    struct winsize *size = argument;
    if (size->ws_col > CWindowSize_maximumColumns) size->ws_col = CWindowSize_maximumColumns;
    if (size->ws_row > CWindowSize_maximumRows) size->ws_row = CWindowSize_maximumRows;
  }
  return (int)result;
}

int CWindowSize_isInstalled(void) { return 1; }
