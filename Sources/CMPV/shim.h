// libmpv's client API (Debian libmpv-dev): the audio engine behind `play`.
#include <mpv/client.h>
