#!/usr/bin/env bash
# Fills tests/fuzz/corpus/<target>/ (git-ignored) with seed inputs: the bundled scores and plans,
# the real scores in ../shared/scores/real, the regression fixtures, the CMU captures Debian's
# assimp-testmodels installs (cut to their first frames) and the small shared meshes.
# Run from the repository root: bash tests/fuzz/seed.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus=tests/fuzz/corpus
shared=../shared
mkdir -p "$corpus"/{lbn,json,lw,plan,bvh,mesh}
copy() { # copy TARGET FILE...: each file under a name made of its path
    local target=$1; shift
    for f in "$@"; do [ -f "$f" ] && cp "$f" "$corpus/$target/$(echo "${f#../}" | tr '/ ' '__')"; done
    return 0
}
shopt -s nullglob globstar
copy lbn scores/*.lbn tests/fixtures/fuzz/*.lbn "$shared"/scores/real/**/*.lbn
copy json tests/fixtures/fuzz/*.json "$shared"/scores/real/**/*.json
copy lw scores/*.lw tests/fixtures/lw/**/*.lw
copy plan scores/ensemble/*.toml tests/fixtures/fuzz/*.toml
copy bvh tests/fixtures/bvh/*.bvh
copy mesh tests/fixtures/fuzz/*.obj "$shared"/meshes/anny-notoes-3pc.obj
# The CMU captures, cut to 8 frames (a fuzz input stays small).
for f in /usr/share/assimp/models/BVH/*.bvh; do
    awk 'BEGIN{n=-1} /^Frames:/{print "Frames: 8"; next} /^Frame Time:/{print; n=0; next}
         n>=0{n++; if(n>8) exit} {print}' "$f" > "$corpus/bvh/cmu_$(basename "$f")"
done
# Small meshes in the other formats.
printf 'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n' \
    > "$corpus/mesh/triangle.stl"
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' \
    > "$corpus/mesh/triangle.ply"
for t in lbn json lw plan bvh mesh; do echo "$t: $(find "$corpus/$t" -type f | wc -l) seeds"; done
