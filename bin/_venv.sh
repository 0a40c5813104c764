# Sourced by bin/serve and bin/test: make .venv and install the project into it.
# Usage: ensure_venv ""      (runtime deps)   or   ensure_venv "dev"   (runtime + dev)
# The install is skipped when .venv/.install-stamp records the sha256 of the
# current pyproject.toml for that extra (a dev install also satisfies "").

ensure_venv() {
    local extra="$1" want have target
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
    have="$(cat .venv/.install-stamp 2>/dev/null || true)"
    if [ -x .venv/bin/python ] && { [ "$have" = "$want dev" ] || [ "$have" = "$want $extra" ]; }; then
        return 0
    fi
    if [ ! -x .venv/bin/python ]; then
        echo "creating .venv" >&2
        python3 -m venv .venv
    fi
    target="."
    [ -n "$extra" ] && target=".[$extra]"
    echo "installing -e $target into .venv" >&2
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$target"
    echo "$want $extra" > .venv/.install-stamp
}
