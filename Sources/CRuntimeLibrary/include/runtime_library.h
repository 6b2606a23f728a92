#ifndef RUNTIME_LIBRARY_H
#define RUNTIME_LIBRARY_H

// The one way bluelib loads a shared library at run time (TagLib's plug-in, libcurl,
// libmpv): the file is checked before `dlopen` maps it, and a library named by its soname
// is looked for in the system's folders only, never beside the program.
//
// `dlopen` trusts the file it is given: a truncated copy (an interrupted install, a full
// disk) dies with SIGBUS while it is relocated, and a FIFO blocks the open for ever. So the
// file must be a regular file holding a whole ELF shared object of this machine (its
// program headers, the segments they map and its section headers all within its size).
// What is left is the window between the check and the map, in which a file could be
// replaced by another on purpose: bluelib does not defend against its own folders being
// written by someone else.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `rl_check` and `rl_open` found.
enum {
  RL_LOADED = 0,
  /// No file at the path (or of the soname in any folder searched).
  RL_NOT_FOUND = 1,
  /// A file that is not a whole shared library of this machine, or that `dlopen` refused:
  /// `why` says which.
  RL_UNUSABLE = 2,
};

/// Checks that `path` is a regular file holding a whole ELF shared object of this machine.
/// RL_LOADED (nothing loaded: it may be) or RL_NOT_FOUND, else RL_UNUSABLE with one line in
/// `why` naming the file: `/x/libcurl.so.4 is damaged (30000 bytes; its segments need 61072)`.
int rl_check(const char *path, char *why, size_t why_size);

/// Loads `name` with `dlopen(…, RTLD_NOW | RTLD_LOCAL)` after `rl_check`. A name with a slash
/// is that file; a soname (`libcurl.so.4`) is looked for, first file found wins (as the
/// dynamic loader does), in the folders of `LD_LIBRARY_PATH`, then those of
/// /etc/ld.so.conf (and the files it includes), then /lib and /usr/lib with their
/// multiarch folders — not in the program's own folder (the executable's `$ORIGIN`
/// runpath) nor any other runpath. The handle in `*handle` with RL_LOADED; else why not in
/// `why` (RL_NOT_FOUND: `libcurl.so.4 is not in LD_LIBRARY_PATH nor in the system's library
/// folders`). The path loaded, when `loaded_path` is not NULL, in it.
int rl_open(const char *name, void **handle, char *why, size_t why_size, char *loaded_path, size_t path_size);

/// A function a library must have: its name, and where its address is written.
typedef struct rl_symbol {
  const char *name;
  void **address;
} rl_symbol;

/// Asks a library just loaded whether it is one bluelib can use (its version, its ABI):
/// RL_LOADED if so, else RL_UNUSABLE with why in `why`.
typedef int (*rl_handshake)(void *handle, const char *path, char *why, size_t why_size);

/// Loads a library as bluelib loads every one: the first of `names` that `rl_open` loads (a
/// file found that cannot be loaded is what is said, rather than a later name not found),
/// then every one of `symbols` (all or none: RL_UNUSABLE naming the first missing), then
/// `handshake` (NULL: none). `library` names it in messages (`libcurl`). RL_LOADED with the
/// handle in `*handle` and the addresses written; else why in `why`, nothing left loaded.
int rl_load(
  const char *library, const char *const *names, size_t name_count, const rl_symbol *symbols, size_t symbol_count,
  rl_handshake handshake, void **handle, char *why, size_t why_size, char *loaded_path, size_t path_size);

#ifdef __cplusplus
}
#endif

#endif
