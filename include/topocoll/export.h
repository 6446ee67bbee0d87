/*
** export.h — what the shared libraries export. libtopocoll and libtopocoll_mpi are built
** with -fvisibility=hidden: only declarations marked TC_API (the functions of the public
** headers in include/topocoll/) are visible to programs that link them. Internal functions
** (declared in src/, prefixed tci_) stay inside the library.
*/
#ifndef TOPOCOLL_EXPORT_H
#define TOPOCOLL_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define TC_API __attribute__((visibility("default")))
#else
#define TC_API
#endif

#endif
