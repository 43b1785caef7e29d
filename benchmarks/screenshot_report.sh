#!/usr/bin/env bash
# Render the HTML strictness report in headless Chromium (Debian package `chromium`) and
# save a screenshot, to look at the grid as a person would.
#   bash benchmarks/screenshot_report.sh [report.html] [out.png]
set -euo pipefail
page="${1:-docs/generated/strictness.html}"
out="${2:-report/strictness.png}"
mkdir -p "$(dirname "$out")"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$(mktemp -d)" --hide-scrollbars --window-size=1400,900 \
  --screenshot="$out" "file://$(realpath "$page")" 2>/dev/null
echo "wrote $out"
