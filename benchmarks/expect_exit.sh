#!/bin/sh
# expect_exit.sh CODE PATTERN COMMAND [ARG...]: runs COMMAND, shows what it printed, and passes
# when it exits with CODE and its output (stdout and stderr) matches the grep pattern PATTERN.
# The benchmark programs' tests of bad input: the exit code and the reason, both.
code=$1
pattern=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$code" ]; then
  echo "expect_exit: exit code $rc, expected $code" >&2
  exit 1
fi
if ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
  echo "expect_exit: no line matches '$pattern'" >&2
  exit 1
fi
