#!/usr/bin/env bash
# Creates the DEMO staff accounts, one per role, in the configured orders database.
# Demo only: these passwords are public (README). Never run this against real data.
# Usage: packaging/demo-accounts.sh [path/to/oncepay]
set -euo pipefail
oncepay="${1:-oncepay}"
while read -r user role; do
    if "$oncepay" staff list 2>/dev/null | grep -q "^$user\b"; then
        continue
    fi
    printf '%s-demo\n' "$user" | "$oncepay" staff add "$user" --role "$role" --password-stdin >/dev/null
    echo "demo account: $user ($role), password $user-demo"
done <<'ACCOUNTS'
agent agent
finance finance
finance2 finance
auditor auditor
admin admin
ACCOUNTS
