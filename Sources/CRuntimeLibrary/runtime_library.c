// See runtime_library.h.

#define _GNU_SOURCE
#include "runtime_library.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
#define RL_MACHINE EM_X86_64
#define RL_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define RL_MACHINE EM_AARCH64
#define RL_MULTIARCH "aarch64-linux-gnu"
#elif defined(__i386__)
#define RL_MACHINE EM_386
#define RL_MULTIARCH "i386-linux-gnu"
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RL_DATA ELFDATA2LSB
#else
#define RL_DATA ELFDATA2MSB
#endif

#if __SIZEOF_POINTER__ == 8
#define RL_CLASS ELFCLASS64
#else
#define RL_CLASS ELFCLASS32
#endif

/// Reads `count` bytes at `offset` of `descriptor` into `buffer`: 0, or -1 when fewer came.
static int read_at(int descriptor, void *buffer, size_t count, off_t offset) {
  size_t done = 0;
  while (done < count) {
    ssize_t got = pread(descriptor, (char *)buffer + done, count - done, offset + (off_t)done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    done += (size_t)got;
  }
  return 0;
}

/// What a file that is not a regular file is.
static const char *kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

/// `end` = `offset` + `size`, unless that overflows or passes `limit`: then 0 and `*need` set.
static int within(uint64_t offset, uint64_t size, uint64_t limit, uint64_t *need) {
  if (offset > UINT64_MAX - size) {
    *need = UINT64_MAX;
    return 0;
  }
  if (offset + size > limit) {
    if (offset + size > *need) *need = offset + size;
    return 0;
  }
  return 1;
}

int rl_check(const char *path, char *why, size_t why_size) {
  struct stat status;
  if (stat(path, &status) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return RL_NOT_FOUND;
    snprintf(why, why_size, "%s cannot be read: %s", path, strerror(errno));
    return RL_UNUSABLE;
  }
  if (!S_ISREG(status.st_mode)) {
    snprintf(why, why_size, "%s is %s, not a library", path, kind_of(status.st_mode));
    return RL_UNUSABLE;
  }
  // Non-blocking: a FIFO put there since the stat is not waited on.
  int descriptor;
  do {
    descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  } while (descriptor < 0 && errno == EINTR);
  if (descriptor < 0) {
    snprintf(why, why_size, "%s cannot be read: %s", path, strerror(errno));
    return RL_UNUSABLE;
  }
  int result = RL_UNUSABLE;
  if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode)) {
    snprintf(why, why_size, "%s is not a regular file, not a library", path);
    goto done;
  }
  uint64_t size = (uint64_t)status.st_size;
  ElfW(Ehdr) header;
  if (size < sizeof header || read_at(descriptor, &header, sizeof header, 0) != 0 ||
      memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    snprintf(
      why, why_size, "%s is not a shared library (%s)", path, size == 0 ? "an empty file" : "no ELF header");
    goto done;
  }
  if (header.e_ident[EI_CLASS] != RL_CLASS || header.e_ident[EI_DATA] != RL_DATA
#ifdef RL_MACHINE
      || header.e_machine != RL_MACHINE
#endif
  ) {
    snprintf(why, why_size, "%s is a library of another kind of machine", path);
    goto done;
  }
  if (header.e_type != ET_DYN) {
    snprintf(why, why_size, "%s is not a shared library (an ELF file of type %u)", path, (unsigned)header.e_type);
    goto done;
  }
  uint64_t need = 0;
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(ElfW(Phdr))) {
    snprintf(why, why_size, "%s is damaged (its ELF header lists no program headers)", path);
    goto done;
  }
  int whole = within(header.e_phoff, (uint64_t)header.e_phnum * header.e_phentsize, size, &need);
  if (whole) {
    for (unsigned index = 0; index < header.e_phnum; index++) {
      ElfW(Phdr) program;
      if (read_at(descriptor, &program, sizeof program, (off_t)(header.e_phoff + (uint64_t)index * sizeof program)) !=
          0) {
        need = size + 1;
        whole = 0;
        break;
      }
      if (program.p_filesz > 0 && !within(program.p_offset, program.p_filesz, size, &need)) whole = 0;
    }
  }
  if (header.e_shoff != 0 && header.e_shentsize != 0 &&
      !within(header.e_shoff, (uint64_t)header.e_shnum * header.e_shentsize, size, &need)) {
    whole = 0;
  }
  if (!whole) {
    snprintf(
      why, why_size, "%s is damaged (truncated at %llu bytes; its ELF headers need %llu)", path,
      (unsigned long long)size, (unsigned long long)need);
    goto done;
  }
  result = RL_LOADED;
done:
  close(descriptor);
  return result;
}

/// Checks and loads the file at `path`.
static int open_path(const char *path, void **handle, char *why, size_t why_size) {
  int checked = rl_check(path, why, why_size);
  if (checked != RL_LOADED) return checked;
  dlerror();
  *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (*handle == NULL) {
    const char *error = dlerror();
    snprintf(why, why_size, "%s", error != NULL ? error : path);
    return RL_UNUSABLE;
  }
  return RL_LOADED;
}

/// The search for a soname: tries `name` in `folder`; 1 when the search ends there (found,
/// loaded or not), 0 to go on.
struct search {
  const char *name;
  void **handle;
  char *why;
  size_t why_size;
  char *loaded_path;
  size_t path_size;
  int result;
};

