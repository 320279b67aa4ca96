# Sourced by the scripts: makes cmocka findable. Uses the system's when there
# is one; otherwise unpacks the Debian packages in .deps/ (for machines with
# no network, fetched beforehand with `apt-get download libcmocka0
# libcmocka-dev`); otherwise installs them with apt.
cuperm_find_cmocka() {
  pkg-config --exists cmocka 2>/dev/null && return 0
  if ls .deps/libcmocka*.deb >/dev/null 2>&1; then
    local root=/tmp/cuperm-deps pc
    for f in .deps/libcmocka*.deb; do dpkg -x "$f" "$root"; done
    pc="$root/usr/lib/x86_64-linux-gnu/pkgconfig"
    sed -i "s|/usr/|$root/usr/|g" "$pc/cmocka.pc"
    export PKG_CONFIG_PATH="$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    return 0
  fi
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  echo "setup: installing libcmocka-dev"
  $sudo apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libcmocka-dev >/dev/null
}
