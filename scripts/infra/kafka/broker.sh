#!/usr/bin/env bash
# Formats a KRaft log directory, then becomes the Kafka broker: started in the background by
# scripts/infra/kafka.sh so the slow format step overlaps with the other services' start.
#
#   broker.sh <state-dir> <jars-dir> <cluster-id> <class-data-archive>
#
# <state-dir> holds server.properties and receives kafka.pid (this process, which turns into the
# broker's JVM) and logs/. Exits non-zero if formatting fails; the broker's own exit status otherwise.
#
# <class-data-archive> (AppCDS) cuts the broker's start from ~8 s to ~3 s on 2 busy cores. When it does not
# exist yet, this broker records one when it exits, as <archive>.<pid>.partial; kafka_stop publishes
# it after a clean shutdown. A stale or foreign archive only makes the JVM warn and load classes as usual.
set -euo pipefail

state_dir="$1"
jars_dir="$2"
cluster_id="$3"
archive="$4"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

printf '%s\n' "$$" >"$state_dir/kafka.pid"

# The broker outlives whoever started it, so it keeps none of their descriptors beyond stdio: a lock
# its caller held (`flock bench.lock bash scripts/infra.sh up`) would otherwise stay held until the
# broker stops.
for fd in /proc/$$/fd/*; do
  fd="${fd##*/}"
  if ((fd > 2)); then eval "exec ${fd}>&-" 2>/dev/null || true; fi
done

java -Xms64m -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.awt.headless=true \
  -Dlog4j.configuration="file:$here/tools-log4j.properties" -cp "$jars_dir/*" \
  kafka.tools.StorageTool format -t "$cluster_id" -c "$state_dir/server.properties" --ignore-formatted \
  >"$state_dir/logs/format.log" 2>&1 || {
  echo "kafka: formatting $state_dir/data failed, see $state_dir/logs/format.log" >&2
  exit 1
}

if [[ -s "$archive" ]]; then
  class_data=(-XX:SharedArchiveFile="$archive")
else
  mkdir -p "$(dirname "$archive")"
  class_data=(-XX:ArchiveClassesAtExit="$archive.$$.partial")
fi

# logs/gc.log: the JVM's GC pauses (bench/micro/distributed-lone-call.mjs reads them per window).
exec java -Xms256m -Xmx768m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true "${class_data[@]}" \
  -Xlog:gc:file="$state_dir/logs/gc.log"::filecount=2,filesize=10m \
  -Dlog4j.configuration="file:$here/log4j.properties" -Dkafka.logs.dir="$state_dir/logs" \
  -cp "$jars_dir/*" kafka.Kafka "$state_dir/server.properties"
