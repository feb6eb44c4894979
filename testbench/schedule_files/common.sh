# Shared by check_bad.sh and check_good.sh (sourced): the binary, a scratch folder, the tally.
WORMNET=${WORMNET:?set WORMNET to the wormnet binary}
HERE=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
failures=()

# The closing line ctest and CI read, and the exit code.
finish() {
  echo "$passed passed, $failed failed"
  if [[ $failed -gt 0 ]]; then
    printf 'failed: %s\n' "${failures[@]}"
    exit 1
  fi
}
