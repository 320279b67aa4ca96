/* Thread-local message of the last failure the Fortran wrappers found
 * themselves (before calling the library), for cuperm_get_last_error_message.
 * Kept in C because Fortran 2008 has no thread-local variables. */
#include <stddef.h>
#include <string.h>

static _Thread_local char message[1024];
static _Thread_local int pending;

void cuperm_f_set_error(const char* msg, size_t len)
{
    if (len >= sizeof message) len = sizeof message - 1;
    memcpy(message, msg, len);
    message[len] = '\0';
    pending = 1;
}

/* A failing library call supersedes the wrappers' own message. */
void cuperm_f_clear_error(void) { pending = 0; }

/* The wrappers' message if it is the newest failure on this thread, else NULL. */
const char* cuperm_f_error(void) { return pending ? message : NULL; }
