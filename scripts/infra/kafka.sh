# shellcheck shell=bash
# Apache Kafka for tests: one KRaft node acting as broker and controller, run straight from the jars
# Maven Central publishes (no distribution tarball needed). Sourced by infra.sh.
# State: <state>/kafka/{port,controller.port,kafka.pid,server.properties,data/,logs/}.
# Jars: <cache>/kafka-<version>/*.jar, resolved once through scripts/infra/kafka/pom.xml.

KAFKA_VERSION="${TOLLGATE_KAFKA_VERSION:-3.9.1}"
KAFKA_CACHE_DIR="${TOLLGATE_CACHE_DIR:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/tollgate}"
KAFKA_JARS="$KAFKA_CACHE_DIR/kafka-$KAFKA_VERSION"
KAFKA_STOP_GRACE="${TOLLGATE_KAFKA_STOP_GRACE:-30}"

kafka_install() {
  command -v java >/dev/null || apt_install openjdk-17-jre-headless
  [[ -f "$KAFKA_JARS/.complete" ]] && return 0
  command -v mvn >/dev/null || apt_install maven
  log "kafka: resolving kafka_2.13 $KAFKA_VERSION and its runtime dependencies into $KAFKA_JARS"
  local staging="$KAFKA_JARS.partial.$$"
  rm -rf "$staging"
  mkdir -p "$KAFKA_CACHE_DIR"
  if ! mvn -B -q -Dstyle.color=never -f "$INFRA_SCRIPT_DIR/kafka/pom.xml" -Dkafka.version="$KAFKA_VERSION" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$staging" >"$KAFKA_CACHE_DIR/mvn.log" 2>&1; then
    log_tail "$KAFKA_CACHE_DIR/mvn.log"
    rm -rf "$staging"
    die "kafka: Maven could not resolve the broker jars"
  fi
  touch "$staging/.complete"
  rm -rf "$KAFKA_JARS"
  mv "$staging" "$KAFKA_JARS"
}

# The broker's class-data archive (see kafka/broker.sh), one per JVM build: keyed by libjvm's mtime and size.
kafka_class_data_archive() {
  local java_home key=default
  java_home="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
  if [[ -f "$java_home/lib/server/libjvm.so" ]]; then
    key="jvm-$(stat -c '%Y-%s' "$java_home/lib/server/libjvm.so")"
  fi
  printf '%s/cds/broker-%s.jsa' "$KAFKA_JARS" "$key"
}

kafka_port() { read_file_or_empty "$(service_dir kafka)/port"; }
kafka_pid() { read_file_or_empty "$(service_dir kafka)/kafka.pid"; }
kafka_logfile() { printf '%s/logs/server.log' "$(service_dir kafka)"; }
kafka_brokers() { printf '127.0.0.1:%s' "$(kafka_port)"; }

# Matches broker.sh while it formats, and the JVM it becomes: both carry the state dir on their command line.
kafka_running() { pid_matches "$(kafka_pid)" "$(service_dir kafka)"; }

# Ready means a client gets answers: BrokerApiVersionsCommand bootstraps with a Metadata request and
# then asks the broker for its API versions. The port check first spares a JVM start per poll; the
# broker's class-data archive, when there is one, halves the probe's own start.
kafka_healthy() {
  local port archive class_data=()
  port="$(kafka_port)"
  [[ -n "$port" ]] && port_open "$port" || return 1
  archive="$(kafka_class_data_archive)"
  [[ -s "$archive" ]] && class_data=(-XX:SharedArchiveFile="$archive")
  timeout 30 java -Xms64m -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.awt.headless=true \
    "${class_data[@]}" -Dlog4j.configuration="file:$INFRA_SCRIPT_DIR/kafka/tools-log4j.properties" \
    -cp "$KAFKA_JARS/*" kafka.admin.BrokerApiVersionsCommand --bootstrap-server "127.0.0.1:$port" \
    >"$(service_dir kafka)/probe.log" 2>&1
}

