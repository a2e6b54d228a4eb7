#!/bin/sh
# The check of docs/ci.md's GitHub Actions workflow, as a script any machine runs: is the
# candidate better than the pool? Exit 0 passed, 4 failed, 5 inconclusive (docs/ci.md).
#
#   sh examples/ci/check.sh [CANDIDATE [POOL BOT ...]]
#
# By default the candidate is the shipped bots/stc/bot0.py and the pool the other shipped
# Smash The Code bots. GAMES (default 2000) caps the games; ELO1 (default 5) is the margin.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
candidate=${1:-"python3 $here/bots/stc/bot0.py"}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ]; then
    set -- "python3 $here/bots/stc/greedy.py" "python3 $here/bots/stc/enemy.py" \
        "python3 $here/bots/stc/random_bot.py"
fi
exec arena check stc "candidate=$candidate" --against "$@" \
    --clock cpu --concurrency 1 --games "${GAMES:-2000}" --elo1 "${ELO1:-5}" \
    --json verdict.json --no-progress
