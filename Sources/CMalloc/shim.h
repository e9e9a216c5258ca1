// glibc's malloc tuning (mallopt), which its Swift module does not export.
#include <malloc.h>
