#!/bin/sh
# Installs the Debian packages named on the command line that are not
# installed yet; does nothing (and needs no network) when all are present.
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null || exit 1
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null || exit 1
