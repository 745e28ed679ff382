#!/usr/bin/env bash
# mmdebstrap's hooks for container/build.sh's .deb reuse. Not meant to be run by hand.
#   deb_cache.sh in ROOT    (setup hook) hard-links the .debs of TB_IMAGE_HOST_DEBS (the host's
#                           apt cache; skipped when on another file system) and of
#                           TB_IMAGE_DEB_CACHE (a copy there) into ROOT's apt cache
#   deb_cache.sh out ROOT   (customize hook) keeps in TB_IMAGE_DEB_CACHE the .debs apt
#                           downloaded (those in neither place), for the next build
# mmdebstrap empties ROOT's apt cache before it packs the tarball.
set -euo pipefail
mode=${1:?usage: deb_cache.sh in|out ROOT}
root=${2:?usage: deb_cache.sh in|out ROOT}
archives=$root/var/cache/apt/archives
mkdir -p "$archives"
say() { echo "deb_cache.sh: $*"; }
case $mode in
  in)
    host=0 cached=0
    if [ -n "${TB_IMAGE_HOST_DEBS:-}" ] && compgen -G "$TB_IMAGE_HOST_DEBS/*.deb" >/dev/null; then
      if cp -aln "$TB_IMAGE_HOST_DEBS"/*.deb "$archives/" 2>/dev/null; then
        host=$(find "$TB_IMAGE_HOST_DEBS" -maxdepth 1 -name '*.deb' | wc -l)
      else
        say "cannot hard-link $TB_IMAGE_HOST_DEBS's .debs (another file system): not reused"
      fi
    fi
    if [ -n "${TB_IMAGE_DEB_CACHE:-}" ] && compgen -G "$TB_IMAGE_DEB_CACHE/*.deb" >/dev/null; then
      cp -aln "$TB_IMAGE_DEB_CACHE"/*.deb "$archives/" 2>/dev/null || cp -an "$TB_IMAGE_DEB_CACHE"/*.deb "$archives/"
      cached=$(find "$TB_IMAGE_DEB_CACHE" -maxdepth 1 -name '*.deb' | wc -l)
    fi
    say "offered apt $host .debs of the host's cache and $cached of ${TB_IMAGE_DEB_CACHE:-no cache}"
    ;;
  out)
    [ -n "${TB_IMAGE_DEB_CACHE:-}" ] || exit 0
    mkdir -p "$TB_IMAGE_DEB_CACHE"
    saved=0
    for deb in "$archives"/*.deb; do
      [ -e "$deb" ] || continue
      name=$(basename "$deb")
      [ -e "${TB_IMAGE_HOST_DEBS:-/nonexistent}/$name" ] || [ -e "$TB_IMAGE_DEB_CACHE/$name" ] && continue
      cp -al "$deb" "$TB_IMAGE_DEB_CACHE/" 2>/dev/null || cp -a "$deb" "$TB_IMAGE_DEB_CACHE/"
      saved=$((saved + 1))
    done
    say "apt downloaded $saved .debs this time; kept in $TB_IMAGE_DEB_CACHE for the next build"
    ;;
  *) echo "usage: deb_cache.sh in|out ROOT" >&2; exit 2 ;;
esac
