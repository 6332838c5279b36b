# Arbiter — MIT licence, see LICENSE.
# bash completion for arbiter: the commands (from `arbiter --help`), each command's options
# (from `arbiter COMMAND --help`, so they never fall behind), the subcommands of pgn, puzzles, quiz, train
# and quiz, the names of rule sets, goals, formats and colours, and files.
_arbiter() {
  local cur prev cmd opts
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    opts=$(arbiter --help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
    COMPREPLY=($(compgen -W "$opts --help --version" -- "$cur"))
    return
  fi
  cmd=${COMP_WORDS[1]}
  case $prev in
  --rules) COMPREPLY=($(compgen -W "fide fide-rapid fide-blitz uscf online casual" -- "$cur")); return ;;
  --goal) COMPREPLY=($(compgen -W "mate draw" -- "$cur")); return ;;
  --to) COMPREPLY=($(compgen -W "pgn uci lan fen jsonl" -- "$cur")); return ;;
  --color) COMPREPLY=($(compgen -W "white black random" -- "$cur")); return ;;
  --db | -o | --static | --state-dir | --pgn | --port-file | --export | --epd | --engine | --from | --puzzles | --quiz)
    COMPREPLY=($(compgen -f -- "$cur"))
    return
    ;;
  esac
  if [ "$COMP_CWORD" -eq 2 ]; then
    case $cmd in
    pgn) COMPREPLY=($(compgen -W "check convert filter" -- "$cur")); return ;;
    puzzles) COMPREPLY=($(compgen -W "mine check" -- "$cur")); return ;;
    quiz) COMPREPLY=($(compgen -W "make check topics" -- "$cur")); return ;;
    train) COMPREPLY=($(compgen -W "puzzles quiz diagnostic review --stats" -- "$cur")); return ;;
    esac
  fi
  case $cur in
  -*)
    opts=$(arbiter "$cmd" --help 2>/dev/null | grep -o -- '-[-a-zA-Z0-9][-a-zA-Z0-9]*' | sort -u)
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    ;;
  *) COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}
complete -o filenames -F _arbiter arbiter
