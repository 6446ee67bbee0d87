# topocoll_man.cmake — the manual pages, made from the CLI's own --help texts so that they
# can never say something else: topocoll(1) from `topocoll --help`, and topocoll-CMD(1)
# from `topocoll help CMD` for every command that --help lists.
#   cmake -DTOPOCOLL=path/to/topocoll -DOUT=dir -DVERSION=x.y.z -P topocoll_man.cmake
# Each page is the help text verbatim in no-fill mode (.nf), so its columns stay as the
# terminal shows them, after roff's escapes: a backslash is \e, every '-' is \- (an ASCII
# hyphen-minus that can be copied into a shell, not a typographic hyphen), and a line
# that starts with '.' or "'" is protected by \& from being read as a request. No
# hyphenation, ragged right: names of commands and options are never broken.
cmake_minimum_required(VERSION 3.18)
foreach(var TOPOCOLL OUT VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "topocoll_man.cmake: -D${var}=... is required")
  endif()
endforeach()

# help_text(VAR ARGS...): the output of `topocoll ARGS`, which must succeed.
function(help_text var)
  execute_process(COMMAND ${TOPOCOLL} ${ARGN} OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "topocoll ${ARGN} failed (${rc}): ${err}")
  endif()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

function(roff_escape var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# write_page(NAME SUMMARY TEXT SEE_ALSO): OUT/NAME.1
function(write_page name summary text see_also)
  string(TOUPPER "${name}" title)
  roff_escape(summary "${summary}")
  roff_escape(text "${text}")
  roff_escape(name_escaped "${name}")
  file(WRITE "${OUT}/${name}.1"
       ".TH ${title} 1 \"\" \"topocoll ${VERSION}\" \"topocoll manual\"\n.nh\n.ad l\n"
       ".SH NAME\n${name_escaped} \\- ${summary}\n"
       ".SH DESCRIPTION\n.nf\n${text}.fi\n"
       ".SH SEE ALSO\n${see_also}\n")
endfunction()

file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
help_text(main --help)
# The command table of --help: "  NAME  SUMMARY" lines between "commands:" and a blank line.
string(REGEX MATCH "\ncommands:\n(  [^\n]+\n)+" table "${main}")
if(NOT table)
  message(FATAL_ERROR "topocoll --help lists no commands")
endif()
string(REPLACE "\n" ";" rows "${table}")
set(pages "")
foreach(row ${rows})
  if(row MATCHES "^  ([a-z0-9][a-z0-9-]*)  +(.+)$")
    set(cmd "${CMAKE_MATCH_1}")
    set(summary "${CMAKE_MATCH_2}")
    help_text(text help ${cmd})
    write_page("topocoll-${cmd}" "${summary}" "${text}" ".BR topocoll (1)")
    list(APPEND pages ".BR topocoll\\-${cmd} (1)")
  endif()
endforeach()
list(JOIN pages ",\n" see_also)
write_page(topocoll "topologies and collective-communication schedules for direct-connect clusters"
           "${main}" "${see_also}")
