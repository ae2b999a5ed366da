# commands.awk — the plan of commands.sh: reads the manifest (commands.txt, the
# first file), then the docs, and writes one directory per command under
# `plan`: where (FILE:LINE), file, command, output (the documented lines after
# a "$ " command) and the manifest's skip, run_as, status, exact, needs.
# Fails (exit 1, one line each) on a manifest entry no command matches and on
# a manifest line it cannot read.

function put(name, text) {
    printf "%s\n", text > (dir "/" name)
    close(dir "/" name)
}

# Ends the "$ " command being read: its documented output is complete.
function finish() {
    if (open_output) {
        printf "%s", output > (dir "/output")
        close(dir "/output")
    }
    open_output = 0
}

function command(text, kind,    key, n, k, word, value, lines) {
    finish()
    count++
    dir = plan "/" count
    system("mkdir -p '" dir "'")
    key = FILENAME ": " text
    put("where", FILENAME ":" FNR)
    put("file", FILENAME)
    put("command", text)
    if (key in entry) {
        used[key] = 1
        n = split(entry[key], lines, "\n")
        for (k = 1; k <= n; k++) {
            word = lines[k]
            sub(/:.*/, "", word)
            value = lines[k]
            sub(/^[a-z-]+: */, "", value)
            if (word == "run-as")
                word = "run_as"
            if (word == "exact") {
                put("status", value)
                put("exact", "yes")
            } else {
                put(word, value)
            }
        }
    }
    output = ""
    open_output = kind == "$"
}

# The manifest: "FILE: COMMAND" lines, each followed by indented "WORD: VALUE" lines.
FNR == NR {
    if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/)
        next
    if ($0 ~ /^[^ \t]/) {
        current = $0
        order[++entries] = current
        entry[current] = ""
        next
    }
    line = $0
    sub(/^[ \t]+/, "", line)
    if (line ~ /^#/)
        next
    if (current == "" || line !~ /^(skip|run-as|status|exact|needs): /) {
        printf "commands.txt:%d: expected 'skip:', 'run-as:', 'status:', 'exact:' or 'needs:' under a 'FILE: COMMAND' line, got '%s'\n", FNR, line
        bad = 1
        next
    }
    entry[current] = entry[current] (entry[current] == "" ? "" : "\n") line
    next
}

FNR == 1 {
    finish()
    fence = 0
}

/^```/ {
    finish()
    if (!fence) {
        fence = 1
        lang = substr($0, 4)
    } else {
        fence = 0
    }
    next
}

!fence { next }

lang ~ /^(sh|bash|console|shell)$/ {
    if ($0 !~ /^[ \t]*(#|$)/)
        command($0, "sh")
    next
}

lang == "" && /^\$ / {
    command(substr($0, 3), "$")
    next
}

open_output {
    output = output $0 "\n"
}

END {
    finish()
    for (k = 1; k <= entries; k++) {
        if (!(order[k] in used)) {
            printf "commands.txt: no command of the docs is '%s' (the docs changed: update the entry)\n", order[k]
            bad = 1
        }
    }
    exit bad
}
