# SPDX-License-Identifier: MIT
# examples/openclaw-claw (the hand-written example package): inspect and the add plan.
. "$ORACLE_REPO/tests/oracle/lib.sh"
P=$CASE_TMP/pkg H=$CASE_TMP/home
command cp -a "$ORACLE_REPO/examples/openclaw-claw" "$P"
mkdir -p "$H"
snap "$H"
oc "$H" claws inspect --json "$P" >oc-inspect.json; a=$?
clawport_run "$H" claw inspect --json "$P" >cp-inspect.json; b=$?
same_status "example: inspect exit" $a $b
json_same "example: inspect --json" oc-inspect.json cp-inspect.json
oc "$H" claws add --dry-run --json "$P" >oc-plan.json; a=$?
restore "$H"
clawport_run "$H" claw add --dry-run --json "$P" >cp-plan.json; b=$?
same_status "example: add --dry-run exit" $a $b
json_same "example: add --dry-run --json" oc-plan.json cp-plan.json
