/*
** program_io.h — every rank's program (program.h) in one file, each rank reading only its own.
**
** Why: an executor of N ranks that each read the whole schedule and lower their own program
** does O(N * transfers) work in total — N^3 for the schedules topocoll builds, which under
** SMPI (all ranks in one process) took the 256-node plan past ten minutes. Lowering every
** rank once (tc_program_lower_all) and letting rank r read its own section makes the load
** O(transfers) in all.
**
** tc_program_file_write(g, s, path) lowers every rank of s (which must have passed
** tc_schedule_verify; no dependencies) and writes path atomically, a text file:
**   topocoll-programs 1
**   collective <name>[ root <r>][ dest <t>]   (tc_collective_name; root: the root's rank of
**        broadcast, reduce, scatter and gather, p2p's source; dest: p2p's destination)
**   algorithm <the schedule's algorithm name, the rest of the line>
**   ranks <N: the graph's compute nodes, rank_map.h>
**   digest <16 hex digits: FNV-1a 64 of every byte after the index>
**   <N index lines: the byte offset of rank r's section, 20 digits, zero-padded>
** then per rank r = 0 .. N-1 its section:
**   rank <r> nshards <k> units <u> steps <t> rs_steps <t'> input <chunks> output <chunks>
**        scratch <chunks> redundant <offset> ops <n>                    (one line)
**   n lines "<kind> <step> <peer> <arc> <src> <src_off> <dst> <dst_off> <cnt>", kind and
**   buffers by name (tc_op_kind_name, tc_buffer_name), the tc_op fields as lowered.
** Fixed-width index lines let a reader seek to its section: line r starts 21*r bytes after
** the digest line.
**
** tc_program_file_read_header(path, hdr) reads the five header lines;
** tc_program_file_read(path, rank, hdr, out) also reads rank's section into out, which is
** then what tc_program_lower gave (owner NULL: the file does not carry shard owners; ndeps
** 0), to be released with tc_program_destroy. Readers check every line strictly and the
** counts against the file's size before allocating; the digest is read, not recomputed (it
** lets ranks that read the file separately check that they read the same one).
**
** tc_program_file_detect(path) is 1 when path begins with the magic line, else 0 (also
** when it cannot be read: the caller's reader then says why).
**
** Errors: TC_EINPUT naming the file (and line) for a malformed or truncated file, or a
** rank outside 0..N-1; writer: TC_EINPUT for an algorithm name with a line break, as
** tc_program_lower_all otherwise; TC_EIO when the file cannot be read or written (the
** target then untouched); TC_ENOMEM. Outputs are empty on failure.
*/
#ifndef TOPOCOLL_PROGRAM_IO_H
#define TOPOCOLL_PROGRAM_IO_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/program.h"
#include "topocoll/sched.h"

typedef struct tc_program_file_header {
  tc_collective coll;
  char algorithm[32];
  int32_t ranks;
  int32_t root; /* tc_program.root: the root's (p2p: source's) rank, -1 when unrooted */
  int32_t dest; /* tc_program.dest: p2p's destination rank, else -1 */
  uint64_t digest;
} tc_program_file_header;

TC_API int tc_program_file_write(const tc_graph *g, const tc_schedule *s, const char *path, tc_error *err);
TC_API int tc_program_file_detect(const char *path);
TC_API int tc_program_file_read_header(const char *path, tc_program_file_header *hdr, tc_error *err);
TC_API int tc_program_file_read(const char *path, int32_t rank, tc_program_file_header *hdr, tc_program *out,
                                tc_error *err);

#endif