kafka_write_config() {
  local dir="$1" port="$2" controller_port="$3"
  cat >"$dir/server.properties" <<EOF
# Single-node KRaft test broker written by scripts/infra/kafka.sh. Throw-away data.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
log.dirs=$dir/data

auto.create.topics.enable=true
delete.topic.enable=true
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0

# Fewer internal partitions and threads: a 2-core test machine, one client suite at a time.
offsets.topic.num.partitions=10
transaction.state.log.num.partitions=10
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
EOF
}

kafka_start() {
  local dir port controller_port cluster_id ports
  dir="$(service_dir kafka)"
  rm -rf "$dir"
  mkdir -p "$dir/data" "$dir/logs"
  mapfile -t ports < <(free_ports 2)
  port="${ports[0]}"
  controller_port="${ports[1]}"
  printf '%s\n' "$port" >"$dir/port"
  printf '%s\n' "$controller_port" >"$dir/controller.port"
  kafka_write_config "$dir" "$port" "$controller_port"

  # A cluster id is 16 random bytes in unpadded base64url; generating it here saves a JVM start. Like
  # Kafka's own Uuid.randomUuid, avoid a leading "-": StorageTool would read the id as an option.
  cluster_id="$(node -e '
    const { randomBytes } = require("crypto");
    let id;
    do id = randomBytes(16).toString("base64url"); while (id.startsWith("-"));
    process.stdout.write(id);
  ')"

  log "kafka: starting $KAFKA_VERSION on 127.0.0.1:$port (controller 127.0.0.1:$controller_port)"
  # broker.sh formats the log dir, then execs the JVM: the pid it records is the broker's. setsid makes
  # it the leader of its own session and process group, so it outlives this script, ignores the
  # caller's Ctrl-C, and kafka_stop can signal the group (the format JVM included, if still running).
  setsid bash "$INFRA_SCRIPT_DIR/kafka/broker.sh" "$dir" "$KAFKA_JARS" "$cluster_id" "$(kafka_class_data_archive)" \
    </dev/null >>"$dir/logs/console.log" 2>&1 &
  local deadline=$((SECONDS + 10))
  until [[ -s "$dir/kafka.pid" ]]; do
    ((SECONDS < deadline)) || die "kafka: the broker process did not start (see $dir/logs/console.log)"
    sleep 0.05
  done
}

kafka_wait() {
  local dir
  dir="$(service_dir kafka)"
  if ! wait_until kafka kafka_healthy kafka_running "$(kafka_logfile)"; then
    log_tail "$dir/logs/format.log" 20
    log_tail "$dir/logs/console.log" 20
    log_tail "$dir/probe.log" 20
    die "kafka did not become ready"
  fi
  node "$INFRA_SCRIPT_DIR/kafka-coordinator.mjs" "$(kafka_brokers)" "${TOLLGATE_INFRA_TIMEOUT:-120}" ||
    die "kafka: consumer groups could not be coordinated"
  log "kafka: ready at $(kafka_brokers)"
}

kafka_stop() {
  local dir pid
  dir="$(service_dir kafka)"
  if kafka_running; then
    pid="$(kafka_pid)"
    log "kafka: stopping"
    if terminate_pid "-$pid" "$KAFKA_STOP_GRACE" kafka; then
      kafka_publish_class_data "$pid"
    fi
    rm -f "$(kafka_class_data_archive).$pid.partial"
  fi
  rm -rf "$dir"
}

# A broker that ran without an archive wrote one as it exited; only a clean exit leaves a whole file.
kafka_publish_class_data() {
  local archive partial
  archive="$(kafka_class_data_archive)"
  partial="$archive.$1.partial"
  if [[ -s "$partial" && ! -s "$archive" ]]; then
    mv -f "$partial" "$archive"
    log "kafka: saved a class-data archive for faster starts ($archive)"
  fi
}

kafka_env() { printf 'export KAFKA_BROKERS=%s\n' "$(kafka_brokers)"; }

kafka_describe() { printf 'pid %s, %s, version %s' "$(kafka_pid)" "$(kafka_brokers)" "$KAFKA_VERSION"; }
