# Sourced by bin/serve and bin/test (after bin/_venv.sh, for `say`): Debian packages the
# project reads at run time, installed with apt-get on first use.

apt_install() {
    local package="$1" why="$2" started=$SECONDS
    say "installing Debian's $package with apt-get ($why; first run only, about a minute)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
    say "$package installed ($((SECONDS - started)) s)"
}

# Word Heist drops the proper nouns these dictionaries write capitalised
# (games/word/party/propernouns.py); a server reads them at start (the Dockerfile has them).
ensure_hunspell() {
    local dictionary
    for dictionary in en_US:hunspell-en-us es_ES:hunspell-es de_DE:hunspell-de-de; do
        if [ ! -f "/usr/share/hunspell/${dictionary%%:*}.dic" ]; then
            if [ "$(id -u)" != 0 ]; then
                say "Word Heist needs Debian's ${dictionary#*:}: run  sudo apt-get install hunspell-en-us hunspell-es hunspell-de-de"
                return 1
            fi
            apt_install "${dictionary#*:}" "Word Heist tells proper nouns by it"
        fi
    done
}
