// Preloaded into gateway and relay by the profile scenario (NODE_OPTIONS=--require …, since
// --cpu-prof itself is refused in NODE_OPTIONS): starts V8's sampling profiler once the file
// BENCH_CPU_PROFILE_DIR/start appears (so start-up is left out; not a signal, as Nest's shutdown
// hooks treat SIGUSR2 and most others as "stop") and writes a .cpuprofile to BENCH_CPU_PROFILE_DIR when the process is told to
// stop. Other services are left alone.
'use strict';
const { Session } = require('node:inspector');
const { existsSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.BENCH_CPU_PROFILE_DIR;
const services = (process.env.BENCH_CPU_PROFILE_SERVICES || 'gateway,relay').split(',');
if (dir && services.includes(process.env.SERVICE_NAME)) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 250 });
  let started = false;
  const trigger = setInterval(() => {
    if (!existsSync(join(dir, 'start'))) return;
    clearInterval(trigger);
    started = true;
    session.post('Profiler.start');
  }, 50);
  trigger.unref();
  let written = false;
  // A session on the process's own thread answers synchronously, so this works inside 'exit'.
  const write = () => {
    if (written || !started) return;
    written = true;
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      writeFileSync(
        join(dir, `${process.env.SERVICE_NAME}.${process.pid}.cpuprofile`),
        JSON.stringify(result.profile),
      );
    });
  };
  // Nest's shutdown hooks re-raise the signal after closing, which ends the process without 'exit':
  // the profile is taken when the signal arrives (once, so the re-raised signal still ends it).
  process.once('SIGTERM', write);
  process.once('SIGINT', write);
  process.once('exit', write);
}
