#!/usr/bin/env bash
# Builds, from Debian's packages only, every image the deployment files name, so they can be
# built and run where no container registry is reachable (this is how they are tested):
#   debian:trixie-slim   debootstrap (minbase) + docker import: the base of everything below
#   postgres:17          PostgreSQL from Debian, started like the official image (POSTGRES_* env)
#   redis:8              Redis from Debian
#   nginx:1.26           nginx from Debian (configuration in /etc/nginx/conf.d/, as upstream's)
# Where Docker Hub is reachable none of this is needed: the same tags are pulled from there.
# Needs root (debootstrap), Docker and debootstrap (`apt-get install debootstrap`). An image that
# already exists is kept; `--force` rebuilds them all. Takes 2-4 minutes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
suite=${DEBIAN_SUITE:-trixie}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
base=debian:${suite}-slim
force=false
[[ ${1:-} == --force ]] && force=true

have() { [[ $force == false ]] && docker image inspect "$1" >/dev/null 2>&1; }

if have "$base"; then
  echo "$base: already built"
else
  work=$(mktemp -d /tmp/pennant-rootfs.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  echo "$base: debootstrap $suite from $mirror"
  debootstrap --variant=minbase "$suite" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; exit 1; }
  root=$work/rootfs
  cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
SOURCES
  # What the slim images leave out: manuals, documentation and translations, now and in every
  # later apt-get install; and downloaded packages are not kept.
  cat >"$root/etc/dpkg/dpkg.cfg.d/slim" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
DPKG
  cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";
APT::Install-Recommends "false";
APT
  find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  rm -rf "$root"/usr/share/{man,info,locale,lintian}/* "$root"/var/cache/apt/archives/*.deb \
    "$root"/var/lib/apt/lists/* "$root"/var/log/* "$root"/tmp/*
  tar -C "$root" --numeric-owner -c . |
    docker import --change 'ENV LANG=C.UTF-8' --change 'CMD ["bash"]' - "$base" >/dev/null
  echo "$base: imported"
fi

# The service images: each a small Dockerfile beside this script, FROM the base above.
for spec in postgres:17 redis:8 nginx:1.26; do
  if have "$spec"; then
    echo "$spec: already built"
    continue
  fi
  echo "$spec: building from Debian's packages"
  docker build -q --build-arg BASE="$base" -t "$spec" "$here/images/${spec%%:*}" >/dev/null
done
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep -E "^($base|postgres:17|redis:8|nginx:1.26) "
