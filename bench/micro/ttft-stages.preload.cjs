// Stage clock of one call at a time through a Node service (issue 17, h113): preloaded into gateway and
// relay by bench/micro/ttft-streams.mjs (`--service-env NODE_OPTIONS=--require <this file>,TTFT_STAGES_DIR=DIR`),
// it notes on one clock (performance.timeOrigin + now, so two processes line up) when each HTTP call's
// bytes come in and go out on every socket: the client's request (the server's `request` event), the next hop's request written,
// the next hop's first answer read, the first answer bytes written back, and the JS stages named below
// when the module that runs them is loaded (relay). Calls must come one at a time (the ttft shapes);
// written as JSON to DIR/stages-<pid>.json when the process exits. A measuring aid, never production.
'use strict';
const http = require('node:http');
const net = require('node:net');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const Module = require('node:module');

const dir = process.env.TTFT_STAGES_DIR;
if (dir) {
  const now = () => performance.timeOrigin + performance.now();
  const calls = [];
  let call;
  const mark = (name) => {
    if (call !== undefined && call[name] === undefined) call[name] = now();
  };
  const HTTP_METHOD = /^(POST|GET|PUT|DELETE|PATCH|HEAD) /;
  const httpSockets = new WeakSet();
  const isServerSide = (socket) => socket.server != null;

  // Node's HTTP server parses its sockets' bytes in C++ (they never pass through push): a call begins at
  // the server's `request` event.
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithClock(event, req, ...rest) {
    if (event === 'request' && req.url.startsWith('/v1/')) {
      call = { in: now() };
      calls.push(call);
    }
    return emit.call(this, event, req, ...rest);
  };
  const push = net.Socket.prototype.push;
  net.Socket.prototype.push = function pushWithClock(chunk, encoding) {
    if (chunk != null && chunk.length > 0 && httpSockets.has(this)) mark('hopRead');
    return push.call(this, chunk, encoding);
  };

  const noteWrite = (socket, data) => {
    if (call === undefined) return;
    if (isServerSide(socket)) {
      if (call.hopRead !== undefined) mark('replied');
      return;
    }
    const first = Array.isArray(data) ? (data[0]?.chunk ?? data[0]) : data;
    const head =
      typeof first === 'string'
        ? first.slice(0, 16)
        : Buffer.isBuffer(first)
          ? first.toString('latin1', 0, 16)
          : '';
    if (HTTP_METHOD.test(head)) {
      httpSockets.add(socket);
      mark('hopWritten');
    }
  };
  const writeGeneric = net.Socket.prototype._writeGeneric;
  net.Socket.prototype._writeGeneric = function writeGenericWithClock(writev, data, encoding, cb) {
    noteWrite(this, data);
    return writeGeneric.call(this, writev, data, encoding, cb);
  };

  // JS stages of relay (loaded from its dist): names as the stage table prints them.
  const wrapAsync = (proto, method, startName, doneName) => {
    const original = proto?.[method];
    if (typeof original !== 'function') return;
    proto[method] = function withClock(...args) {
      mark(startName);
      const result = original.apply(this, args);
      if (doneName !== undefined && result instanceof Promise)
        result.then(
          () => mark(doneName),
          () => undefined,
        );
      return result;
    };
  };
  const wrapped = new Set();
  const load = Module._load;
  Module._load = function loadWithClock(request, parent, isMain) {
    const exports = load.call(this, request, parent, isMain);
    if (exports === null || typeof exports !== 'object' || wrapped.has(exports)) return exports;
    if (exports.ChatRelay?.prototype?.handle) {
      wrapped.add(exports);
      wrapAsync(exports.ChatRelay.prototype, 'handle', 'handler');
    }
    if (exports.UpstreamClient?.prototype?.send) {
      wrapped.add(exports);
      wrapAsync(exports.UpstreamClient.prototype, 'send', 'sent', 'hopHeaders');
    }
    if (exports.ChatStreamRelay?.prototype?.relay) {
      wrapped.add(exports);
      wrapAsync(exports.ChatStreamRelay.prototype, 'relay', 'relayStarts');
    }
    if (exports.FastifyClientReply?.prototype?.write) {
      wrapped.add(exports);
      wrapAsync(exports.FastifyClientReply.prototype, 'write', 'firstWrite');
      wrapAsync(exports.FastifyClientReply.prototype, 'sendRaw', 'firstWrite');
      wrapAsync(exports.FastifyClientReply.prototype, 'sendJson', 'firstWrite');
    }
    return exports;
  };

  process.on('exit', () => {
    writeFileSync(join(dir, `stages-${process.pid}.json`), JSON.stringify({ pid: process.pid, calls }));
  });
}
