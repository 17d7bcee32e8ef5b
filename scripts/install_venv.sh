#!/bin/sh
# Install requirements.lock and the project (editable) into a fresh venv.
#
#   scripts/install_venv.sh VENV [uv|pip] [UV_VERSION]
#
# With uv (the default) it installs uv==UV_VERSION into the venv with pip, then the lock with uv:
# seconds instead of a minute. When uv cannot be installed or fails, or with "pip", it falls back
# to pip, the way the project installed before. Run by `make setup`; stops at the first error.
set -eu
venv=$1
installer=${2:-uv}
uv_version=${3:-}
py="$venv/bin/python"
pip="$py -m pip --disable-pip-version-check"

with_uv() {
    spec=uv${uv_version:+==$uv_version}
    if ! said=$($pip install --quiet "$spec" 2>&1); then
        last=$(printf '%s\n' "$said" | grep -v '^WARNING: ' | tail -n 1)
        echo "setup: $spec could not be installed ($last); installing with pip instead" >&2
        return 1
    fi
    if ! "$venv/bin/uv" pip install --quiet --python "$py" -r requirements.lock \
        || ! "$venv/bin/uv" pip install --quiet --python "$py" --no-deps -e .; then
        echo "setup: uv failed (its error is above); installing with pip instead" >&2
        return 1
    fi
}

with_pip() {
    $pip install --quiet --upgrade pip
    $pip install --quiet -r requirements.lock
    $pip install --quiet --no-deps -e .
}

case "$installer" in
    uv) with_uv || with_pip ;;
    pip) with_pip ;;
    *) echo "error: INSTALLER must be uv or pip, not '$installer'" >&2; exit 2 ;;
esac
