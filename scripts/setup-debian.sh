#!/usr/bin/env bash
# Installs the Debian packages rubrica's tests need, so that on a fresh Debian (or Ubuntu)
# machine the README's install command and `npm test` are all it takes. Run as root (or
# with sudo); does nothing when everything is already there. Node ≥ 20.9 and npm are not
# installed here: use your usual source for them.
#  - chromium: the real browser the report tests drive (never a browser download)
#  - python3-cairosvg: the papers' renderer, the reference for fidelity tests and bench:render
#  - fonts-dejavu-core, fonts-dejavu-extra: the one font set every renderer is pinned to
#    (src/core/fonts.ts), so text renders the same everywhere; -extra has the italics
#  - fonts-noto-core (12 MB download), fonts-wqy-microhei (1.6 MB), fonts-symbola (1.3 MB):
#    the pinned fallback chain after DejaVu (src/core/font-chain.ts): Arabic, Hebrew, Indic,
#    Thai and other scripts; CJK and Hangul; emoji and symbols
#  - bubblewrap: the `bwrap` sandbox for renderers that run outside Node
#  - python3-matplotlib, python3-pandas: the python domain (docs/domains.md)
#  - texlive-latex-base/-recommended/-extra, texlive-pictures, poppler-utils: the latex
#    domain (pdflatex with TikZ, pgfplots and standalone; pdftoppm)
#  - graphviz: the dot domain
#  - lilypond: the lilypond domain (≈ 13 MB download, ≈ 40 s to install; brings ghostscript)
#  - python3-rdkit: the smiles domain (≈ 25 MB download, ≈ 20 s to install)
#  - redis-server: the shared answer cache and judge budget (docs/scale.md); tests start
#    their own on a loopback port, never the system service
#  - nginx-light: the balancer in front of replicas (docs/scale.md); tests start their own
#  - slurm-wlm, munge: a real Slurm job array for sharded jobs (docs/sharding.md); the test
#    starts its own munged, slurmctld and slurmd on free loopback ports with its own key and
#    slurm.conf, never the system services (Debian ships no slurm.conf: those do not start)
#  - librsvg2-bin: `rsvg-convert`, the fresh-process baseline of bench:domains' svg row
set -euo pipefail

missing=()
command -v chromium >/dev/null || missing+=(chromium)
/usr/bin/python3 -c 'import cairosvg' 2>/dev/null || missing+=(python3-cairosvg)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf ] || missing+=(fonts-dejavu-extra)
[ -e /usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf ] || missing+=(fonts-noto-core)
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing+=(fonts-wqy-microhei)
[ -e /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf ] || missing+=(fonts-symbola)
command -v bwrap >/dev/null || missing+=(bubblewrap)
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || missing+=(python3-matplotlib)
/usr/bin/python3 -c 'import pandas' 2>/dev/null || missing+=(python3-pandas)
command -v pdflatex >/dev/null || missing+=(texlive-latex-base texlive-latex-recommended)
kpsewhich standalone.cls >/dev/null 2>&1 || missing+=(texlive-latex-extra)
kpsewhich pgfplots.sty >/dev/null 2>&1 || missing+=(texlive-pictures)
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
command -v dot >/dev/null || missing+=(graphviz)
command -v lilypond >/dev/null || missing+=(lilypond)
/usr/bin/python3 -c 'import rdkit' 2>/dev/null || missing+=(python3-rdkit)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && command -v sbatch >/dev/null || missing+=(slurm-wlm)
[ -x /usr/sbin/munged ] && [ -x /usr/sbin/mungekey ] || missing+=(munge)
command -v rsvg-convert >/dev/null || missing+=(librsvg2-bin)
command -v fc-match >/dev/null || missing+=(fontconfig)

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-debian: all test packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup-debian: missing ${missing[*]}; run as root: sudo bash $0" >&2
  exit 1
fi
echo "setup-debian: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
