#include <inotifytools/inotifytools.h>
#include <sys/inotify.h>
