# bash completion for greslint                                  -*- shell-script -*-
# SPDX-License-Identifier: Apache-2.0
# Installed by `cmake --install` to share/bash-completion/completions/greslint.
# tests/completion/test_completion.py checks that every command and option of
# `greslint --help` and `greslint COMMAND --help` is here.

_greslint_options() {
    local common="-h --help -v --verbose"
    case $1 in
        lint)
            echo "$common --slurm-version --format -o --output --fail-level --select --ignore --nodes --color -q --quiet --severity --config --no-config --prefix-map --min-severity --statistics --baseline --write-baseline --limits" ;;
        nodes)
            echo "$common --slurm-version --format -o --output --fail-level --select --ignore --nodes --color -q --quiet --severity --config --no-config --prefix-map --verdict" ;;
        node-check)
            echo "$common --node --sysroot --suggest --inventory --slurm-version --format -o --output --fail-level --select --ignore --color -q --quiet --severity --config --no-config --prefix-map" ;;
        hostlist)
            echo "$common -e --expand -f --fold -c --count --slurm-version" ;;
        rules)
            echo "$common --format" ;;
        explain)
            echo "$common" ;;
        diff)
            echo "$common --git --slurm-version --format -o --output --fail-level --select --ignore --severity --config --no-config" ;;
        why)
            echo "$common --conf --state --slurm-version --format -o --output --no-drift -q --quiet" ;;
        limits)
            echo "$common --cluster --slurm-version --format -o --output --fail-level --select --ignore --color -q --quiet --severity --config --no-config --prefix-map" ;;
        job)
            echo "$common --cluster --args --limits --running --user --account --slurm-version --format -o --output --fail-level --select --ignore --color -q --quiet --severity --config --no-config --prefix-map" ;;
        upgrade)
            echo "$common --to --slurm-version --format -o --output --fail-level --select --ignore --severity --config --no-config" ;;
    esac
}

_greslint() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
    fi
    local commands="lint nodes node-check hostlist rules explain diff upgrade why job limits help"
    local releases="22.05 23.02 23.11 24.05 24.11 25.05 25.11 26.05"

    # The command is the first word that is not an option; without one, greslint lints.
    local cmd="" i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -*) ;;
            *) cmd=${words[i]}; break ;;
        esac
    done
    case " $commands " in
        *" $cmd "*) ;;
        *) cmd=lint ;;
    esac

    case $prev in
        --format)
            case $cmd in
                nodes | why) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
                rules) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
                diff | upgrade) COMPREPLY=($(compgen -W "text json markdown" -- "$cur")) ;;
                *) COMPREPLY=($(compgen -W "text concise json sarif github junit gitlab" -- "$cur")) ;;
            esac
            return ;;
        --fail-level) COMPREPLY=($(compgen -W "error warning note never" -- "$cur")); return ;;
        --min-severity) COMPREPLY=($(compgen -W "error warning note" -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --slurm-version | --to) COMPREPLY=($(compgen -W "$releases" -- "$cur")); return ;;
        --verdict) COMPREPLY=($(compgen -W "ok degraded drain slurmd-fatal slurmctld-fatal" -- "$cur")); return ;;
        --select | --ignore)
            local ids
            ids=$(greslint rules 2>/dev/null | awk '/^GRS/ {print $1}')
            COMPREPLY=($(compgen -W "$ids" -- "$cur"))
            return ;;
        -o | --output | --config | --baseline | --write-baseline | --inventory | --conf | --state)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --sysroot) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --cluster) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --nodes | --node | --severity | --prefix-map | --git | --args) return ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_greslint_options "$cmd")" -- "$cur"))
        [[ $cmd == lint && $cword -le 1 ]] && COMPREPLY+=($(compgen -W "--version" -- "$cur"))
        return
    fi
    if [[ $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur") $(compgen -d -- "$cur"))
        return
    fi
    case $cmd in
        explain)
            local ids
            ids=$(greslint rules 2>/dev/null | awk '/^GRS/ {print $1}')
            COMPREPLY=($(compgen -W "$ids" -- "$cur")) ;;
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
        hostlist | why) ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}

complete -F _greslint greslint
