function __bluelib_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __bluelib_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __bluelib_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __bluelib_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __bluelib_parse_tokens -S
    set -l unparsed_tokens (__bluelib_tokens -pc)
    switch $unparsed_tokens[1]
    case 'bluelib'
        __bluelib_parse_subcommand 0 'home=' 'c=+' 'script=' 'downloads=' 'download-timeout=' 'graphics=' 'mpd=' 'subsonic=' 'bail' 'no-color' 'no-pager' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __bluelib_parse_subcommand -r 1 'version'
        end
    end
end

function __bluelib_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __bluelib_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __bluelib_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __bluelib_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__bluelib_tokens -p)
    if test -z "$(__bluelib_tokens -t)"
        set -l index (count (__bluelib_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'bluelib' -f
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" home' -l 'home' -d 'Keep every file (library, state, history, cover cache) under DIR.' -rfa '(__bluelib_complete_directories)'
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib"' -s 'c' -d 'Run COMMANDS (separated by \';\' or newlines), then exit; several -c run in order.' -rfka ''
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" script' -l 'script' -d 'Run the commands in FILE, then exit.' -rF
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" downloads' -l 'downloads' -d 'Cover downloads at once (1-64).' -rfka ''
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" download-timeout' -l 'download-timeout' -d 'Seconds before a cover download fails.' -rfka ''
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" graphics' -l 'graphics' -d 'How covers are drawn: in pixels (kitty, sixel, iterm), half blocks, none, or auto: ask the terminal (also BLUELIB_GRAPHICS).' -rfka 'auto kitty sixel iterm blocks none'
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" mpd' -l 'mpd' -d 'Browse and play the albums of the MPD server at HOST[:PORT] or SOCKET, PASSWORD@ in front (alone: MPD_HOST and MPD_PORT, else localhost:6600).' -rfka ''
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" subsonic' -l 'subsonic' -d 'Browse, play, star and rate the albums of the Subsonic or OpenSubsonic server at URL (https://USER@HOST[:PORT][/PATH]; http on this machine only); the password from BLUELIB_SUBSONIC_PASSWORD, else asked for, or an API key from BLUELIB_SUBSONIC_API_KEY.' -rfka ''
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" bail' -l 'bail' -d 'Stop at the first failing command (script mode).'
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" no-color' -l 'no-color' -d 'Print no colour (also NO_COLOR, TERM=dumb).'
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" no-pager' -l 'no-pager' -d 'Print output taller than the window as it is, not through $PAGER (also PAGER=).'
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" version' -l 'version' -d 'Show the version.'
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_positional "bluelib" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'bluelib' -n '__bluelib_should_offer_completions_for_flags_or_options "bluelib help" version' -l 'version' -d 'Show the version.'
