#ifndef CEDITLINE_SHIM_H
#define CEDITLINE_SHIM_H

// libedit's el_set, el_get and history are variadic, and Swift cannot call C
// variadic functions. Each option bluelib uses gets a non-variadic wrapper here.

#include <stdio.h>
#include <wchar.h>
#include <locale.h>
#include <histedit.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

typedef char *(*CEditLine_PromptFunction)(EditLine *);
typedef unsigned char (*CEditLine_CommandFunction)(EditLine *, int);
typedef int (*CEditLine_ReadFunction)(EditLine *, wchar_t *);

/// Starts libedit on the process's standard streams.
static inline EditLine *CEditLine_initStandardStreams(const char *program) {
  return el_init(program, stdin, stdout, stderr);
}

/// el_set(EL_PROMPT_ESC, fn, esc): the prompt, with `esc` bracketing invisible characters.
static inline int CEditLine_setPrompt(EditLine *el, CEditLine_PromptFunction fn, char esc) {
  return el_set(el, EL_PROMPT_ESC, fn, esc);
}

/// el_set(EL_EDITOR, mode): "emacs" or "vi".
static inline int CEditLine_setEditor(EditLine *el, const char *mode) {
  return el_set(el, EL_EDITOR, mode);
}

/// el_set(EL_SIGNAL, on): whether libedit installs its own signal handlers.
static inline int CEditLine_setSignal(EditLine *el, int on) {
  return el_set(el, EL_SIGNAL, on);
}

/// el_set(EL_HIST, history, h): the history Up/Down walk through.
static inline int CEditLine_setHistory(EditLine *el, History *h) {
  return el_set(el, EL_HIST, history, h);
}

/// el_set(EL_ADDFN, name, help, fn): a named editor function for key bindings.
static inline int CEditLine_addFunction(EditLine *el, const char *name, const char *help,
                                        CEditLine_CommandFunction fn) {
  return el_set(el, EL_ADDFN, name, help, fn);
}

/// el_set(EL_BIND, key, function, NULL).
static inline int CEditLine_bind(EditLine *el, const char *key, const char *function) {
  return el_set(el, EL_BIND, key, function, (const char *)NULL);
}

/// el_set(EL_SETTY, flag, setting, NULL), e.g. ("-d", "intr=").
static inline int CEditLine_setTTY(EditLine *el, const char *flag, const char *setting) {
  return el_set(el, EL_SETTY, flag, setting, (const char *)NULL);
}

/// el_set(EL_GETCFN, fn): the function libedit reads characters with.
static inline int CEditLine_setReadFunction(EditLine *el, CEditLine_ReadFunction fn) {
  return el_set(el, EL_GETCFN, fn);
}

/// el_set(EL_CLIENTDATA, p).
static inline int CEditLine_setClientData(EditLine *el, void *p) {
  return el_set(el, EL_CLIENTDATA, p);
}

/// el_get(EL_CLIENTDATA, &p).
static inline void *CEditLine_clientData(EditLine *el) {
  void *p = NULL;
  el_get(el, EL_CLIENTDATA, &p);
  return p;
}

/// el_set(EL_REFRESH): forget the screen and redraw prompt and line from the cursor.
static inline int CEditLine_refresh(EditLine *el) {
  return el_set(el, EL_REFRESH);
}

/// el_set(EL_EDITMODE, on).
static inline int CEditLine_setEditMode(EditLine *el, int on) {
  return el_set(el, EL_EDITMODE, on);
}

/// history(h, &ev, H_SETSIZE, n).
static inline int CEditLine_historySetSize(History *h, int n) {
  HistEvent ev;
  return history(h, &ev, H_SETSIZE, n);
}

/// history(h, &ev, H_SETUNIQUE, on): collapse consecutive duplicates.
static inline int CEditLine_historySetUnique(History *h, int on) {
  HistEvent ev;
  return history(h, &ev, H_SETUNIQUE, on);
}

/// history(h, &ev, H_ENTER, line).
static inline int CEditLine_historyEnter(History *h, const char *line) {
  HistEvent ev;
  return history(h, &ev, H_ENTER, line);
}

/// history(h, &ev, H_CLEAR).
static inline int CEditLine_historyClear(History *h) {
  HistEvent ev;
  return history(h, &ev, H_CLEAR);
}

/// The display width of a wide character (declared here because glibc hides it behind
/// _XOPEN_SOURCE, which a module map cannot set).
extern int wcwidth(wchar_t c);

/// Makes ^C an ordinary key on terminal `fd` (no SIGINT) until the modes are next reset.
/// Called from inside el_gets, after libedit switched to its edit modes; libedit puts its
/// own cooked modes (with ^C raising SIGINT) back when el_gets returns.
static inline int CEditLine_disableInterruptKey(int fd) {
  struct termios t;
  if (tcgetattr(fd, &t) != 0) return -1;
  if (t.c_cc[VINTR] == _POSIX_VDISABLE) return 0;
  t.c_cc[VINTR] = _POSIX_VDISABLE;
  return tcsetattr(fd, TCSANOW, &t);
}

/// Stops the terminal's own echo and line buffering on `fd` (and makes ^C a key), called
/// just before el_gets. libedit prints the prompt first and enters its edit modes only when
/// it reads the first key: keys typed in between were echoed by the terminal and held back
/// until Return, so they showed twice and a resize then saw an empty line. libedit restores
/// its cooked modes when el_gets returns, as before; it only believes changes made to the
/// cooked modes, and finding these it keeps the ones it saved.
static inline int CEditLine_stopTerminalEcho(int fd) {
  struct termios t;
  if (tcgetattr(fd, &t) != 0) return -1;
  if ((t.c_lflag & (ICANON | ECHO)) == 0 && t.c_cc[VINTR] == _POSIX_VDISABLE) return 0;
  t.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ECHONL);
  t.c_cc[VMIN] = 1;
  t.c_cc[VTIME] = 0;
  t.c_cc[VINTR] = _POSIX_VDISABLE;
  return tcsetattr(fd, TCSANOW, &t);
}

/// The window's size behind `fd` (`TIOCGWINSZ`; ioctl is variadic too): its columns and rows,
/// and its pixels where the terminal says (many leave them at 0); all 0 when `fd` is no
/// terminal.
static inline struct winsize CEditLine_windowSize(int fd) {
  struct winsize ws;
  if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return (struct winsize){0};
  return ws;
}

#endif
