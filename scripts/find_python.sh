#!/bin/sh
# Print "<interpreter path> <major.minor>" for the Python the Makefile was asked for ($1: a name
# such as python3.12, or a path), or nothing when there is none that runs.
#
# A name that does not run as such (a pyenv shim for a version that is installed but not
# selected, say) is looked up among pyenv's versions: python3.12 -> the newest
# $PYENV_ROOT/versions/3.12.*/bin/python3.12.
want=${1:-python3.11}
probe() {
    "$1" -c 'import sys; print(sys.executable, "%d.%d" % sys.version_info[:2])' 2>/dev/null
}
if found=$(probe "$want") && [ -n "$found" ]; then
    echo "$found"
    exit 0
fi
name=$(basename "$want")
case "$name" in
    python3.[0-9]|python3.[0-9][0-9]) ;;
    *) exit 0 ;;
esac
minor=${name#python}
root=${PYENV_ROOT:-}
if [ -z "$root" ]; then
    root=$(pyenv root 2>/dev/null) || root="$HOME/.pyenv"
fi
for candidate in $(ls -d "$root"/versions/"$minor".*/bin/"$name" 2>/dev/null | sort -r -V); do
    if found=$(probe "$candidate") && [ -n "$found" ]; then
        echo "$found"
        exit 0
    fi
done
exit 0
