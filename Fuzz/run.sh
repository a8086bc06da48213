#!/usr/bin/env bash
# Runs each libFuzzer target for FUZZ_SECONDS (default 600) on a corpus
# seeded from the test fixtures, then writes Fuzz/RESULTS.md with the
# executions and coverage each reached. Crashes are saved in Fuzz/findings/
# and make the script fail.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${FUZZ_SECONDS:-600}
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
swift build "${flags[@]}"
mkdir -p corpus/tracks corpus/fit corpus/surveys corpus/tables corpus/accel corpus/devices findings logs
cp ../Tests/IngestTests/Fixtures/*.gpx ../Tests/IngestTests/Fixtures/*.tcx corpus/tracks/ 2>/dev/null || true
cp ../Datasets/pem-walk/*.gpx corpus/tracks/ 2>/dev/null || true
cp ../Tests/IngestTests/Fixtures/fit/*.fit corpus/fit/ 2>/dev/null || true
cp ../Tests/SurveysTests/Fixtures/*.csv ../Datasets/surveys/*.csv corpus/surveys/ 2>/dev/null || true
cp ../Tests/IngestTests/Fixtures/accel/*.csv corpus/accel/ 2>/dev/null || true
cp ../Datasets/device-files/*.cwa ../Datasets/device-files/*.bin ../Datasets/device-files/*.gt3x corpus/devices/ 2>/dev/null || true
cp ../Datasets/reference/*.csv ../Datasets/met/*.csv ../Tests/IngestTests/Fixtures/*.csv corpus/tables/ 2>/dev/null || true
status=0
for pair in FuzzTracks:tracks FuzzFIT:fit FuzzSurveys:surveys FuzzReferenceTables:tables FuzzAccelerometer:accel FuzzDeviceFiles:devices; do
  target=${pair%%:*}
  corpus=${pair##*:}
  .build/debug/$target corpus/$corpus -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=findings/$target- -print_final_stats=1 > logs/$target.log 2>&1 &
done
wait || status=1
{
  echo "# Fuzzing results"
  echo
  echo "libFuzzer with AddressSanitizer, \`make fuzz\` (FUZZ_SECONDS=$seconds, the six targets at once on $(nproc) cores), $(date -u +%Y-%m-%d)."
  echo
  echo "| target | reader | runs | coverage (edges) | features | crashes, leaks, timeouts |"
  echo "| --- | --- | ---: | ---: | ---: | --- |"
  for pair in FuzzTracks:GPX/TCX FuzzFIT:FIT FuzzSurveys:survey\ exports FuzzReferenceTables:reference\ tables,\ subjects,\ MET \
    FuzzAccelerometer:accelerometer\ CSV FuzzDeviceFiles:device\ files\ \(CWA,\ GENEActiv,\ GT3X\); do
    target=${pair%%:*}
    reader=${pair#*:}
    log=logs/$target.log
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    found=$(ls findings | grep -c "^$target-" || true)
    echo "| $target | $reader | ${runs:-?} | ${cov:-?} | ${ft:-?} | ${found} |"
  done
} > RESULTS.md
cat RESULTS.md
if ls findings | grep -q .; then echo "findings in Fuzz/findings" >&2; exit 1; fi
exit $status
