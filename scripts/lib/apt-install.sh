# Sourced by the scripts that make a Debian package available (ensure-chromium.sh, ensure-jemalloc.sh, ensure-nft.sh,
# ensure-prometheus.sh).
# apt_install NAME PACKAGE: installs PACKAGE with `apt-get install -y --no-install-recommends` when this is a Debian-like
# system (apt-get on PATH) and the script runs as root (CI does, with no standard input); the package lists are
# refreshed once when the first attempt fails. Returns 1, with the reason on standard error prefixed by NAME, when it
# cannot (no apt-get, not root, no registry). The caller checks afterwards that what it needs is there.
apt_install() {
  local name=$1 package=$2
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$name: no apt-get to install Debian's $package package" >&2
    return 1
  fi
  if [[ $(id -u) -ne 0 ]]; then
    echo "$name: installing Debian's $package package needs root (apt-get install -y $package)" >&2
    return 1
  fi
  echo "$name: installing Debian's $package package" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y --no-install-recommends "$package" </dev/null >&2; then
    apt-get update </dev/null >&2 && apt-get install -y --no-install-recommends "$package" </dev/null >&2
  fi
}
