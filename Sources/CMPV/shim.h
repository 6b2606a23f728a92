// libmpv's client API (Debian libmpv-dev): the audio engine behind `play`. Its types only:
// nothing links libmpv; MPVAudio's MPVLibrary loads it with dlopen at the first engine.
#include <mpv/client.h>
