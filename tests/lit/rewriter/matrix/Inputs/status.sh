#!/bin/sh
# Runs a command and prints its exit status last, so that a comparison of
# outputs compares the statuses too.
"$@"
echo "status=$?"
