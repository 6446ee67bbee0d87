/*
** cli_options.h — a subcommand's command line, read against a table of its options.
**
** A command declares its options once, as a table of tc_cli_option (name, kind, where in its
** options struct the text and the value go), and describes itself in a tc_cli_command. Then
**   tc_cli_parse    walks argv: takes each option's text (the last one given wins), sets
**                   flags, fills the positional slots, answers --help / -h and actions;
**   tc_cli_convert  turns the texts of the options it names into values, in the order named,
**                   so that each command keeps its own order of checks (a "missing --coll"
**                   comes before a bad --chunks, say) between conversions.
** What each command still does itself: the "missing ..." checks, defaults that depend on
** other options, and checks that tie options together ("--root applies to broadcast and
** reduce only").
**
** Guarantees (the messages every command prints, exit code 2 unless said otherwise):
**   - an option that takes a value and is last:   "--out needs a value" (or needs `needs`);
**   - a TC_CLI_PATH option given '':               "--out needs a file name, not an empty
**                                                  string" (or `needs`);
**   - "--..." not in the table:                    "unknown option '--frob'";
**   - a positional argument with no slot left:    the command's `extra_argument` message;
**   - --help or -h anywhere before an error:       the command's help, exit 0; the same for
**     an action option (TC_CLI_ACTION, e.g. `sched --list`);
**   - a bad integer:  "--iters expects an integer in 1..1000000, got '0'" (a usage error);
**   - a bad quantity: "--alpha: <what units.h says>" (tc_cli_fail, no pointer to help);
**   - a bad choice:   "--op must be sum, max or min, got 'prod'" (a usage error).
** Every command also takes --max-memory SIZE (TC_CLI_MAX_MEMORY), read by tc_cli_parse
** itself: it sets the process's memory limit (topocoll/budget.h) that work estimated to need
** more is refused against, naming this option; a bad SIZE is "--max-memory: <units.h's
** message>" (units.h refuses 0: "size \"0\" must be positive"). Commands list it in
** their help with TC_CLI_MAX_MEMORY_HELP.
** Options and positional arguments may come in any order; an argument that does not start
** with "--" (including "-x", but not "-h") is positional, and the one after an option that
** takes a value is that value whatever it looks like.
*/
#ifndef TC_TOOLS_CLI_OPTIONS_H
#define TC_TOOLS_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#define TC_CLI_MAX_MEMORY "--max-memory"
#define TC_CLI_MAX_MEMORY_HELP                                                                    \
  "  --max-memory SIZE  refuse work estimated to need more memory than SIZE, e.g. 16GB\n"          \
  "                     (default: the memory available, within the cgroup's limit)\n"

/* What an option takes, and the C type of the value it stores at `value`. */
typedef enum tc_cli_kind {
  TC_CLI_FLAG,           /* no value; int, set to 1 */
  TC_CLI_ACTION,         /* no value; runs `action` at once and ends the command (exit 0) */
  TC_CLI_STRING,         /* const char *, the text itself, stored at `text` (no `value`) */
  TC_CLI_PATH,           /* like TC_CLI_STRING, a file or directory to write: never empty */
  TC_CLI_CHOICE,         /* const char *, one of `choices` */
  TC_CLI_INT,            /* int, a decimal integer in lo..hi (digits only: no sign, no space) */
  TC_CLI_INT64,          /* int64_t, likewise */
  TC_CLI_TIME,           /* double seconds (tc_units_parse_time: "10us") */
  TC_CLI_SECONDS,        /* double seconds: a time, or a bare number of seconds ("90" = "90s") */
  TC_CLI_BANDWIDTH,      /* double bytes per second (tc_units_parse_bandwidth: "25Gbps") */
  TC_CLI_SIZE,           /* int64_t bytes (tc_units_parse_size: "1MiB") */
  TC_CLI_SIZE_LIST,      /* tc_cli_size_list (tc_units_parse_size_list: "1KB..1MB,4GB") */
  TC_CLI_WEIGHTED_SIZES  /* tc_workload: its sizes and weights (tc_workload_parse_sizes) */
} tc_cli_kind;

/* The value of a TC_CLI_SIZE_LIST option; `bytes` is malloc'ed, the command frees it.
   `factor` is its ranges' step (0: doubling), set before the list is converted (--factor,
   TC_CLI_FACTOR). */
