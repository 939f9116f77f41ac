#!/bin/sh
# The memory benchmark's fake CLI: answers `initialize` (always a host's first line), announces
# system/init, then reads stdin until the host closes it. A shell script rather than bench-cli.mjs so that
# a hundred of them cost the machine a few MB instead of a hundred Node processes.
IFS= read -r line || exit 0
id=$(printf '%s\n' "$line" | sed -n 's/.*"request_id":"\([^"]*\)".*/\1/p')
printf '{"type":"control_response","response":{"subtype":"success","request_id":"%s","response":{}}}\n' "$id"
printf '{"type":"system","subtype":"init","session_id":"bench-idle","uuid":"init","tools":[],"mcp_servers":[]}\n'
exec cat >/dev/null
