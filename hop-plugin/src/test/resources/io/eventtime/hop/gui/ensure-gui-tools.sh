#!/bin/sh
# Installs what the GUI test needs to run HopGui headless, only when something is missing:
# Xvfb (a virtual X display), GTK 3 (SWT's toolkit), xdotool and ImageMagick (screenshots).
set -e
missing=""
command -v Xvfb >/dev/null 2>&1 || missing="$missing xvfb"
command -v xdotool >/dev/null 2>&1 || missing="$missing xdotool"
command -v import >/dev/null 2>&1 || missing="$missing imagemagick"
ldconfig -p 2>/dev/null | grep -q 'libgtk-3.so.0' || missing="$missing libgtk-3-0"
if [ -z "$missing" ]; then
  exit 0
fi
echo "installing:$missing"
if [ "$(id -u)" != "0" ]; then
  echo "not root: install$missing yourself (apt-get install -y$missing)" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