static int try_folder(struct search *search, const char *folder, size_t length) {
  if (length == 0 || folder[0] != '/') return 0;  // only absolute folders: never the current one
  char path[PATH_MAX];
  int written = snprintf(path, sizeof path, "%.*s/%s", (int)length, folder, search->name);
  if (written < 0 || (size_t)written >= sizeof path) return 0;
  int result = open_path(path, search->handle, search->why, search->why_size);
  if (result == RL_NOT_FOUND) return 0;
  search->result = result;
  if (search->loaded_path != NULL && search->path_size > 0) snprintf(search->loaded_path, search->path_size, "%s", path);
  return 1;
}

/// The folders of a `:`- or blank-separated list, in order.
static int try_list(struct search *search, const char *list, const char *separators) {
  while (list != NULL && *list != '\0') {
    size_t length = strcspn(list, separators);
    if (try_folder(search, list, length)) return 1;
    list += length;
    list += strspn(list, separators);
  }
  return 0;
}

/// The folders named by an ld.so.conf file, and the files it includes, to `depth` levels.
static int try_configuration(struct search *search, const char *file, int depth) {
  FILE *stream = fopen(file, "re");
  if (stream == NULL) return 0;
  char line[PATH_MAX + 64];
  int found = 0;
  while (!found && fgets(line, sizeof line, stream) != NULL) {
    char *comment = strchr(line, '#');
    if (comment != NULL) *comment = '\0';
    char *start = line + strspn(line, " \t\r\n");
    size_t length = strcspn(start, "\r\n");
    while (length > 0 && (start[length - 1] == ' ' || start[length - 1] == '\t')) length--;
    start[length] = '\0';
    if (length == 0) continue;
    if (strncmp(start, "include", 7) == 0 && (start[7] == ' ' || start[7] == '\t')) {
      if (depth == 0) continue;
      char *pattern = start + 7 + strspn(start + 7, " \t");
      glob_t matches;
      if (glob(pattern, 0, NULL, &matches) == 0) {
        for (size_t index = 0; index < matches.gl_pathc && !found; index++) {
          found = try_configuration(search, matches.gl_pathv[index], depth - 1);
        }
        globfree(&matches);
      }
      continue;
    }
    if (strncmp(start, "hwcap", 5) == 0) continue;
    found = try_list(search, start, " \t:,");
  }
  fclose(stream);
  return found;
}

int rl_open(const char *name, void **handle, char *why, size_t why_size, char *loaded_path, size_t path_size) {
  *handle = NULL;
  if (why_size > 0) why[0] = '\0';
  if (strchr(name, '/') != NULL) {
    int result = open_path(name, handle, why, why_size);
    if (result == RL_NOT_FOUND) snprintf(why, why_size, "%s: no such file", name);
    if (result == RL_LOADED && loaded_path != NULL && path_size > 0) snprintf(loaded_path, path_size, "%s", name);
    return result;
  }
  struct search search = {name, handle, why, why_size, loaded_path, path_size, RL_NOT_FOUND};
  // As the dynamic loader: LD_LIBRARY_PATH unless the program runs with privileges it was given.
  const char *variable = getauxval(AT_SECURE) ? NULL : getenv("LD_LIBRARY_PATH");
  if (try_list(&search, variable, ":;")) return search.result;
  if (try_configuration(&search, "/etc/ld.so.conf", 4)) return search.result;
  static const char *const system_folders[] = {
#ifdef RL_MULTIARCH
    "/lib/" RL_MULTIARCH, "/usr/lib/" RL_MULTIARCH,
#endif
#if __SIZEOF_POINTER__ == 8
    "/lib64", "/usr/lib64",
#endif
    "/lib", "/usr/lib",
  };
  for (size_t index = 0; index < sizeof system_folders / sizeof system_folders[0]; index++) {
    if (try_folder(&search, system_folders[index], strlen(system_folders[index]))) return search.result;
  }
  snprintf(why, why_size, "%s is not in LD_LIBRARY_PATH nor in the system's library folders", name);
  return RL_NOT_FOUND;
}

int rl_load(
  const char *library, const char *const *names, size_t name_count, const rl_symbol *symbols, size_t symbol_count,
  rl_handshake handshake, void **handle, char *why, size_t why_size, char *loaded_path, size_t path_size) {
  *handle = NULL;
  int first = RL_NOT_FOUND;
  char path[PATH_MAX];
  path[0] = '\0';
  for (size_t index = 0; index < name_count && *handle == NULL; index++) {
    char reason[PATH_MAX + 256];
    int result = rl_open(names[index], handle, reason, sizeof reason, path, sizeof path);
    if (result == RL_LOADED) break;
    // The first reason, unless a file that was there but could not be loaded comes later.
    if (index == 0 || (first == RL_NOT_FOUND && result != RL_NOT_FOUND)) {
      snprintf(why, why_size, "%s", reason);
      first = result;
    }
  }
  if (*handle == NULL) return first;
  for (size_t index = 0; index < symbol_count; index++) {
    void *address = dlsym(*handle, symbols[index].name);
    if (address == NULL) {
      snprintf(why, why_size, "the %s at %s has no %s (too old?)", library, path, symbols[index].name);
      dlclose(*handle);
      *handle = NULL;
      return RL_UNUSABLE;
    }
    *symbols[index].address = address;
  }
  if (handshake != NULL && handshake(*handle, path, why, why_size) != RL_LOADED) {
    dlclose(*handle);
    *handle = NULL;
    return RL_UNUSABLE;
  }
  if (loaded_path != NULL && path_size > 0) snprintf(loaded_path, path_size, "%s", path);
  return RL_LOADED;
}
