#!/usr/bin/env bash
# Regenerates docs/report.png, the README's picture of the HTML report: runs
# the browser test (tests/browser.rs), which renders the README example's
# raw data (docs/example-raw.csv) with `bestreport --export-html` in headless
# Chromium and saves a full-page screenshot, then copies it into docs/.
# Needs the Debian packages chromium and chromium-driver.
set -euo pipefail
cd "$(dirname "$0")/.."
CI=1 cargo test --quiet --test browser the_html_report_renders_in_chromium
cp target/browser/report.png docs/report.png
echo "docs/report.png updated"
