# bash completion for topocoll — installed as share/bash-completion/completions/topocoll
# (bash-completion loads it the first time `topocoll <TAB>` is pressed); without
# bash-completion, `source` it from ~/.bashrc.
#
# It knows nothing by heart: the commands are the ones `topocoll --help` lists, a command's
# options the --words of `topocoll help CMD`, and an option's values the choices its help
# spells "--opt a|b|c" — so it cannot fall behind the CLI it completes. Anything else
# (a spec, a file) completes as a file name.

_topocoll_commands() {
  "$1" --help 2>/dev/null | awk '/^commands:$/ { on = 1; next } on && !NF { exit } on { print $1 }'
}

_topocoll() {
  local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} words
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    words="$(_topocoll_commands "$prog") help --help --version"
  elif [ "$COMP_CWORD" -eq 2 ] && [ "${COMP_WORDS[1]}" = help ]; then
    words=$(_topocoll_commands "$prog")
  else
    local help prev=${COMP_WORDS[COMP_CWORD - 1]}
    help=$("$prog" help "${COMP_WORDS[1]}" 2>/dev/null) || return 0
    if [[ $cur == -* ]]; then
      words=$(grep -o -e '--[a-z0-9][a-z0-9-]*' <<<"$help" | sort -u)
    elif [[ $prev == --* ]]; then
      # the first "PREV a|b|c" of the help: its choices
      words=$(grep -o -e "$prev [A-Za-z0-9_.]*|[A-Za-z0-9_.|]*" <<<"$help" | head -1)
      words=${words#"$prev "}
      words=${words//|/ }
    fi
  fi
  if [ -n "$words" ]; then
    # shellcheck disable=SC2207
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    # shellcheck disable=SC2207
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _topocoll topocoll