typedef struct tc_cli_size_list {
  int64_t *bytes;
  int count;
  int64_t factor;
} tc_cli_size_list;

/* --factor F of the commands that take --sizes: an TC_CLI_INT64 option whose value is the
   list's `factor`; convert it before the list. */
#define TC_CLI_FACTOR_OPTION(list_field)                                                           \
  {.name = "--factor", .kind = TC_CLI_INT64, .text = AT(factor_text), .value = AT(list_field.factor), \
   .lo = 2, .hi = 1 << 30}
#define TC_CLI_FACTOR_HELP                                                                         \
  "  --factor F      a range LO..HI runs LO, LO*F, ... below HI, then HI (default 2)\n"

/* --progress and --quiet (progress.h) of a command whose options struct `type` has the int
   fields `progress` and `quiet`; tc_cli_progress_init refuses the two together. */
#define TC_CLI_PROGRESS_OPTIONS(type)                                                              \
  {.name = "--progress", .kind = TC_CLI_FLAG, .value = offsetof(type, progress)},                \
      {.name = "--quiet", .kind = TC_CLI_FLAG, .value = offsetof(type, quiet)}

typedef struct tc_cli_option {
  const char *name;           /* "--iters" */
  tc_cli_kind kind;
  size_t text;                /* offsetof the const char * that receives the text as given
                                 (it stays NULL when the option is not given); unused by
                                 flags and actions */
  size_t value;               /* offsetof the value (of the kind's type); unused by strings */
  long long lo, hi;           /* TC_CLI_INT, TC_CLI_INT64: the range accepted */
  const char *fallback;       /* converted in place of the text when the option is not given;
                                 NULL: the value is left as the command set it */
  const char *const *choices; /* TC_CLI_CHOICE: the names accepted, NULL-terminated */
  const char *needs;          /* "--x needs <needs>" when the value is missing; NULL: "a value" */
  void (*action)(void);       /* TC_CLI_ACTION */
} tc_cli_option;

typedef struct tc_cli_command {
  const char *name;              /* "run": error lines start "topocoll run: " */
  void (*help)(void);
  const tc_cli_option *options;
  size_t noptions;
  size_t positional[2];          /* offsetof the const char * slots filled in order */
  int npositional;               /* 0, 1 or 2 */
  /* printf format for one positional argument too many: %1$s is that argument, %2$s the
     first positional one (write "%2$s ... %1$s" to quote them the other way round). */
  const char *extra_argument;
} tc_cli_command;

/* The number of entries of an option table (an array). */
#define TC_CLI_COUNT(table) (sizeof(table) / sizeof((table)[0]))

/* What tc_cli_parse returns after printing the help or running an action: the command
   stops and exits 0. */
#define TC_CLI_DONE (-1)

/* Read argv[1..argc) into opts (argv[0] is the subcommand name). Only texts, flags and
   positional slots are written, so the command sets its defaults in opts before calling.
   Returns 0, TC_CLI_DONE, or TC_EXIT_USAGE after printing the error line. */
int tc_cli_parse(const tc_cli_command *cmd, int argc, char **argv, void *opts);

/* Convert the named options (NULL-terminated list of names from cmd's table), in that
   order, each from its text, else from its fallback, else not at all. Returns 0, or the
   exit code after printing the first error line. */
int tc_cli_convert(const tc_cli_command *cmd, void *opts, ...)
#if defined(__GNUC__)
    __attribute__((sentinel))
#endif
    ;

/* A decimal integer in lo..hi, as TC_CLI_INT reads it; `what` names it in the error line
   ("--sweep N1"). Returns 0, or TC_EXIT_USAGE after printing the error line. */
int tc_cli_parse_integer(const char *cmd, const char *what, const char *text, long long lo, long long hi,
                         long long *out);

struct tc_progress;
/* "--progress and --quiet exclude each other" (exit 2) when both are set; else 0. */
int tc_cli_progress_check(const char *cmd, int progress, int quiet);
/* That check, then p initialised for `cmd` (tc_progress_init). */
int tc_cli_progress_init(struct tc_progress *p, const char *cmd, int progress, int quiet);

/* 1 if text is a number without a unit (digits and points), which TC_CLI_SECONDS reads as
   seconds. */
int tc_cli_is_bare_number(const char *text);

#endif
