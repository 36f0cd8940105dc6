#!/bin/sh
# A real collection of about a million files, for benchmarks/bench_gui_slider.py --store:
# the contents of 171 Debian 12 (bookworm) packages, each unpacked in its own folder.
#
#     sh benchmarks/real_million.sh DIR        (about 20 GB in DIR, 10 minutes)
#     python -m simgui scan --db DIR.db DIR/tree
#     python benchmarks/bench_gui_slider.py --store DIR.db --memory 2
#
# Real files of every kind a developer's disk holds (sources, headers, documentation
# in HTML and PDF, pictures, fonts, translations), and the near-copies such a disk is
# full of: the kernel headers of two releases in five flavours, LLVM 13-16, two Boost
# releases, and LibreOffice's help in 32 languages and GIMP's in 10.  On 2026-11-27 it
# gave 1,000,626 regular files (18.6 GB).  Packages the archive no longer has are skipped, and said.
set -eu
dir=${1:?usage: real_million.sh DIR}
mkdir -p "$dir/debs" "$dir/tree"
cd "$dir/debs"
for p in \
    linux-source-6.1 linux-headers-6.1.0-47-common linux-headers-6.1.0-50-common \
    linux-headers-6.1.0-47-common-rt linux-headers-6.1.0-50-common-rt \
    linux-headers-6.1.0-47-amd64 linux-headers-6.1.0-50-amd64 \
    linux-headers-6.1.0-47-rt-amd64 linux-headers-6.1.0-50-rt-amd64 \
    linux-headers-6.1.0-47-cloud-amd64 linux-headers-6.1.0-50-cloud-amd64 linux-doc-6.1 \
    papirus-icon-theme breeze-icon-theme numix-icon-theme-circle moka-icon-theme \
    faenza-icon-theme gnome-icon-theme oxygen-icon-theme tango-icon-theme \
    elementary-xfce-icon-theme adwaita-icon-theme paper-icon-theme suru-icon-theme \
    obsidian-icon-theme mate-icon-theme deepin-icon-theme yaru-theme-icon numix-icon-theme \
    texlive-fonts-extra texlive-latex-extra-doc texlive-pictures-doc texlive-latex-extra \
    texlive-science-doc texlive-pstricks-doc texlive-publishers-doc texlive-humanities-doc \
    texlive-lang-cjk texlive-lang-european texlive-lang-french texlive-lang-german \
    texlive-lang-other texlive-lang-polish texlive-lang-cyrillic texlive-lang-greek \
    texlive-lang-japanese texlive-lang-korean texlive-lang-chinese texlive-lang-arabic \
    texlive-lang-portuguese texlive-lang-spanish texlive-lang-italian \
    texlive-lang-czechslovak texlive-lang-english texlive-latex-recommended-doc \
    texlive-bibtex-extra texlive-music texlive-games texlive-formats-extra \
    texlive-metapost-doc texlive-luatex texlive-fonts-recommended-doc texlive-plain-generic \
    texlive-pictures texlive-science texlive-pstricks texlive-publishers texlive-humanities \
    golang-1.19-src libboost1.74-dev libboost1.74-doc libboost1.81-dev libboost1.81-doc \
    llvm-13-dev llvm-14-dev llvm-15-dev llvm-16-dev python3.11-doc pypy3-lib \
    libpython3.11-stdlib libpython3.11-testsuite emacs-el ruby3.1-doc perl-doc \
    qtbase5-doc-html qtdeclarative5-doc-html qttools5-doc-html qtmultimedia5-doc-html \
    rust-src libstd-rust-dev octave-doc kicad-footprints kicad-symbols \
    libreoffice-help-en-us libreoffice-help-de libreoffice-help-fr libreoffice-help-es \
    libreoffice-help-it libreoffice-help-pt libreoffice-help-nl libreoffice-help-ru \
    libreoffice-help-ja libreoffice-help-pl libreoffice-help-sv libreoffice-help-da \
    libreoffice-help-fi libreoffice-help-cs libreoffice-help-hu libreoffice-help-tr \
    libreoffice-help-zh-cn libreoffice-help-ko libreoffice-help-ca libreoffice-help-el \
    libreoffice-help-gl libreoffice-help-pt-br libreoffice-help-sk libreoffice-help-sl \
    libreoffice-help-zh-tw libreoffice-help-et libreoffice-help-eu libreoffice-help-id \
    libreoffice-help-hi libreoffice-help-km libreoffice-help-dz libreoffice-help-vi \
    libreoffice-dev-doc gimp-help-en gimp-help-de gimp-help-fr gimp-help-es gimp-help-it \
    gimp-help-ja gimp-help-ru gimp-help-sv gimp-help-nl gimp-help-pt openjdk-17-doc \
    libjs-mathjax wesnoth-1.16-data freeciv-data supertuxkart-data maxima-share gap-libs \
    python3-azure python3-azure-storage python3-botocore python3-boto3 python3-sympy \
    python3-scipy python3-numpy python3-matplotlib python3-sklearn python3-pandas \
    python3-django python3-googleapi golang-github-aws-aws-sdk-go-dev \
    golang-google-cloud-dev golang-github-google-go-github-dev librust-winapi-dev \
    libopencv-dev opencv-doc qtbase5-dev libvtk9-dev vtk9-doc libgtk-3-dev libcgal-dev \
    trilinos-dev libtrilinos-teuchos-dev wx3.2-doc ghc-doc libkf5kio-doc
do
    apt-get download "$p" >/dev/null 2>&1 || echo "not in the archive: $p"
done
for deb in *.deb; do
    name=${deb%%_*}
    mkdir -p "../tree/$name"
    dpkg -x "$deb" "../tree/$name"
done
cd ../tree/linux-source-6.1/usr/src
tar xf linux-source-6.1.tar.xz && rm linux-source-6.1.tar.xz
cd "$dir"
rm -r debs
echo "$(find tree -type f | wc -l) regular files in $dir/tree"
