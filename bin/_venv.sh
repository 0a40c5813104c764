# Sourced by bin/serve and bin/test: make .venv and install the project into it.
# Usage: ensure_venv ""      (runtime deps)   or   ensure_venv "dev"   (runtime + dev)
# The install is skipped when .venv/.install-stamp records the sha256 of the
# current pyproject.toml for that extra (a dev install also satisfies "").
# Each step says what it does on stderr, prefixed with the script's name.

say() {
    echo "bin/${0##*/}: $*" >&2
}

ensure_venv() {
    local extra="$1" want have target started
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
    have="$(cat .venv/.install-stamp 2>/dev/null || true)"
    if [ -x .venv/bin/python ] && { [ "$have" = "$want dev" ] || [ "$have" = "$want $extra" ]; }; then
        return 0
    fi
    started=$SECONDS
    if [ ! -x .venv/bin/python ]; then
        say "creating .venv with $(command -v python3)"
        python3 -m venv .venv
    fi
    target="."
    [ -n "$extra" ] && target=".[$extra]"
    say "installing -e $target into .venv with pip (pyproject.toml changed or first run; about a minute)"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$target"
    echo "$want $extra" > .venv/.install-stamp
    say ".venv ready ($((SECONDS - started)) s)"
}
